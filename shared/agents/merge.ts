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
    else {
      // Why trim: lines both sides changed in the same way are agreed, not part of the conflict.
      let p = 0;
      while (p < mineLines.length && p < theirLines.length && mineLines[p] === theirLines[p]) p++;
      let q = 0;
      while (
        q < mineLines.length - p &&
        q < theirLines.length - p &&
        mineLines[mineLines.length - 1 - q] === theirLines[theirLines.length - 1 - q]
      )
        q++;
      push(mineLines.slice(0, p));
      chunks.push({
        kind: 'conflict',
        mine: mineLines.slice(p, mineLines.length - q),
        base: baseLines,
        theirs: theirLines.slice(p, theirLines.length - q),
      });
      push(mineLines.slice(mineLines.length - q));
    }
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

/** One line of a line diff. */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** A file added, removed or changed between two versions of a skill folder. */
export interface FileChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
}

/** The files added, removed or changed from `before` to `after` (both by path), by path. */
export function filesChanged(
  before: ReadonlyMap<string, Uint8Array>,
  after: ReadonlyMap<string, Uint8Array>,
): FileChange[] {
  const out: FileChange[] = [];
  for (const [path, data] of before) {
    const now = after.get(path);
    if (now === undefined) out.push({ path, change: 'removed' });
    else if (!sameBytes(data, now)) out.push({ path, change: 'changed' });
  }
  for (const path of after.keys()) if (!before.has(path)) out.push({ path, change: 'added' });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A line diff for showing an update: each line of the old and new text, marked. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const match = matchLines(a, b);
  if (!match)
    return [
      ...a.map((text) => ({ kind: 'removed' as const, text })),
      ...b.map((text) => ({ kind: 'added' as const, text })),
    ];
  const out: DiffLine[] = [];
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

/** One file of a folder as the folder merge sees it: its bytes, and its text when it is text. */
export interface MergeFile {
  data: Uint8Array;
  /** The UTF-8 text, or null for a binary file (not UTF-8, or holding a NUL byte). */
  text: string | null;
}

/** A file's three versions: absent on a side where it does not exist. */
export interface FileSides {
  base?: MergeFile;
  mine?: MergeFile;
  theirs?: MergeFile;
}

/** How two changed sides of one file disagree (docs/agents.md, "Updates"). */
export type FileConflictKind =
  /** A text file changed on both sides, on the same lines: the merged text holds markers. */
  | 'text'
  /** A binary file changed on both sides: keep yours or take theirs. */
  | 'binary'
  /** The source removed a file you edited: keep yours or remove it. */
  | 'removed-at-source'
  /** You removed a file the source changed: leave it removed or take theirs. */
  | 'removed-by-you';

/** One file the user must settle before an update writes anything. */
export interface FileConflict {
  path: string;
  kind: FileConflictKind;
  /** For `text`: the merged text with `<<<<<<< mine` / `>>>>>>> theirs` markers. */
  merged?: string;
  /** For `text`: how many regions conflict. */
  regions?: number;
  /** What happened and what the choices are, in plain words. */
  message: string;
}

/** How the user settled one conflict: the final text, or which side to keep. */
export interface FileResolution {
  path: string;
  /** The settled text (text conflicts). */
  text?: string;
  /** Keep your version or take the source's; a side where the file is absent removes it. */
  keep?: 'mine' | 'theirs';
}

/** What happens to one file in a merge. */
export type FileMergeAction =
  | { path: string; take: 'mine' | 'theirs'; data: Uint8Array }
  | { path: string; take: 'merged'; text: string }
  | { path: string; take: 'removed' };

/** The outcome of {@link mergeFolders}. */
export interface FolderMerge {
  /** Every file's fate; complete only when `conflicts` is empty. */
  actions: FileMergeAction[];
  conflicts: FileConflict[];
  /** Resolutions that could not be used (a text still holding markers), with why. */
  refused: string[];
}

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array | undefined): boolean => {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** True when a text still holds a conflict marker line of {@link mergeThreeWay}. */
export function hasConflictMarkers(text: string): boolean {
  return /^(<<<<<<< mine|=======|>>>>>>> theirs)\r?$/m.test(text);
}

/**
 * Merge an installed skill folder with its source, file by file (docs/agents.md, "Updates"):
 * a file unchanged on one side takes the other side (a removal included); the same change on
 * both sides is taken once; a file changed on both sides is merged by lines when both are text
 * (no base: an empty one), and is otherwise a conflict the user settles (binary: which to keep;
 * removed on one side and changed on the other: keep or remove). Files only the user added are
 * kept. `resolutions` settle conflicts by path; nothing is complete while one is open.
 */
export function mergeFolders(
  files: ReadonlyMap<string, FileSides>,
  resolutions: readonly FileResolution[] = [],
): FolderMerge {
  const actions: FileMergeAction[] = [];
  const conflicts: FileConflict[] = [];
  const refused: string[] = [];
  const settled = new Map(resolutions.map((r) => [r.path, r]));
  const take = (path: string, side: 'mine' | 'theirs', file: MergeFile | undefined): void => {
    actions.push(file ? { path, take: side, data: file.data } : { path, take: 'removed' });
  };
  for (const path of [...files.keys()].sort()) {
    const { base, mine, theirs } = files.get(path) ?? {};
    if (sameBytes(mine?.data, theirs?.data)) take(path, 'mine', mine);
    else if (sameBytes(mine?.data, base?.data)) take(path, 'theirs', theirs);
    else if (sameBytes(theirs?.data, base?.data)) take(path, 'mine', mine);
    else {
      let conflict: FileConflict;
      if (mine && theirs && mine.text !== null && theirs.text !== null && base?.text !== null) {
        const merged = mergeThreeWay(base?.text ?? '', mine.text, theirs.text);
        if (merged.conflicts === 0) {
          actions.push({ path, take: 'merged', text: merged.text });
          continue;
        }
        conflict = {
          path,
          kind: 'text',
          merged: merged.text,
          regions: merged.conflicts,
          message: `${path}: you and the source changed the same lines (${merged.conflicts} place${merged.conflicts === 1 ? '' : 's'}). Settle the marked lines.`,
        };
      } else if (mine && theirs)
        conflict = {
          path,
          kind: 'binary',
          message: `${path} is not text, and both you and the source changed it. Keep yours or take theirs.`,
        };
      else if (mine)
        conflict = {
          path,
          kind: 'removed-at-source',
          message: `The source removed ${path}, which you edited. Keep yours or remove it.`,
        };
      else
        conflict = {
          path,
          kind: 'removed-by-you',
          message: `You removed ${path}, which the source changed. Leave it removed or take theirs.`,
        };
      const answer = settled.get(path);
      if (answer?.keep === 'mine') take(path, 'mine', mine);
      else if (answer?.keep === 'theirs') take(path, 'theirs', theirs);
      else if (answer?.text !== undefined && conflict.kind === 'text') {
        if (hasConflictMarkers(answer.text)) {
          refused.push(`${path} still has conflict markers (<<<<<<<, =======, >>>>>>>).`);
          conflicts.push(conflict);
        } else actions.push({ path, take: 'merged', text: answer.text });
      } else conflicts.push(conflict);
    }
  }
  return { actions, conflicts, refused };
}
