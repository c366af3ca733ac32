/**
 * The catalog snapshot: every servable skill of the library roots with the bytes of its files,
 * read once and digested once, so a listing and the reads that follow always agree. A snapshot
 * is immutable; rebuilding makes a new one and swaps it in, so requests in flight keep
 * answering from the snapshot they started with. Skill folders are read with the one
 * skill-folder reader (main/skill-folder): the server publishes exactly the files an export
 * would include by default, never a file the exporter would withhold.
 */
import { isUtf8 } from 'node:buffer';
import { basename } from 'node:path';
import { leftOutByContent } from '../../shared/skill/file-set';
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
import { mapLimit, TimeSlicer } from '../platform/concurrency';
import { joinWalked } from '../platform/paths';
import { sha256Digest } from '../platform/digest';
import { fsErrorSentence } from '../platform/fs-errors';
import { readRegularFileSync } from '../platform/read-file';
import {
  fileViewOf,
  linkedSkillFolders,
  skillEntries,
  skillFolderIn,
  skillsIn,
  walkSkillTree,
  type SkillEntry as FolderEntry,
  type WalkedTree,
} from '../skill-folder';
import {
  libraryParts,
  readAheadFile,
  type LibraryReadAhead,
  type PreRead,
  type ReadAhead,
} from '../skill-folder/read-ahead';
import { frontmatterJson } from './frontmatter-json';
import type { FrontmatterJson } from './frontmatter-json';
import { mimeTypeOf } from './mime';
import { mcpServeCheck, parseSkillText } from './skill-check';
import type { SkillCheck, SkillCheckResult } from './skill-check';
import type { ReviewMemo } from '../safety/service';
import type { ParsedSkill } from '../../shared/skill';
import { isJsonObject } from '../../shared/json/values';

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
  /** Files of the folder that are not published (withheld when shared), with the reason. */
  withheld: { path: string; reason: string }[];
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
  /**
   * Where a linked skill folder at the top of a root may point besides the roots themselves
   * (the agents' skills folders). A link the policy follows is served as the skill it points
   * to, under the link's name; any other link is listed as not served, with the reason.
   */
  linkRoots?: readonly string[];
  /**
   * Verdicts of the default check kept from earlier builds (see {@link CheckMemo}); ignored when
   * `check` is given. Entries used by this build are marked in `memo.used`.
   */
  memo?: CheckMemo;
  /**
   * Roots already walked and read by a worker (see main/skill-folder/read-ahead.ts): the build
   * takes their listings and bytes instead of walking and reading them itself. Every digest and
   * check is still made here, from those bytes.
   */
  readAhead?: ReadonlyMap<string, LibraryReadAhead>;
}

/** What the default check concluded about one SKILL.md in one folder. */
export interface CheckMemoEntry {
  frontmatter: FrontmatterJson | undefined;
  verdict: SkillCheckResult;
  /** Where the body starts in the SKILL.md text (the body is that text's tail). */
  bodyStart: number;
}

/**
 * The default check's verdicts keyed by what they depend on: the SKILL.md digest (of the bytes
 * read in this build) and the folder's file view (names, kinds, sizes, the skill path). Why: the
 * YAML parse and the checks are most of a cold start's work, and a restart mostly finds the same
 * skills; the bytes are still read and digested every time, so a listing never carries a digest
 * that was not computed from the bytes served. Kept on disk by the listing cache (main/library).
 */
export interface CheckMemo {
  entries: Map<string, CheckMemoEntry>;
  /** Keys this build used or added (what is worth keeping). */
  used: Set<string>;
  /** Set when this build added an entry. */
  added: boolean;
  /**
   * The safety gate's reviews (see withSafetyGate), by the key of every byte and path reviewed:
   * a restart reads and hashes every file as before, and runs the rules only on what changed.
   */
  reviews?: ReviewMemo;
}

/**
 * Bytes and digests of files already read, keyed by absolute path. Why ctime too: a `chmod`
 * (a file made unreadable) changes only ctime, and must not be answered from the cache.
 */
export type FileCache = Map<
  string,
  {
    mtimeMs: number;
    ctimeMs: number;
    size: number;
    ino: number;
    bytes: Uint8Array;
    digest: string;
    text?: string;
    /** The version of the last build that read this file (for pruning). */
    seen?: number;
  }
>;

/** The largest file read: the whole skill's budget (SEP-2640 §3 limits). */
const MAX_FILE_BYTES = SKILL_LIMITS.bytes;

/**
 * The bytes as text when they are valid UTF-8 (a BOM kept, as in the file), else undefined.
 * Why `isUtf8` first: a decoder that throws on invalid bytes made every binary file pay for an
 * exception; the check is the same strict UTF-8 validation.
 */
/** Why a SKILL.md that is not UTF-8 is not served (`catalog` says the same). */
export const NOT_UTF8 =
  'SKILL.md is not valid UTF-8 text (`skillbench validate` shows where); save it as UTF-8 to serve it.';

function decodeText(bytes: Uint8Array): string | undefined {
  return isUtf8(bytes)
    ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
    : undefined;
}

function byUri<T extends { uri: string }>(a: T, b: T): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
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
  if (isJsonObject(refs)) {
    for (const [refId, raw] of Object.entries(refs)) {
      if (typeof raw !== 'object' || raw === null) continue;
      const r = raw as Record<string, unknown>;
      if (typeof r.path !== 'string') continue;
      const path = r.path.replace(/^\.\//, '');
      // Why: only files already in this skill's snapshot can be served; never a path resolved on disk.
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

type Built = { served: ServedSkill } | { excluded: ExcludedSkill };

/** A file's bytes, digest and text, from the cache when the file is unchanged. */
interface ReadBytes {
  bytes: Uint8Array;
  digest: string;
  text?: string;
}

/**
 * Read one published file without following links, from the cache when its size, times and
 * inode are unchanged. The digest is always of the bytes kept (and served): a file rewritten
 * while it is read is read again (see readRegularFileSync).
 */
function readServed(
  abs: string,
  entry: FolderEntry,
  cache: FileCache | undefined,
  version: number,
  /** The file as a read-ahead worker read it, when it is the file listed (see readAheadFile). */
  ahead?: PreRead,
): ReadBytes {
  const hit = cache?.get(abs);
  if (hit && hit.size === entry.size && hit.mtimeMs === entry.mtimeMs) {
    // Why confirm with lstat-free fstat data only on a miss: the walk's size and mtime match, and
    // ctime/ino are checked below on every read that is not answered from the cache.
    const fresh = readRegularFileSync(abs, 0);
    if (fresh.ctimeMs === hit.ctimeMs && fresh.ino === hit.ino && fresh.size === hit.size) {
      hit.seen = version;
      return hit;
    }
  }
  const read = ahead ?? readRegularFileSync(abs, MAX_FILE_BYTES, entry);
  if (!read.bytes) throw new Error(`${entry.path} is larger than ${MAX_FILE_BYTES} bytes.`);
  const value = {
    bytes: read.bytes,
    // Why a digest from the worker may be used: it is the sha256 of exactly these bytes.
    digest: ahead?.digest ?? sha256Digest(read.bytes),
    text: decodeText(read.bytes),
  };
  cache?.set(abs, {
    mtimeMs: read.mtimeMs,
    ctimeMs: read.ctimeMs,
    size: read.bytes.length,
    ino: read.ino,
    ...value,
    seen: version,
  });
  return value;
}

/** What every skill of one build shares (made once per {@link buildSnapshot}). */
interface BuildContext {
  check: SkillCheck;
  cache: FileCache | undefined;
  checkMemo: CheckMemo | undefined;
  version: number;
  slicer: TimeSlicer;
  /** One object per build, for a gate on top (see GateInput). */
  build: object;
}

async function buildSkill(
  ctx: BuildContext,
  root: string,
  tree: WalkedTree,
  relativeDir: string,
  fileName: string,
  /** For a linked skill folder: the link's name, which the skill is served under. */
  linkName?: string,
  /** The tree's files as a worker read them ahead (see main/skill-folder/read-ahead.ts). */
  ahead?: ReadAhead,
): Promise<Built> {
  const { check, cache, checkMemo, version, slicer, build } = ctx;
  const dir = joinWalked(tree.root, relativeDir);
  const skillPath = linkName ?? (relativeDir === '' ? basename(root) : relativeDir);
  const excluded = (reasons: string[], name?: string): Built => ({
    excluded: { root, dir, relativeDir, name, reasons },
  });
  if (fileName !== 'SKILL.md')
    return excluded([`The skill file is named "${fileName}"; it must be named exactly SKILL.md.`]);
  const segments = skillPath.split('/');
  if (!segments.every(isSafeSegment))
    return excluded(['The folder path has a name that cannot appear in a skill:// URI.']);
  const entries = skillEntries(tree, relativeDir);
  // Why refuse the skill rather than drop the file: a skill served without one of its files would
  // silently differ from the folder; the panel names the file to rename.
  for (const e of entries) {
    if (e.leftOut || (e.kind !== 'file' && e.kind !== 'directory')) continue;
    const bad = e.path.split('/').find((segment) => !isSafeSegment(segment));
    if (bad !== undefined)
      return excluded([
        `The name ${JSON.stringify(bad)} (in ${JSON.stringify(e.path)}) cannot appear in a skill:// address; rename it to serve this skill.`,
      ]);
  }
  const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
  // Read every file the folder would publish; a file whose text looks like a secret is withheld
  // as the exporter withholds it (SKILL.md itself cannot be: then the skill is not served).
  const read = new Map<string, ReadBytes>();
  /** Every file read, withheld ones too: what a gate on top reviews (the bytes served). */
  const seenBytes = new Map<string, ReadBytes>();
  const withheld: { path: string; reason: string }[] = [];
  for (const e of entries) {
    if (e.kind !== 'file' || e.leftOut) continue;
    if (slicer.due()) await slicer.pause();
    let got: ReadBytes;
    try {
      got = readServed(
        joinWalked(dir, e.path),
        e,
        cache,
        version,
        readAheadFile(ahead, relativeDir === '' ? e.path : `${relativeDir}/${e.path}`, e),
      );
    } catch (error) {
      return excluded([
        e.path === 'SKILL.md'
          ? `SKILL.md could not be read (${errorText(error)}).`
          : `A file of the skill could not be read (${errorText(error)}).`,
      ]);
    }
    seenBytes.set(e.path, got);
    const secret = got.text !== undefined ? leftOutByContent(e.path, got.text) : undefined;
    if (secret && e.path === 'SKILL.md')
      return excluded([
        `${secret.reason} A skill whose SKILL.md holds a secret is not served; remove it first.`,
      ]);
    if (secret) {
      e.leftOut = secret;
      withheld.push({ path: e.path, reason: secret.reason });
      continue;
    }
    read.set(e.path, got);
  }
  for (const e of entries)
    if (e.leftOut?.scope === 'private' && e.kind !== 'directory' && !read.has(e.path))
      if (!withheld.some((w) => w.path === e.path))
        withheld.push({ path: e.path, reason: e.leftOut.reason });
  // Why listed: a link inside the skill is never served (one link policy, docs/skills-over-mcp.md
  // "Which files"), so a reference to it from SKILL.md reaches nothing; the author is told.
  for (const e of entries)
    if (e.kind === 'symlink' && !e.escapes && !e.leftOut)
      withheld.push({
        path: e.path,
        reason:
          'It is a symbolic link, and links are never served, so clients cannot read it by this name. Refer to what it points to by its own name, or put a copy here instead.',
      });
  const skillMd = read.get('SKILL.md');
  if (!skillMd) return excluded(['SKILL.md could not be read as a regular file.']);
  if (skillMd.text === undefined) return excluded([NOT_UTF8]);
  const fileView = fileViewOf(entries, basename(dir), skillPath, fileName);
  // Why the memo answers the base only: a gate on top (the safety review) depends on every file and
  // on the user's "Trust anyway" decisions, which SKILL.md's digest does not cover; it runs every time.
  const base = check.stages?.base ?? check;
  const memo = base.readsWholeFolder ? undefined : checkMemo;
  const memoKey = memo ? `${skillMd.digest}\n${JSON.stringify(fileView)}` : '';
  let known = memo?.entries.get(memoKey);
  let parsedNow: ParsedSkill | undefined;
  if (!known) {
    const parsed = parseSkillText(skillMd.text);
    parsedNow = parsed;
    // Why exact: SEP-2640 §3 "verbatim"; a number a double cannot hold goes out as its text (frontmatter-json.ts).
    const json = frontmatterJson(parsed);
    const verdict = await base({
      text: skillMd.text,
      parsed,
      fileView,
      skillPath,
      frontmatter: json,
      dir,
    });
    known = { frontmatter: json, verdict, bodyStart: parsed.bodyStart };
    // Why only then: the body must be the text's tail for the kept offset to give it back.
    if (memo && skillMd.text.slice(parsed.bodyStart) === parsed.body) {
      memo.entries.set(memoKey, known);
      memo.added = true;
    }
  }
  memo?.used.add(memoKey);
  // Why the folder and bytes of this build: the gate reviews what is served, without reading it again.
  const verdict = check.stages
    ? await check.stages.gate(dir, known.verdict, {
        folder: skillFolderIn(tree, relativeDir, fileName),
        bytes: (path) => seenBytes.get(path),
        build,
        reviews: checkMemo?.reviews,
        skillMd: parsedNow ? { text: skillMd.text, parsed: parsedNow } : undefined,
      })
    : known.verdict;
  const frontmatter = known.frontmatter?.value;
  const body = skillMd.text.slice(known.bodyStart);
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
  if (read.size > SKILL_LIMITS.files)
    invariant.push(`The skill has ${read.size} files; at most ${SKILL_LIMITS.files} are served.`);
  let total = 0;
  for (const got of read.values()) total += got.bytes.length;
  if (total > SKILL_LIMITS.bytes)
    invariant.push(`The skill holds ${total} bytes; at most ${SKILL_LIMITS.bytes} are served.`);
  if (invariant.length > 0 || !frontmatter) return excluded(invariant, fmName);

  const files: SnapshotFile[] = [];
  for (const [relPath, got] of read) {
    const isSkillMd = relPath === 'SKILL.md';
    files.push({
      relPath,
      uri: isSkillMd ? skillMdUri(skillPath) : skillFileUri(skillPath, relPath),
      bytes: got.bytes,
      size: got.bytes.length,
      digest: got.digest,
      mimeType: isSkillMd ? SKILL_MD_MIME_TYPE : mimeTypeOf(relPath, got.text !== undefined),
      text: got.text,
    });
  }
  const dirs = [
    '',
    ...entries.filter((e) => e.kind === 'directory' && !e.leftOut).map((e) => e.path),
  ];
  files.sort(byUri);
  const name = fmName as string;
  const description = frontmatter.description as string;
  const uri = skillMdUri(skillPath);
  const dirUri = skillDirUri(skillPath);
  const children = new Map<string, DirectoryResource[]>();
  for (const d of dirs) children.set(d, []);
  for (const d of dirs) {
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
      body,
      files,
      entry,
      children,
      warnings: verdict.warnings,
      withheld: withheld.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0)),
      personal,
    },
  };
}

/** How many skills are built at a time. */
const BUILD_WIDTH = 8;

/** Scan the roots and build a snapshot. Never throws for a bad skill; a missing root is an excluded entry. */
export async function buildSnapshot(
  roots: readonly string[],
  options: BuildOptions = {},
): Promise<CatalogSnapshot> {
  const started = performance.now();
  const check = options.check ?? mcpServeCheck;
  // Why only for the default check (alone or under a gate): another check's verdicts are not the memo's.
  const memo = (check.stages?.base ?? check) === mcpServeCheck ? options.memo : undefined;
  const version = options.version ?? 1;
  const excluded: ExcludedSkill[] = [];
  const built: Built[] = [];
  const slicer = new TimeSlicer();
  const ctx: BuildContext = {
    check,
    cache: options.cache,
    checkMemo: memo,
    version,
    slicer,
    build: {},
  };
  for (const root of roots) {
    // The root in parts as a worker reads them ahead, or walked here in one piece.
    let parts:
      | AsyncIterable<{ tree: WalkedTree; ahead?: ReadAhead }>
      | Iterable<{ tree: WalkedTree; ahead?: ReadAhead }>;
    try {
      const lib = options.readAhead?.get(root);
      parts = lib?.rootEntries ? libraryParts(lib) : [{ tree: await walkSkillTree(root, slicer) }];
    } catch (e) {
      excluded.push({
        root,
        dir: root,
        relativeDir: '',
        reasons: [fsErrorSentence(e, root, 'read')],
      });
      continue;
    }
    // Why: a skill folder that is a link (how agents' skill managers install) is served as the
    // skill it points to when the one link policy follows it (see judgeSkillLink).
    for (const v of linkedSkillFolders(root, [...roots, ...(options.linkRoots ?? [])])) {
      const name = basename(v.link);
      if (v.state !== 'followed') {
        excluded.push({ root, dir: v.link, relativeDir: name, reasons: [v.reason] });
        continue;
      }
      try {
        const target = await walkSkillTree(v.target, slicer);
        built.push(await buildSkill(ctx, root, target, '', v.fileName, name));
      } catch (e) {
        excluded.push({
          root,
          dir: v.link,
          relativeDir: name,
          reasons: [
            `The linked skill could not be read (${e instanceof Error ? e.message : String(e)}).`,
          ],
        });
      }
    }
    // Why several at a time: a gate on top (the safety review) reads each folder again with
    // asynchronous I/O; one skill at a time would leave the process waiting on the disk. The results
    // are put back in the folders' order below.
    const found: { relDir: string; built: Built }[] = [];
    for await (const { tree: walked, ahead } of parts) {
      const skills = skillsIn(walked.children);
      const results = await mapLimit(skills, BUILD_WIDTH, async (f) => {
        try {
          return await buildSkill(ctx, root, walked, f.relDir, f.fileName, undefined, ahead);
        } catch (e) {
          // Why: one odd folder must never take the server down; it is listed as not served.
          const dir = joinWalked(walked.root, f.relDir);
          return {
            excluded: {
              root,
              dir,
              relativeDir: f.relDir,
              reasons: [
                `The skill could not be read (${e instanceof Error ? e.message : String(e)}).`,
              ],
            },
          } satisfies Built;
        }
      });
      results.forEach((b, i) => found.push({ relDir: skills[i]?.relDir ?? '', built: b }));
    }
    // Why sorted again: parts hold whole root folders, and a root folder name may sort between
    // the nested paths of another ("a" < "a-b" < "a/x").
    found.sort((a, b) => (a.relDir < b.relDir ? -1 : a.relDir > b.relDir ? 1 : 0));
    for (const f of found) built.push(f.built);
  }
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
        relativeDir: s.skillPath,
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
    version,
    builtAt: Date.now(),
    roots: [...roots],
    skills,
    excluded: excluded.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0)),
    bySkillUri,
    targets,
    buildMs: performance.now() - started,
  };
}
