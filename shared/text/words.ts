/**
 * A number as people here read it: "1,000", "12,345,678", "0.5". Why not
 * `n.toLocaleString('en-US')` on every call: the first call in a process sets up the ICU number
 * formatter (~15 ms here), which `skillbench serve` paid on its start-up path for the line that
 * says how many skills it serves. Whole numbers are grouped here; anything else (fractions, -0,
 * numbers too large for a double to hold exactly) goes to ICU and reads exactly as before.
 */
export function grouped(n: number | bigint): string {
  if (typeof n === 'number' && (!Number.isSafeInteger(n) || Object.is(n, -0)))
    return n.toLocaleString('en-US');
  const digits = String(n < 0 ? -n : n);
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/** "1 file", "2 files", "1,000 skills": a count with its noun in the right number. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${grouped(n)} ${n === 1 ? singular : plural}`;
}

/** Names in a sentence: "Cursor", "Cursor and Codex", "Cursor, Codex and Cline". */
export function listed(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
