/**
 * The disk side of the safety review: every path of a skill folder, read through the one
 * skill-folder reader (main/skill-folder) and read whole, never truncated; what cannot be read
 * is listed as not examined with the reason (docs/safety-review.md, "Files").
 */
import { createHash, hash as hashOnce, type Hash } from 'node:crypto';
import { join } from 'node:path';
import { frontmatterForReview } from '../../shared/safety';
import { formatBytes } from '../../shared/text/bytes';
import type { ReviewFile, ReviewInput } from '../../shared/safety';
import { parseSkill, type ParsedSkill } from '../../shared/skill';
import { TimeSlicer } from '../platform/concurrency';
import { sha256Digest } from '../platform/digest';
import { sameMaps } from '../platform/maps';
import { readRegularFileSync } from '../platform/read-file';
import { readSkillFolder, type SkillFolder } from '../skill-folder';

/** Largest file read whole (8 MiB); a larger one is listed as not examined. */
export const REVIEW_MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Most bytes read from one skill (64 MiB); files past it are listed as not examined. */
export const REVIEW_MAX_SKILL_BYTES = 64 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are UTF-8 without NUL bytes (a BOM dropped), else undefined. */
export function asText(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    const text = utf8.decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    return undefined;
  }
}

/** Why a folder the walk never enters was not examined. */
function notEnteredReason(name: string): string {
  if (/^(?:\.git|\.hg|\.svn|\.bzr|_darcs|CVS|\.jj|\.pijul)$/.test(name))
    return 'version-control data, which Skillbench never opens';
  if (name === '__pycache__') return 'compiled Python caches';
  if (/^(?:node_modules|bower_components|\.venv|\.tox|\.nox)$/.test(name))
    return 'installed dependencies inside the skill, which Skillbench never opens';
  return 'a folder Skillbench never opens (caches or operating-system litter)';
}

/** The review's input for files given in memory (inspector, import): path → bytes. */
export function reviewInputFromBytes(files: ReadonlyMap<string, Uint8Array>): ReviewInput {
  const out: ReviewFile[] = [];
  let skillText: string | undefined;
  for (const [path, bytes] of files) {
    const text = asText(bytes);
    const f: ReviewFile = { path, kind: 'file', size: bytes.length };
    if (bytes.length > REVIEW_MAX_FILE_BYTES)
      f.notExamined = `larger than ${formatBytes(REVIEW_MAX_FILE_BYTES)}`;
    else if (text !== undefined) f.text = text;
    else f.head = bytes.subarray(0, 512);
    if (path === 'SKILL.md') skillText = text;
    out.push(f);
  }
  return withFrontmatter(out, skillText);
}

/** SKILL.md's text and its parse, when a caller has just parsed it (the parse is a function of the text). */
export interface ParsedText {
  text: string;
  parsed: ParsedSkill;
}

function withFrontmatter(
  files: ReviewFile[],
  skillText: string | undefined,
  given?: ParsedText,
): ReviewInput {
  if (skillText === undefined) return { files };
  const parsed = given?.text === skillText ? given.parsed : parseSkill(skillText);
  return { files, frontmatter: frontmatterForReview(parsed) };
}

/** What was read of one skill folder: the review's input and the content hash. */
export interface ReadForReview {
  folder: SkillFolder;
  /** Decoded when first asked for (a kept review needs only the hashes). */
  readonly input: ReviewInput;
  /**
   * sha256 of every path, kind and content (or size and time when not read): the "Trust anyway"
   * key. Computed when first asked for: only a skill with findings and recorded decisions needs it.
   */
  readonly hash: string;
  /**
   * sha256 of everything the review's input is made of (every path, kind, size, flag, link and
   * reason, and the sha256 of every file's bytes, each description's length written before it so
   * no two inputs give the same stream): the key a kept review is found by (see ReviewMemo in
   * main/mcp-server/skill-check.ts).
   */
  key: string;
}

/**
 * A file's bytes read just before (the embedded server's, which it serves) with their digest,
 * `sha256:` and the hex of exactly these bytes, so the key need not hash them again.
 */
export interface KnownFile {
  bytes: Uint8Array;
  digest: string;
}

/**
 * Add one part to the content hash with its length first. Why: without lengths, parts could be
 * cut differently and hash the same (one file holding `x\0file\0…` against two files), so a
 * "Trust anyway" given to one skill could carry over to another.
 */
function frame(hash: Hash, part: string | Uint8Array): void {
  const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
  hash.update(`${bytes.length}:`);
  hash.update(bytes);
}

/** The content hash of parts in order, each framed (see {@link frame}). */
function hashOfParts(parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) frame(hash, part);
  return hash.digest('hex');
}

/** Read a skill folder for the review. Throws NotASkillError for a folder without SKILL.md. */
export async function readForReview(
  dir: string,
  slicer = new TimeSlicer(),
): Promise<ReadForReview> {
  return reviewInputOfFolder(await readSkillFolder(dir, slicer), slicer);
}

/**
 * The review's input for a skill folder already walked. `known` gives the bytes of files read
 * just before (the embedded server's, which it serves) with their digest; any other file is read
 * here. Either way the review sees the bytes of one read, judged exactly as {@link readForReview}
 * judges them, and the hash and key are the same. `skillMd`, a parse of SKILL.md made just before,
 * is used when its text is exactly the text the review decodes.
 */
export async function reviewInputOfFolder(
  folder: SkillFolder,
  slicer = new TimeSlicer(),
  known?: (path: string) => KnownFile | undefined,
  skillMd?: ParsedText,
): Promise<ReadForReview> {
  const files: ReviewFile[] = [];
  /** What the content hash is made of, in order; hashed only when the hash is asked for. */
  const hashed: (string | Uint8Array)[] = [];
  /** The key's text, one path's description after another, each with its length first. */
  const key: string[] = [];
  const describe = (what: unknown[]): void => {
    const json = JSON.stringify(what);
    key.push(`${Buffer.byteLength(json)}:${json}`);
  };
  let budget = REVIEW_MAX_SKILL_BYTES;
  /** The bytes of each file read, decoded only when the input is asked for. */
  const read = new Map<ReviewFile, Uint8Array>();
  describe(['skill', folder.skillFileName]);
  for (const e of folder.entries) {
    if (slicer.due()) await slicer.pause();
    const name = e.path.slice(e.path.lastIndexOf('/') + 1);
    // Why folders are not hashed: the same files saved, imported or installed hash the same.
    if (e.kind !== 'directory') hashed.push(e.path, e.kind === 'file' ? 'file' : e.kind);
    if (e.kind === 'directory') {
      // Why only folders not entered: their contents are unknown; entered folders' files follow.
      const entered = !(e.leftOut?.scope === 'never');
      describe(['dir', e.path, entered]);
      files.push(
        entered
          ? { path: e.path, kind: 'directory', size: 0 }
          : { path: e.path, kind: 'directory', size: 0, notExamined: notEnteredReason(name) },
      );
      continue;
    }
    if (e.kind === 'symlink') {
      const target = e.link?.real ?? e.link?.text ?? '?';
      hashed.push(e.link?.text ?? '');
      describe(['link', e.path, e.size, e.link?.text ?? '', target, e.link?.inside ?? false]);
      files.push({
        path: e.path,
        kind: 'symlink',
        size: e.size,
        link: { target, inside: e.link?.inside ?? false },
      });
      continue;
    }
    if (e.kind !== 'file') {
      describe(['other', e.path, e.size]);
      files.push({ path: e.path, kind: 'other', size: e.size });
      continue;
    }
    // A file under a folder the walk never entered cannot be here; OS litter and .pyc are read like any file.
    const f: ReviewFile = { path: e.path, kind: 'file', size: e.size };
    if (e.executable) f.executable = true;
    if (e.size > REVIEW_MAX_FILE_BYTES || e.size > budget) {
      f.notExamined =
        e.size > REVIEW_MAX_FILE_BYTES
          ? `larger than ${formatBytes(REVIEW_MAX_FILE_BYTES)}`
          : `the skill is larger than ${formatBytes(REVIEW_MAX_SKILL_BYTES)} in all`;
      hashed.push(`${e.size} ${e.mtimeMs ?? 0}`);
      describe(['file', e.path, !!e.executable, e.size, e.mtimeMs ?? 0, f.notExamined]);
      files.push(f);
      continue;
    }
    try {
      const given = known?.(e.path);
      let bytes = given?.bytes;
      // Why the same refusal: a file that grew past the limit since the walk is not read whole.
      if (bytes !== undefined && bytes.length > REVIEW_MAX_FILE_BYTES)
        throw new Error('grew while read');
      bytes ??= readRegularFileSync(join(folder.dir, e.path), REVIEW_MAX_FILE_BYTES, e).bytes;
      if (!bytes) throw new Error('grew while read');
      budget -= bytes.length;
      hashed.push(bytes);
      // Why the digest stands for the bytes: it is the sha256 of exactly these bytes (a given
      // digest was computed from them by whoever read them), so the key still changes with any byte.
      const digest = given?.digest ?? sha256Digest(bytes);
      describe(['file', e.path, !!e.executable, e.size, bytes.length, digest]);
      read.set(f, bytes);
    } catch (error) {
      f.notExamined = `could not be read (${error instanceof Error ? error.message : String(error)})`;
      describe(['file', e.path, !!e.executable, e.size, f.notExamined]);
    }
    files.push(f);
  }
  let input: ReviewInput | undefined;
  const decode = (): ReviewInput => {
    let skillText: string | undefined;
    for (const [f, bytes] of read) {
      const text = asText(bytes);
      if (text !== undefined) f.text = text;
      else f.head = bytes.subarray(0, 512);
      if (f.path === folder.skillFileName) skillText = text;
    }
    // Why: the review calls SKILL.md by its standard name; a `skill.md` is reviewed the same way.
    const skill = files.find((f) => f.path === folder.skillFileName);
    if (skill && folder.skillFileName !== 'SKILL.md') skill.path = 'SKILL.md';
    return withFrontmatter(files, skillText, skillMd);
  };
  let hash: string | undefined;
  return {
    folder,
    get input() {
      input ??= decode();
      return input;
    },
    get hash() {
      hash ??= hashOfParts(hashed);
      return hash;
    },
    // Why one hash of the joined text: the same digest as feeding the parts one by one, without a
    // Hash object and a native call per path (a restart computes one key per skill served).
    key: hashOnce('sha256', key.join(''), 'hex'),
  };
}

/** Whether two sets of files in memory hold the same paths with the same bytes (compared byte for byte). */
export function sameFiles(
  a: ReadonlyMap<string, Uint8Array>,
  b: ReadonlyMap<string, Uint8Array>,
): boolean {
  return sameMaps(a, b, (x, y) => x.length === y.length && Buffer.compare(x, y) === 0);
}

/** The content hash of files given in memory, computed the same way for the same files. */
export function hashOfBytes(files: ReadonlyMap<string, Uint8Array>): string {
  const hash = createHash('sha256');
  for (const path of [...files.keys()].sort()) {
    frame(hash, path);
    frame(hash, 'file');
    frame(hash, files.get(path) ?? new Uint8Array());
  }
  return hash.digest('hex');
}
