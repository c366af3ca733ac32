/**
 * Reading a skill's files on demand: one file at a time or the whole skill,
 * every read verified against the manifest, nothing read ahead of need. SKILL.md is read first;
 * when it fails, the skill is not loaded and no other file is read (SEP-2640 verification on read:
 * "MUST NOT load the skill on any discrepancy").
 */
import { grouped } from '../../shared/text/words';
import {
  DIRECTORY_MIME_TYPE,
  encodeRelativePath,
  isDigest,
  parseFastMcpManifest,
  SKILL_LIMITS,
} from '../../shared/sep';
import { parseSkill } from '../../shared/skill';
import { chooseProfiles, validateSkill } from '../../shared/validation';
import type { FileView, ProfileId, ValidationResult } from '../../shared/validation';
import { mapLimit } from '../platform/concurrency';
import { InspectorError } from './errors';
import type { InspectorSession } from './session';
import { manifestUriProblem, missingSkillMdProblem, relativePathIn } from './uris';
import { frontmatterOf, verifyRead } from './verify';
import type {
  FileRead,
  FileTreeNode,
  FileVerification,
  InspectedSkill,
  ManifestFile,
  SkillVerification,
  SkillViewData,
} from './types';

/** The listed files of a skill, or undefined when the route gave none (legacy) or it is dynamic. */
function listedFiles(skill: InspectedSkill): ManifestFile[] | undefined {
  return Array.isArray(skill.manifest) ? skill.manifest : undefined;
}

/** True when the skill's manifest is a real, complete one from the extension (the only kind that verifies). */
function hasVerifiableManifest(skill: InspectedSkill): boolean {
  return skill.route === 'extension' && Array.isArray(skill.manifest);
}

/** Read a FastMCP `_manifest` into the skill's manifest (legacy, lazily: only when the skill is opened). */
export async function loadLegacyManifest(
  session: InspectorSession,
  skill: InspectedSkill,
  signal?: AbortSignal,
  onBytes?: (bytes: number) => void,
): Promise<void> {
  if (!skill.manifestUri || Array.isArray(skill.manifest)) return;
  const read = await session.readResource(skill.manifestUri, signal, onBytes);
  const parsed = parseFastMcpManifest(Buffer.from(read.bytes).toString('utf8'));
  skill.problems.push(...parsed.problems.map((p) => `_manifest: ${p}`));
  const m = parsed.items[0];
  if (!m) return;
  const files: ManifestFile[] = m.files.map((f) => {
    const hex = f.hash?.replace(/^sha256:/, '').toLowerCase();
    const digest = hex && /^[0-9a-f]{64}$/.test(hex) ? `sha256:${hex}` : undefined;
    return {
      uri: `${skill.rootUri}/${encodeRelativePath(f.path)}`,
      path: f.path,
      size: f.size,
      digest: isDigest(digest) ? digest : undefined,
    };
  });
  if (!files.some((f) => f.uri === skill.uri)) files.unshift({ uri: skill.uri, path: 'SKILL.md' });
  skill.manifest = files;
}

function pending(file: ManifestFile, reason?: string): FileVerification {
  return {
    uri: file.uri,
    path: file.path,
    status: 'pending',
    expected: { digest: file.digest, size: file.size },
    reasons: reason ? [reason] : [],
  };
}

/**
 * Read one file of a skill and verify it. A URI outside the skill folder or refused by the URI
 * checks is never requested, listed or not; an unlisted URI of a skill with a manifest is not read
 * at all (a failure); content is only handed back when it may be used. `onBytes` hears the size
 * of every resource read for this file (the skill's own byte count).
 */
export async function readSkillFile(
  session: InspectorSession,
  skill: InspectedSkill,
  uri: string,
  signal?: AbortSignal,
  onBytes?: (bytes: number) => void,
): Promise<FileRead> {
  const isSkillMd = uri === skill.uri;
  const path = isSkillMd ? 'SKILL.md' : relativePathIn(skill.rootUri, uri);
  if (skill.manifestUri && !Array.isArray(skill.manifest))
    await loadLegacyManifest(session, skill, signal, onBytes);
  const files = listedFiles(skill);
  const listed = files?.find((f) => f.uri === uri);
  // Why first: a URI that is refused or outside the skill is decided on before anything else and
  // never requested afterwards, whatever the manifest says (docs/skills-over-mcp.md §5).
  const outside = manifestUriProblem(skill.rootUri, uri);
  if (outside !== undefined) {
    return {
      verification: {
        uri,
        path,
        status: listed ? 'mismatch' : 'unlisted',
        reasons: [`${outside} It was not read.`],
      },
    };
  }
  if (hasVerifiableManifest(skill) && !listed) {
    // Why: SEP-2640 §5 — read only URIs listed in the manifest; an unlisted file is a failure, and it is not fetched.
    return {
      verification: {
        uri,
        path,
        status: 'unlisted',
        reasons: ["This file is not in the skill's manifest, so it was not read."],
      },
    };
  }
  const file: ManifestFile = listed ?? { uri, path };
  if (file.size !== undefined && file.size > session.limits.maxResourceBytes) {
    return {
      verification: {
        ...pending(file),
        status: 'unverifiable',
        reasons: [
          `The listing says ${grouped(file.size)} bytes, more than the ${grouped(session.limits.maxResourceBytes)}-byte bound for one file; it was not read.`,
        ],
      },
    };
  }
  let read;
  try {
    read = await session.readResource(uri, signal, onBytes);
  } catch (e) {
    if (!(e instanceof InspectorError) || e.code === 'cancelled' || e.code === 'not-connected')
      throw e;
    // Why: a listed file that comes back larger than listed is a size mismatch, not just a failed read.
    const status = e.code === 'too-large' && file.size !== undefined ? 'mismatch' : 'unverifiable';
    return { verification: { ...pending(file), status, reasons: [e.message] } };
  }
  const verification = verifyRead(file, read, {
    listed: true,
    isSkillMd,
    entryFrontmatter: isSkillMd ? skill.frontmatter : undefined,
    legacy: !hasVerifiableManifest(skill),
  });
  if (read.contentCount !== 1)
    verification.reasons.push(
      `The server returned ${read.contentCount} content items; only the first was checked.`,
    );
  const usable = verification.status === 'verified' || verification.status === 'unverifiable';
  // Why: SEP-2640 §5 — on a mismatch "do not use the content"; it is dropped here, before any caller sees it.
  const content = usable
    ? {
        text: read.encoding === 'text' ? read.text : undefined,
        base64: read.encoding === 'blob' ? Buffer.from(read.bytes).toString('base64') : undefined,
        mimeType: read.mimeType,
        size: read.bytes.byteLength,
      }
    : undefined;
  return { verification, content };
}

/** Options for {@link verifySkill}. */
export interface VerifySkillOptions {
  signal?: AbortSignal;
  /** Walk the folders with `resources/directory/read` (when declared) to find unlisted files. Default true. */
  walk?: boolean;
  /** Reads in flight at once for one skill. Default 4. */
  concurrency?: number;
  /** Keep the verified bytes (for saving). */
  keepBytes?: Map<string, Uint8Array>;
}

/** Folders of one skill read at once while walking (each folder's pages stay in order). */
const WALK_WIDTH = 4;

/**
 * Walk a skill folder with `resources/directory/read`, paged and bounded. Up to four folders of a
 * level are read at once (a folder's pages follow each other, since each needs the last cursor); the bounds
 * on pages and entries hold for the whole walk, whatever the order the answers come back in.
 */
export async function walkDirectory(
  session: InspectorSession,
  rootUri: string,
  signal?: AbortSignal,
): Promise<{
  files: { uri: string; mimeType?: string; size?: number }[];
  dirs: string[];
  partial: boolean;
  problems: string[];
}> {
  const files: { uri: string; mimeType?: string; size?: number }[] = [];
  const dirs: string[] = [];
  const found = new Map<string, string[]>();
  let stopProblem: string | undefined;
  const queue = [rootUri];
  const seen = new Set(queue);
  let pages = 0;
  let stopped = false;
  // Why: a hostile server could nest folders forever; bound the walk by pages and entries (docs/skills-over-mcp.md §5).
  const maxEntries = session.limits.maxFilesPerSkill * 4;
  const walkOne = async (dir: string): Promise<void> => {
    let cursor: string | undefined;
    const cursors = new Set<string>();
    do {
      if (stopped) return;
      if (pages >= session.limits.maxPages || files.length + dirs.length > maxEntries) {
        stopped = true;
        stopProblem ??= `Stopped walking ${rootUri} after ${pages} pages and ${files.length} files; the walk is partial.`;
        return;
      }
      pages++;
      const page = await session.readDirectoryPage(dir, cursor, signal);
      if (stopped) return;
      const problems = found.get(dir) ?? [];
      found.set(dir, problems);
      for (const r of page.resources) {
        if (!r.uri.startsWith(`${rootUri}/`)) {
          problems.push(
            `The folder ${dir} lists ${r.uri}, which is outside the skill; it was ignored.`,
          );
          continue;
        }
        if (r.mimeType === DIRECTORY_MIME_TYPE) {
          if (!seen.has(r.uri)) {
            seen.add(r.uri);
            queue.push(r.uri);
          }
        } else files.push({ uri: r.uri, mimeType: r.mimeType, size: r.size });
      }
      cursor = page.nextCursor;
      if (cursor !== undefined && cursors.has(cursor)) {
        stopped = true;
        stopProblem ??= `The folder ${dir} returned the same cursor twice; the walk is partial.`;
        return;
      }
      if (cursor !== undefined) cursors.add(cursor);
    } while (cursor !== undefined);
  };
  // Level by level: the folders found so far, four at a time (the one bounded-concurrency helper);
  // their subfolders make the next level. The first error stops new reads and is thrown.
  while (!stopped && queue.length > 0) {
    const level = queue.splice(0);
    dirs.push(...level);
    await mapLimit(level, WALK_WIDTH, walkOne);
  }
  // Answers arrive in any order: sort, so one server gives one report.
  const byUri = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  files.sort((a, b) => byUri(a.uri, b.uri));
  dirs.sort(byUri);
  const problems = dirs.flatMap((d) => found.get(d) ?? []);
  if (stopProblem) problems.push(stopProblem);
  return { files, dirs, partial: stopped, problems };
}

/**
 * Read and verify every listed file of a skill, and look for unlisted ones. Nothing of the skill
 * is read when its entry is already at fault (a listed URI outside the skill, no SKILL.md listed,
 * a name that differs from its URI) or over the limits; SKILL.md is read first, and the other
 * files only when it verified (or, on a legacy route, could be read at all). The byte count is
 * this skill's own, so it stays right when several skills are verified at once.
 */
export async function verifySkill(
  session: InspectorSession,
  skill: InspectedSkill,
  options: VerifySkillOptions = {},
): Promise<SkillVerification> {
  const started = performance.now();
  let bytesRead = 0;
  const count = (n: number): void => {
    bytesRead += n;
  };
  const problems: string[] = [];
  if (skill.manifestUri && !Array.isArray(skill.manifest)) {
    try {
      await loadLegacyManifest(session, skill, options.signal, count);
    } catch (e) {
      if (e instanceof InspectorError && e.code === 'cancelled') throw e;
      problems.push(`The FastMCP _manifest could not be read: ${(e as Error).message}`);
    }
  }
  // Structural faults of the entry (a file outside the skill, no SKILL.md listed, a name that is
  // not its URI's last segment) fail the skill before anything is read.
  problems.unshift(...skill.problems);
  const listed = listedFiles(skill) ?? [{ uri: skill.uri, path: 'SKILL.md' }];
  let fatal = skill.problems.length > 0;
  // A folder walk that failed or was cut short cannot show that nothing unlisted is served.
  let incomplete = false;
  const finish = (files: FileVerification[]): SkillVerification => {
    const failed = fatal || files.some((f) => f.status === 'mismatch' || f.status === 'unlisted');
    const allVerified = files.length > 0 && files.every((f) => f.status === 'verified');
    const verdict = failed
      ? 'failed'
      : allVerified && hasVerifiableManifest(skill) && !incomplete
        ? 'verified'
        : 'unverifiable';
    return {
      key: skill.key,
      uri: skill.uri,
      verdict,
      files,
      problems,
      bytesRead,
      durationMs: Math.round(performance.now() - started),
    };
  };
  const notRead = (reason: string): FileVerification[] =>
    listed.map((f) => {
      const outside = manifestUriProblem(skill.rootUri, f.uri);
      return outside !== undefined
        ? { ...pending(f), status: 'mismatch' as const, reasons: [`${outside} It was not read.`] }
        : pending(f, reason);
    });
  if (skill.manifest === 'dynamic')
    problems.push(
      'The server marks this skill "dynamic": it publishes no digests, so its files cannot be verified.',
    );
  if (!hasVerifiableManifest(skill) && skill.manifest !== 'dynamic')
    problems.push(`Found through a legacy route (${skill.route}); labelled "legacy, unverified".`);
  if (listed.length > session.limits.maxFilesPerSkill) {
    problems.push(
      `The manifest lists ${listed.length} files, more than the ${session.limits.maxFilesPerSkill} a host must accept; the skill was not read.`,
    );
    return finish(
      listed.map((f) => ({
        ...pending(f),
        status: 'unverifiable',
        reasons: ['Not read: the skill exceeds the file limit.'],
      })),
    );
  }
  const total = listed.reduce((n, f) => n + (f.size ?? 0), 0);
  if (total > SKILL_LIMITS.bytes && total > session.limits.maxResourceBytes) {
    problems.push(
      `The manifest adds up to ${grouped(total)} bytes, more than the ${grouped(SKILL_LIMITS.bytes)} bytes a host must accept; the skill was not read.`,
    );
    return finish(
      listed.map((f) => ({
        ...pending(f),
        status: 'unverifiable',
        reasons: ['Not read: the skill exceeds the size limit.'],
      })),
    );
  }
  // An extension entry was judged when it was listed (skillFromEntry); a legacy _manifest only now.
  const missing =
    skill.route === 'extension' ? undefined : missingSkillMdProblem(skill.uri, listed);
  if (missing) {
    fatal = true;
    problems.push(missing);
  }
  if (fatal)
    // Why: a host must not load a skill on any discrepancy (docs/skills-over-mcp.md §5), so a
    // faulty entry reads nothing.
    return finish(
      notRead('Not read: the listing of this skill is faulty, so the skill was not loaded.'),
    );
  const first = await readSkillFile(session, skill, skill.uri, options.signal, count);
  if (first.content && options.keepBytes)
    options.keepBytes.set(skill.uri, contentBytes(first.content));
  const rest = listed.filter((f) => f.uri !== skill.uri);
  // Why: only a SKILL.md that verified (on a legacy route: that was read and usable) loads the
  // skill; after a mismatch, a timeout or a bound, none of its other files is read.
  const loaded = hasVerifiableManifest(skill)
    ? first.verification.status === 'verified'
    : first.content !== undefined;
  if (!loaded) {
    const why =
      first.verification.status === 'mismatch' || first.verification.status === 'unlisted'
        ? 'failed verification'
        : 'could not be verified';
    return finish([
      first.verification,
      ...rest.map((f) => pending(f, `Not read: SKILL.md ${why}, so the skill was not loaded.`)),
    ]);
  }
  const walking =
    options.walk !== false && session.directoryRead && hasVerifiableManifest(skill)
      ? // Why beside the reads: the folder listing needs none of the file contents, and a
        // skill's verification then waits for the slower of the two instead of their sum.
        walkDirectory(session, skill.rootUri, options.signal).then(
          (walk) => ({ walk }),
          (error: unknown) => ({ error }),
        )
      : undefined;
  const reads = await mapLimit(rest, options.concurrency ?? 4, async (f) => {
    const r = await readSkillFile(session, skill, f.uri, options.signal, count);
    if (r.content && options.keepBytes) options.keepBytes.set(f.uri, contentBytes(r.content));
    return r.verification;
  }).catch(async (e: unknown) => {
    await walking;
    throw e;
  });
  const files = [first.verification, ...reads];
  if (walking) {
    const walked = await walking;
    if ('error' in walked) {
      const e = walked.error;
      if (e instanceof InspectorError && e.code === 'cancelled') throw e;
      problems.push(`Walking the folders failed: ${(e as Error).message}`);
      incomplete = true;
    } else {
      const { walk } = walked;
      problems.push(...walk.problems);
      if (walk.partial) incomplete = true;
      const known = new Set(listed.map((f) => f.uri));
      for (const f of walk.files) {
        if (!known.has(f.uri)) {
          // Why: SEP-2640 §3 — the manifest is complete; a served file missing from it is unlisted (a failure).
          files.push({
            uri: f.uri,
            path: relativePathIn(skill.rootUri, f.uri),
            status: 'unlisted',
            reasons: [
              "The server lists this file in the folder, but the skill's manifest does not; it was not read.",
            ],
          });
        }
      }
    }
  }
  return finish(files);
}

/** The bytes of a usable content. */
export function contentBytes(content: NonNullable<FileRead['content']>): Uint8Array {
  return content.text !== undefined
    ? Buffer.from(content.text, 'utf8')
    : Buffer.from(content.base64 ?? '', 'base64');
}

/** A nested file tree from the manifest, with each file's status. */
export function fileTree(
  skill: InspectedSkill,
  statuses: ReadonlyMap<string, FileVerification> = new Map(),
): FileTreeNode {
  const root: FileTreeNode = {
    name: skill.name,
    path: '',
    uri: skill.rootUri,
    kind: 'directory',
    children: [],
  };
  const files = listedFiles(skill) ?? [{ uri: skill.uri, path: 'SKILL.md' }];
  const extra = [...statuses.values()]
    .filter((v) => !files.some((f) => f.uri === v.uri) && v.path !== undefined)
    .map((v) => ({ uri: v.uri, path: v.path }));
  for (const f of [...files, ...extra]) {
    if (f.path === undefined) continue;
    const parts = f.path.split('/');
    let node = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const name = parts[i];
      let child = node.children?.find((c) => c.name === name && c.kind === 'directory');
      if (!child) {
        const path = parts.slice(0, i + 1).join('/');
        child = {
          name,
          path,
          uri: `${skill.rootUri}/${encodeRelativePath(path)}`,
          kind: 'directory',
          children: [],
        };
        node.children?.push(child);
      }
      node = child;
    }
    node.children?.push({
      name: parts[parts.length - 1],
      path: f.path,
      uri: f.uri,
      kind: 'file',
      size: 'size' in f ? f.size : undefined,
      status: statuses.get(f.uri)?.status ?? 'pending',
    });
  }
  const sort = (n: FileTreeNode): void => {
    n.children?.sort((a, b) =>
      a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'directory' ? -1 : 1,
    );
    n.children?.forEach(sort);
  };
  sort(root);
  return root;
}

export type { SkillViewData } from './types';

/** A file view for the validation core built from the manifest (no disk). */
export function manifestFileView(skill: InspectedSkill): FileView {
  const files = listedFiles(skill) ?? [];
  const dirs = new Set<string>();
  for (const f of files) {
    const parts = (f.path ?? '').split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return {
    folderName: skill.rootUri.split('/').pop() ?? skill.name,
    relativePath: skill.skillPath,
    fileName: 'SKILL.md',
    entries: [
      ...[...dirs].map((path) => ({ path, kind: 'directory' as const, size: 0 })),
      ...files
        .filter((f) => f.path !== undefined)
        .map((f) => ({ path: f.path as string, kind: 'file' as const, size: f.size ?? 0 })),
    ],
  };
}

/**
 * Read SKILL.md (verified) and build the skill screen's data; validates with the core under
 * `profile`, or without one for the skill's own format, chosen as the library chooses it.
 */
export async function skillView(
  session: InspectorSession,
  skill: InspectedSkill,
  profile: ProfileId | undefined,
  statuses: Map<string, FileVerification>,
  signal?: AbortSignal,
): Promise<SkillViewData> {
  const skillMd = await readSkillFile(session, skill, skill.uri, signal);
  statuses.set(skill.uri, skillMd.verification);
  const text =
    skillMd.content?.text ??
    (skillMd.content?.base64 !== undefined
      ? Buffer.from(skillMd.content.base64, 'base64').toString('utf8')
      : undefined);
  let frontmatter = skill.frontmatter;
  let validation: ValidationResult | undefined;
  let profiles: ProfileId[] = profile ? [profile] : ['agentskills'];
  if (text !== undefined) {
    const fm = frontmatterOf(text);
    if (fm.ok) frontmatter = fm.data;
    if (!profile) profiles = chooseProfiles(parseSkill(text)).own;
    validation = validateSkill(text, { profiles, fileView: manifestFileView(skill) });
    if (!skill.frontmatter && fm.ok) {
      skill.frontmatter = fm.data;
      if (typeof fm.data.name === 'string') skill.name = fm.data.name;
      if (typeof fm.data.description === 'string') skill.description = fm.data.description;
    }
  }
  return {
    skill,
    skillMd,
    frontmatter,
    text,
    validation,
    profile: profile ?? 'own',
    profiles,
    tree: fileTree(skill, statuses),
    directoryRead: session.directoryRead,
  };
}
