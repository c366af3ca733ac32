/**
 * What kind of JSON value something is, in words ("a list", "an object", "a string"), and the
 * value a validator's issue path points at: the one wording for messages that say a file or a
 * request holds the wrong kind of value.
 */

/** The kind of a parsed JSON value: "a list", "an object", "null", or "a string", "a number", … */
export function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The value at `path` (object keys and list indexes) inside a parsed JSON value, if any. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}
