import type { TextEdit } from './text-types';

/**
 * Apply non-overlapping edits (offsets into `text`) back to front. Edits that start at the
 * same offset apply the wider one first, so an insertion lands before the replaced text's
 * successor rather than inside it.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = text.length;
  for (const e of sorted) {
    const start = Math.max(0, Math.min(e.start, text.length));
    const end = Math.max(start, Math.min(e.end, text.length));
    if (end > limit) throw new RangeError(`Overlapping text edits at offset ${start}`);
    out = out.slice(0, start) + e.newText + out.slice(end);
    limit = start;
  }
  return out;
}
