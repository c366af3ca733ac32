/**
 * How many single-character edits turn one short string into another: insertions, deletions,
 * replacements, and swaps of two neighbours, each counting 1 (the optimal-string-alignment form of
 * the Damerau–Levenshtein distance). The one measure of "almost the same word" for suggestions
 * ("Did you mean …?") and for lookalike names in the safety review.
 */

/**
 * The edit distance of `a` and `b` when it is at most `limit`, else `limit + 1`. Why a limit:
 * every caller only asks whether two words are one or two edits apart, and strings whose lengths
 * differ by more than the limit are answered without comparing them.
 */
export function editDistance(a: string, b: string, limit = 2): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // Rows i-2, i-1 and i of the table; row[j] is the distance of a[0..i) and b[0..j).
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, (before[j - 2] ?? 0) + 1);
      row.push(v);
    }
    before = prev;
    prev = row;
  }
  return Math.min(prev[b.length] ?? limit + 1, limit + 1);
}

/** The known word closest to `typed` when it is a likely typo (at most two edits, or a prefix), else undefined. */
export function didYouMean(typed: string, known: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  let best: { word: string; d: number } | undefined;
  for (const word of known) {
    const d = word.startsWith(lower) && lower.length >= 2 ? 0.5 : editDistance(lower, word);
    if (d <= Math.max(1, Math.min(2, Math.floor(word.length / 3))) && (!best || d < best.d))
      best = { word, d };
  }
  return best?.word;
}
