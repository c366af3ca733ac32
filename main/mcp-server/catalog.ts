/**
 * The catalog snapshot: every servable skill of the library roots with the bytes of its files,
 * read once and digested once, so a listing and the reads that follow always agree
 * (issue 5 point 1). A snapshot is immutable; rebuilding makes a new one and swaps it in, so
 * requests in flight keep answering from the snapshot they started with.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import {
  DIRECTORY_MIME_TYPE,
  isSafeSegment,
  skillDirUri,
  skillFileUri,
  skillMdUri,
  SKILL_LIMITS,
  SKILL_MD_MIME_TYPE,
} from '../../shared/sep';
import type { DirectoryResource, SkillEntry } from '../../shared/sep';
import type { FileView, FileViewEntry } from '../../shared/validation';
import { findSkills } from '../library/scan';
import { mimeTypeOf } from './mime';
import { mcpServeCheck, parseSkillText } from './skill-check';
import type { SkillCheck } from './skill-check';

/** One file of a served skill, with the bytes the snapshot holds. */
export interface SnapshotFile {
  /** Path relative to the skill folder, `/` separated. */
  relPath: string;
  uri: string;
  bytes: Uint8Array;
  size: number;
  digest: string;
  mimeType: string;
  /** The content as a string when the bytes are valid UTF-8 (served as `text`), else undefined (served as `blob`). */
  text?: string;
}

/** The `x-personal-mcp` block of a skill (seed 000), as far as the server uses it. */
export interface PersonalMcpInfo {
  id: string;
  version?: string;
  tags: string[];
  dependsOn: string[];
  references: { refId: string; path: string; mimeType: string; title?: string }[];
}

/** One served skill. */
export interface ServedSkill {
  /** `/`-separated skill path; its final segment is the name (SEP-2640 §1). */
  skillPath: string;
  name: string;
  description: string;
  /** URI of the SKILL.md. */
  uri: string;
  /** Directory resource URI of the skill root. */
  dirUri: string;
  /** The library root it came from, and its absolute folder. */
  root: string;
  dir: string;
  frontmatter: Record<string, unknown>;
  /** The SKILL.md body (after the frontmatter). */
  body: string;
  /** Every file, sorted by URI; SKILL.md among them. */
  files: SnapshotFile[];
  /** The entry `skills/list` and `skills/get` return. */
  entry: SkillEntry;
  /** Direct children per relative folder ('' = skill root), sorted by URI. */
  children: Map<string, DirectoryResource[]>;
  warnings: string[];
  personal?: PersonalMcpInfo;
}

/** A skill found in the library but not served, with the reasons (for the panel). */
export interface ExcludedSkill {
  root: string;
  dir: string;
  /** The folder relative to its root. */
  relativeDir: string;
  name?: string;
  reasons: string[];
}

/** What a URI names inside a snapshot. */
export type SnapshotTarget =
  | { kind: 'file'; skill: ServedSkill; file: SnapshotFile }
  | { kind: 'directory'; skill: ServedSkill; relDir: string };

/** An immutable picture of the served library. */
export interface CatalogSnapshot {
  /** Increases with every rebuild. */
  version: number;
  builtAt: number;
  roots: string[];
  /** Served skills, sorted by SKILL.md URI. */
  skills: ServedSkill[];
  excluded: ExcludedSkill[];
  /** SKILL.md URI → skill. */
  bySkillUri: Map<string, ServedSkill>;
  /** File or directory URI → what it names. */
  targets: Map<string, SnapshotTarget>;
  /** How long the build took, in milliseconds. */
  buildMs: number;
}

/** Options for {@link buildSnapshot}. */
export interface BuildOptions {
  /** The servable-check; default: the `mcp-serve` profile. */
  check?: SkillCheck;
  /** Reuse bytes of unchanged files (same size, mtime, inode) from an earlier build. */
  cache?: FileCache;
  version?: number;
}

/** Bytes and digests of files already read, keyed by absolute path. */
export type FileCache = Map<
  string,
  { mtimeMs: number; size: number; ino: number; bytes: Uint8Array; digest: string; text?: string }
>;

/** Folders and files never served: VCS and dependency trees, OS litter (SKILL-FORMAT-AND-TARGETS.md §3 exclusions). */
const SKIPPED = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '__pycache__',
  '__MACOSX',
  '.DS_Store',
]);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

interface WalkedFile {
  relPath: string;
  abs: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

interface Walk {
  files: WalkedFile[];
  dirs: string[];
  view: FileViewEntry[];
}

/** Walk a skill folder without following symlinks; symlinks are reported to the check, never served. */
async function walkSkill(dir: string): Promise<Walk> {
  const files: WalkedFile[] = [];
  const dirs: string[] = [''];
  const view: FileViewEntry[] = [];
  const realDir = await realpath(dir);
  const pending = [''];
  while (pending.length > 0) {
    const rel = pending.pop() ?? '';
    const entries = await readdir(rel ? join(dir, rel) : dir, { withFileTypes: true });
    for (const e of entries) {
      if (SKIPPED.has(e.name)) continue;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const abs = join(dir, childRel);
      if (e.isSymbolicLink()) {
        // Why: a link is never followed silently (spec §3); one leaving the skill blocks serving (spec §2 mcp-serve).
        let escapes: boolean;
        try {
          const target = await realpath(abs);
          escapes = !(target === realDir || target.startsWith(realDir + sep));
        } catch {
          escapes = true;
        }
        view.push({ path: childRel, kind: 'symlink', size: 0, escapes });
      } else if (e.isDirectory()) {
        dirs.push(childRel);
        view.push({ path: childRel, kind: 'directory', size: 0 });
        pending.push(childRel);
      } else if (e.isFile()) {
        const st = await lstat(abs);
        files.push({ relPath: childRel, abs, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
        view.push({ path: childRel, kind: 'file', size: st.size });
      }
    }
  }
  return { files, dirs, view };
}

/** Read a regular file without following a symlink at the last component (O_NOFOLLOW where the platform has it). */
async function readRegularFile(abs: string, expectedSize: number): Promise<Uint8Array> {
  const flags = fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0);
  const handle = await open(abs, flags);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new Error(`${abs} is not a regular file.`);
    // Why: a file growing between the walk and the read must not blow the 16 MiB budget (SEP-2640 §3 limits).
    if (st.size > SKILL_LIMITS.bytes)
      throw new Error(`${abs} is larger than ${SKILL_LIMITS.bytes} bytes.`);
    const buf = Buffer.allocUnsafe(st.size);
    let off = 0;
    while (off < st.size) {
      const { bytesRead } = await handle.read(buf, off, st.size - off, off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    void expectedSize;
    return off === st.size ? buf : buf.subarray(0, off);
  } finally {
    await handle.close();
  }
}

function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function decodeText(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function byUri<T extends { uri: string }>(a: T, b: T): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
}

/** Turn a frontmatter value into plain JSON (SEP-2640 §3 "as a JSON object, verbatim"). */
function toJsonObject(data: unknown): Record<string, unknown> | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  try {
    return JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Read the seed-000 `x-personal-mcp` block when present (the profile of that name validates it; we only map it). */
function personalInfo(
  frontmatter: Record<string, unknown>,
  name: string,
  files: SnapshotFile[],
): PersonalMcpInfo | undefined {
  const block = frontmatter['x-personal-mcp'];
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return undefined;
  const b = block as Record<string, unknown>;
  const id = typeof b.id === 'string' && b.id.length > 0 ? b.id : name;
  const references: PersonalMcpInfo['references'] = [];
  const refs = b.references;
  if (typeof refs === 'object' && refs !== null && !Array.isArray(refs)) {
    for (const [refId, raw] of Object.entries(refs as Record<string, unknown>)) {
      if (typeof raw !== 'object' || raw === null) continue;
      const r = raw as Record<string, unknown>;
      if (typeof r.path !== 'string') continue;
      const path = r.path.replace(/^\.\//, '');
      // Why: only files already in this skill's snapshot can be served; never a path resolved on disk (issue 5 point 7).
      if (!files.some((f) => f.relPath === path)) continue;
      references.push({
        refId,
        path,
        mimeType: typeof r.mime_type === 'string' ? r.mime_type : 'text/markdown',
        title: typeof r.title === 'string' ? r.title : undefined,
      });
    }
  }
  return {
    id,
    version: typeof b.version === 'string' ? b.version : undefined,
    tags: stringList(b.tags),
    dependsOn: stringList(b.depends_on),
    references,
  };
}

/** Run `fn` over `items` with at most `limit` in flight. */
async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return out;
}

type Built = { served: ServedSkill } | { excluded: ExcludedSkill };

async function buildSkill(
  root: string,
  dir: string,
  relativeDir: string,
  fileName: string,
  check: SkillCheck,
  cache: FileCache | undefined,
): Promise<Built> {
  const skillPath = relativeDir === '' ? basename(root) : relativeDir;
  const excluded = (reasons: string[], name?: string): Built => ({
    excluded: { root, dir, relativeDir, name, reasons },
  });
  if (fileName !== 'SKILL.md')
    return excluded([`The skill file is named "${fileName}"; it must be named exactly SKILL.md.`]);
  const segments = skillPath.split('/');
  if (!segments.every(isSafeSegment))
    return excluded(['The folder path has a name that cannot appear in a skill:// URI.']);
  let walk: Walk;
  try {
    walk = await walkSkill(dir);
  } catch (e) {
    return excluded([
      `The skill folder could not be read (${e instanceof Error ? e.message : String(e)}).`,
    ]);
  }
  const skillFile = walk.files.find((f) => f.relPath === 'SKILL.md');
  if (!skillFile) return excluded(['SKILL.md could not be read as a regular file.']);
  const readOne = async (
    f: WalkedFile,
  ): Promise<{ bytes: Uint8Array; digest: string; text?: string }> => {
    const hit = cache?.get(f.abs);
    if (hit && hit.mtimeMs === f.mtimeMs && hit.size === f.size && hit.ino === f.ino) return hit;
    const bytes = await readRegularFile(f.abs, f.size);
    const value = { bytes, digest: sha256(bytes), text: decodeText(bytes) };
    cache?.set(f.abs, { mtimeMs: f.mtimeMs, size: bytes.length, ino: f.ino, ...value });
    return value;
  };
  let skillMd: { bytes: Uint8Array; digest: string; text?: string };
  try {
    skillMd = await readOne(skillFile);
  } catch (e) {
    return excluded([
      `SKILL.md could not be read (${e instanceof Error ? e.message : String(e)}).`,
    ]);
  }
  if (skillMd.text === undefined) return excluded(['SKILL.md is not valid UTF-8 text.']);
  const parsed = parseSkillText(skillMd.text);
  const fileView: FileView = {
    folderName: basename(dir),
    relativePath: skillPath,
    fileName,
    entries: walk.view,
  };
  const verdict = check({ text: skillMd.text, parsed, fileView });
  const frontmatter = toJsonObject(parsed.data);
  const fmName = typeof frontmatter?.name === 'string' ? frontmatter.name : undefined;
  if (!verdict.servable) return excluded(verdict.reasons, fmName);
  // Why: invariants of a valid SEP-2640 entry, kept even if a check lets a skill through — the
  // server must never publish an entry a host would reject (SEP-2640 §1 final segment = name, §3 fields).
  const invariant: string[] = [];
  if (!frontmatter) invariant.push('The frontmatter is not a mapping that converts to JSON.');
  else {
    if (fmName === undefined || fmName.length === 0) invariant.push('The frontmatter has no name.');
    else if (fmName !== segments[segments.length - 1])
      invariant.push(
        `The folder "${segments[segments.length - 1]}" does not match the name "${fmName}".`,
      );
    if (typeof frontmatter.description !== 'string' || frontmatter.description.length === 0)
      invariant.push('The frontmatter has no description.');
  }
  if (walk.files.length > SKILL_LIMITS.files)
    invariant.push(
      `The skill has ${walk.files.length} files; at most ${SKILL_LIMITS.files} are served.`,
    );
  const total = walk.files.reduce((n, f) => n + f.size, 0);
  if (total > SKILL_LIMITS.bytes)
    invariant.push(`The skill holds ${total} bytes; at most ${SKILL_LIMITS.bytes} are served.`);
  if (invariant.length > 0 || !frontmatter) return excluded(invariant, fmName);

  let files: SnapshotFile[];
  try {
    files = await Promise.all(
      walk.files.map(async (f) => {
        const got = f === skillFile ? skillMd : await readOne(f);
        const isSkillMd = f.relPath === 'SKILL.md';
        return {
          relPath: f.relPath,
          uri: isSkillMd ? skillMdUri(skillPath) : skillFileUri(skillPath, f.relPath),
          bytes: got.bytes,
          size: got.bytes.length,
          digest: got.digest,
          mimeType: isSkillMd ? SKILL_MD_MIME_TYPE : mimeTypeOf(f.relPath, got.text !== undefined),
          text: got.text,
        };
      }),
    );
  } catch (e) {
    return excluded(
      [`A file of the skill could not be read (${e instanceof Error ? e.message : String(e)}).`],
      fmName,
    );
  }
  files.sort(byUri);
  const name = fmName as string;
  const description = frontmatter.description as string;
  const uri = skillMdUri(skillPath);
  const dirUri = skillDirUri(skillPath);
  const children = new Map<string, DirectoryResource[]>();
  for (const d of walk.dirs) children.set(d, []);
  for (const d of walk.dirs) {
    if (d === '') continue;
    const parent = d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '';
    children.get(parent)?.push({
      uri: skillDirUri(skillPath, d),
      name: d.slice(d.lastIndexOf('/') + 1),
      mimeType: DIRECTORY_MIME_TYPE,
    });
  }
  for (const f of files) {
    const parent = f.relPath.includes('/') ? f.relPath.slice(0, f.relPath.lastIndexOf('/')) : '';
    const child: DirectoryResource = {
      uri: f.uri,
      name: f.relPath.slice(f.relPath.lastIndexOf('/') + 1),
      mimeType: f.mimeType,
      size: f.size,
    };
    if (f.relPath === 'SKILL.md') {
      child.name = name;
      child.description = description;
    }
    children.get(parent)?.push(child);
  }
  for (const list of children.values()) list.sort(byUri);
  const entry: SkillEntry = {
    uri,
    frontmatter: frontmatter as SkillEntry['frontmatter'],
    resources: files.map((f) => ({ uri: f.uri, digest: f.digest, size: f.size })),
  };
  const personal = personalInfo(frontmatter, name, files);
  if (personal) {
    // Why: seed 000 — `depends_on` is catalog metadata; _meta keys use a reverse-domain prefix (SEP-2640 §1).
    entry._meta = {
      'io.skillbench/x-personal-mcp': {
        id: personal.id,
        version: personal.version,
        tags: personal.tags,
        depends_on: personal.dependsOn,
      },
    };
  }
  return {
    served: {
      skillPath,
      name,
      description,
      uri,
      dirUri,
      root,
      dir,
      frontmatter,
      body: parsed.body,
      files,
      entry,
      children,
      warnings: verdict.warnings,
      personal,
    },
  };
}

/** Scan the roots and build a snapshot. Never throws for a bad skill; a missing root is an excluded entry. */
export async function buildSnapshot(
  roots: readonly string[],
  options: BuildOptions = {},
): Promise<CatalogSnapshot> {
  const started = performance.now();
  const check = options.check ?? mcpServeCheck;
  const found: { root: string; dir: string; relativeDir: string; fileName: string }[] = [];
  const excluded: ExcludedSkill[] = [];
  for (const root of roots) {
    try {
      for (const f of await findSkills(root))
        found.push({ root, dir: f.dir, relativeDir: f.relativeDir, fileName: f.fileName });
    } catch (e) {
      excluded.push({
        root,
        dir: root,
        relativeDir: '',
        reasons: [
          `The library folder could not be read (${e instanceof Error ? e.message : String(e)}).`,
        ],
      });
    }
  }
  const built = await pool(found, 16, (f) =>
    buildSkill(f.root, f.dir, f.relativeDir, f.fileName, check, options.cache),
  );
  const skills: ServedSkill[] = [];
  const bySkillUri = new Map<string, ServedSkill>();
  for (const b of built) {
    if ('excluded' in b) {
      excluded.push(b.excluded);
      continue;
    }
    const s = b.served;
    if (bySkillUri.has(s.uri)) {
      // Why: the URI is a skill's identity (SEP-2640 §3); two roots with the same folder path cannot both own it.
      const first = bySkillUri.get(s.uri) as ServedSkill;
      excluded.push({
        root: s.root,
        dir: s.dir,
        relativeDir: relative(s.root, s.dir).split(sep).join('/'),
        name: s.name,
        reasons: [
          `Another library folder (${first.root}) already serves a skill at ${s.skillPath}.`,
        ],
      });
      continue;
    }
    bySkillUri.set(s.uri, s);
    skills.push(s);
  }
  skills.sort(byUri);
  const targets = new Map<string, SnapshotTarget>();
  // Nested skills: the outer skill's files include the inner one's (SEP-2640 §1); the first registration wins, the bytes are the same.
  for (const skill of skills) {
    for (const relDir of skill.children.keys()) {
      const uri = skillDirUri(skill.skillPath, relDir);
      if (!targets.has(uri)) targets.set(uri, { kind: 'directory', skill, relDir });
    }
    for (const file of skill.files)
      if (!targets.has(file.uri)) targets.set(file.uri, { kind: 'file', skill, file });
  }
  return {
    version: options.version ?? 1,
    builtAt: Date.now(),
    roots: [...roots],
    skills,
    excluded: excluded.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0)),
    bySkillUri,
    targets,
    buildMs: performance.now() - started,
  };
}
