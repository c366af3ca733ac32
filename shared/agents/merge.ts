/**
 * A three-way merge of text by lines, for updating an installed SKILL.md the user edited: the
 * recorded base (what was installed), theirs (the source now) and mine (the installed copy now).
 * Changes on one side only are taken; the same change on both sides is taken once; different
 * changes to the same lines are a conflict, shown with the usual markers so nothing is lost.
 */

/** One region of a merge: agreed text, or a conflict with both sides and the base. */
export type MergeChunk =
  | { kind: 'same'; lines: string[] }
  | { kind: 'conflict'; mine: string[]; base: string[]; theirs: string[] };

/** The outcome of {@link mergeThreeWay}. */
export interface MergeResult {
  chunks: MergeChunk[];
  conflicts: number;
  /** The merged text; conflicts are written with `<<<<<<< mine` / `=======` / `>>>>>>> theirs` markers. */
  text: string;
}

/** Lines of a text, each with its line ending, so a merge keeps CRLF and a missing final newline. */
export function splitLines(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g);
  return lines ?? [];
}

/**
 * Bound of the table the line matcher fills (lines of one side times the other). Why: SKILL.md
 * files are small; past this a merge treats the whole file as one conflict rather than spend
 * seconds and hundreds of megabytes.
 */
const MAX_CELLS = 4_000_000;

/** For each line of `a`, the index of the line of `b` it matches in a longest common subsequence. */
function matchLines(a: readonly string[], b: readonly string[]): (number | undefined)[] | null {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) return null;
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
  const match: (number | undefined)[] = new Array<number | undefined>(n).fill(undefined);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      match[i] = j;
      i++;
      j++;
    } else if ((table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0)) i++;
    else j++;
  }
  return match;
}

const same = (x: readonly string[], y: readonly string[]): boolean =>
  x.length === y.length && x.every((line, k) => line === y[k]);

/** Merge `mine` and `theirs`, both changed from `base`. */
export function mergeThreeWay(base: string, mine: string, theirs: string): MergeResult {
  const b = splitLines(base);
  const o = splitLines(mine);
  const t = splitLines(theirs);
  const chunks: MergeChunk[] = [];
  const push = (lines: string[]): void => {
    if (lines.length === 0) return;
    const last = chunks[chunks.length - 1];
    if (last?.kind === 'same') last.lines.push(...lines);
    else chunks.push({ kind: 'same', lines: [...lines] });
  };
  const settle = (baseLines: string[], mineLines: string[], theirLines: string[]): void => {
    if (same(mineLines, baseLines)) push(theirLines);
    else if (same(theirLines, baseLines) || same(mineLines, theirLines)) push(mineLines);
    else chunks.push({ kind: 'conflict', mine: mineLines, base: baseLines, theirs: theirLines });
  };
  const toMine = matchLines(b, o);
  const toTheirs = matchLines(b, t);
  if (!toMine || !toTheirs) settle(b, o, t);
  else {
    let i = 0;
    let x = 0;
    let y = 0;
    for (let k = 0; k < b.length; k++) {
      const mk = toMine[k];
      const tk = toTheirs[k];
      // A base line both sides kept, after what was settled so far: the regions before it are settled.
      if (mk === undefined || tk === undefined || mk < x || tk < y) continue;
      settle(b.slice(i, k), o.slice(x, mk), t.slice(y, tk));
      push([b[k] ?? '']);
      i = k + 1;
      x = mk + 1;
      y = tk + 1;
    }
    settle(b.slice(i), o.slice(x), t.slice(y));
  }
  let conflicts = 0;
  const out: string[] = [];
  const withEnd = (lines: string[]): string[] =>
    lines.map((l, k) => (k === lines.length - 1 && !l.endsWith('\n') ? `${l}\n` : l));
  for (const c of chunks) {
    if (c.kind === 'same') out.push(...c.lines);
    else {
      conflicts++;
      out.push('<<<<<<< mine\n', ...withEnd(c.mine), '=======\n', ...withEnd(c.theirs));
      out.push('>>>>>>> theirs\n');
    }
  }
  return { chunks, conflicts, text: out.join('') };
}

/** A line diff for showing an update: each line of the old and new text, marked. */
export function lineDiff(
  before: string,
  after: string,
): { kind: 'same' | 'removed' | 'added'; text: string }[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const match = matchLines(a, b);
  if (!match)
    return [
      ...a.map((text) => ({ kind: 'removed' as const, text })),
      ...b.map((text) => ({ kind: 'added' as const, text })),
    ];
  const out: { kind: 'same' | 'removed' | 'added'; text: string }[] = [];
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const m = match[i];
    if (m === undefined) {
      out.push({ kind: 'removed', text: a[i] ?? '' });
      continue;
    }
    for (; j < m; j++) out.push({ kind: 'added', text: b[j] ?? '' });
    out.push({ kind: 'same', text: a[i] ?? '' });
    j = m + 1;
  }
  for (; j < b.length; j++) out.push({ kind: 'added', text: b[j] ?? '' });
  return out;
}
