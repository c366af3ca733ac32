/**
 * The two ajv runtime helpers the generated validators call, as pure functions (ajv's own
 * are CommonJS modules; the generated code must stay ESM and eval-free for the renderer).
 */

/** Deep equality of JSON values (ajv's `equal`, used by enum/const/uniqueItems). */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) {
      const bb = b as unknown[];
      if (a.length !== bb.length) return false;
      for (let i = 0; i < a.length; i++) if (!equal(a[i], bb[i])) return false;
      return true;
    }
    const ka = Object.keys(a);
    const bo = b as Record<string, unknown>;
    if (ka.length !== Object.keys(bo).length) return false;
    for (const k of ka)
      if (
        !Object.prototype.hasOwnProperty.call(bo, k) ||
        !equal((a as Record<string, unknown>)[k], bo[k])
      )
        return false;
    return true;
  }
  return a !== a && b !== b;
}

/**
 * Length in Unicode code points (ajv's `ucs2length`, used by minLength/maxLength): the one count
 * the hand rules use too, so a schema's limit and a rule's message never disagree on a length.
 */
export { codePointLength as ucs2length } from '../../skill/yaml-strings';
