import type { TextEdit } from './text-types';

/**
 * Apply non-overlapping edits (offsets into `text`). Edits that start at the same offset apply
 * the wider one first, so an insertion lands before the replaced text's successor rather than
 * inside it; equal edits apply in order, the later one's text first. Built in one pass over the
 * text. Why not splice edit by edit: each splice copied the whole text, quadratic for a fix of
 * thousands of edits (line endings of a large file).
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const n = text.length;
  const clamped = edits.map((e, i) => {
    const start = Math.max(0, Math.min(e.start, n));
    return { start, end: Math.max(start, Math.min(e.end, n)), newText: e.newText, i, e };
  });
  // Back to front as applied: by start, then end, descending; input order among equals.
  clamped.sort((a, b) => b.e.start - a.e.start || b.e.end - a.e.end || a.i - b.i);
  let limit = n;
  for (const c of clamped) {
    if (c.end > limit) throw new RangeError(`Overlapping text edits at offset ${c.start}`);
    limit = c.start;
  }
  const parts: string[] = [];
  let at = 0;
  for (let k = clamped.length - 1; k >= 0; k--) {
    const c = clamped[k];
    if (!c) continue;
    parts.push(text.slice(at, c.start), c.newText);
    at = Math.max(at, c.end);
  }
  parts.push(text.slice(at));
  return parts.join('');
}
