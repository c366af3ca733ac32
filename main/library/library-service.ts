import { lstat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { SkillTemplate } from '../../shared/authoring/templates';
import {
  fail,
  ok,
  type ChannelOutput,
  type EventPayload,
  type Result,
  type SkillSummary,
} from '../../shared/ipc/contract';
import type { FileView, ProfileId } from '../../shared/validation/types';
import { buildFileView, judgeSkillLink, linkedSkillFolders } from '../skill-folder';
import { isInside } from '../platform/paths';
import {
  LibraryMemo,
  sameUnits,
  validateLibrary,
  validateSkillFolder,
  ValidateInputError,
  type SkillValidation,
} from '../validate';
import { writeFileAtomic } from '../platform/atomic-write';
import { FolderExistsError, renameFolderNoReplace } from '../platform/rename-folder';
import { describeFsError, folderProblem } from '../platform/fs-errors';
import { resolveInsideRoots } from '../platform/paths';
import type { SettingsStore } from './settings-store';
import { readEditableFile, versionOf, versionOfFile } from './versions';
import type { ListingCache } from './listing-cache';
import { quickList } from './quick-list';
import { FileWatcher } from './watcher';
import { FolderWatch, notASkillChange } from '../platform/folder-watch';
import { createSkillFolder } from './new-skill';
import { notUtf8Place, notUtf8Words } from '../validate/disk-rules';

/** Called when Skillbench writes or notices a change. */
export type LibraryEmitter = <K extends 'skill.changed' | 'library.changed'>(
  event: K,
  payload: EventPayload<K>,
) => void;

type LibraryListing = ChannelOutput<'library.list'>;

/**
 * Folders at which a library's first listing answers with a glance (names and descriptions,
 * badges pending) and checks in the background. Why: checking 5,000 skills from nothing takes
 * seconds; the list should be usable at once. Smaller libraries are checked before answering.
 */
export const GLANCE_MIN_FOLDERS = 500;

/** The description budget of a listing whose skills are still being checked. */
const BUDGET_PENDING: LibraryListing['budget'] = { total: 0, limit: 8000, over: false, shares: [] };

/** The library roots, the skills under them, and the file operations the renderer may ask for inside them. */
export class LibraryService {
  private readonly sessionRoots = new Set<string>();
  /** Per root, the findings of the last listing, so folders in which nothing changed are not checked again. */
  private readonly memos = new Map<string, LibraryMemo>();
  private readonly watcher: FileWatcher;
  /** Settles when a listing of every root was first made (see {@link followDisk}). */
  private readonly firstListing: Promise<void>;
  private firstListed: () => void = () => undefined;
  /** The library folders watched for changes made outside Skillbench (see {@link followDisk}). */
  private folderWatch: FolderWatch | null = null;
  /** Whether the folder watch has started (after the first listing). */
  private watchStarted = false;
  /** The folders the last listing read, which the folder watch watches, each with its root. */
  private watchedFolders = new Map<string, string>();
  /** The skills folders of the known agents (see {@link setLinkRoots}). */
  private agentRoots: () => Promise<string[]> = async () => [];

  constructor(
    private readonly settings: SettingsStore,
    private readonly emit: LibraryEmitter = () => undefined,
    /** Keeps each root's findings across restarts (see ListingCache); none: memory only. */
    private readonly cache: ListingCache | null = null,
    /** Roots with at least this many folders get a first glance while their first check runs (see quickList). */
    private readonly glanceMinFolders = GLANCE_MIN_FOLDERS,
  ) {
    this.watcher = new FileWatcher((path, version) =>
      this.emit('skill.changed', { path, version }),
    );
    this.firstListing = new Promise((resolve) => (this.firstListed = resolve));
  }

  /**
   * Tell the listing where linked skill folders may point besides the library roots: the
   * skills folders of the known agents (main/agents). Why a callback set by the composition
   * root: the library must not import the agents service, which builds on it.
   */
  setLinkRoots(roots: () => Promise<string[]>): void {
    this.agentRoots = roots;
  }

  /** Where a linked skill folder may point: the library roots and the agents' skills folders. */
  async linkPolicyRoots(): Promise<string[]> {
    return [...(await this.roots()), ...(await this.agentRoots())];
  }

  /** Every root: remembered ones and those opened in this session. */
  async roots(): Promise<string[]> {
    return [...new Set([...(await this.settings.get()).roots, ...this.sessionRoots])];
  }

  /**
   * The folders a listing read: its roots, and the real folders of the linked skills it followed
   * that lie outside every root (an edit there changes the list too), each with the root whose
   * `library.changed` it gives. The served catalog watches the same (main/mcp-server/live-catalog.ts).
   */
  private followListing(listing: Pick<LibraryListing, 'roots' | 'skills'>): void {
    const folders = new Map<string, string>(listing.roots.map((r) => [r, r]));
    for (const s of listing.skills)
      if (
        s.linked?.state === 'followed' &&
        !listing.roots.some((r) => isInside(r, s.linked?.target ?? r))
      )
        folders.set(s.linked.target, s.root);
    const before = [...this.watchedFolders.keys()].join('\0');
    this.watchedFolders = folders;
    // Why only once started: until the first listing is done, the watch waits (see followDisk).
    if (this.watchStarted && [...folders.keys()].join('\0') !== before) this.folderWatch?.look();
  }

  /**
   * Follow changes made on disk outside Skillbench (a skill folder added, moved or deleted in a
   * file manager, a script edited in another editor, a library folder renamed): each library
   * folder that changed gets `library.changed`, so the window lists again (the listing checks
   * only the folders that changed). The served catalog watches its folders the same way
   * (main/platform/folder-watch.ts). Changes inside `quietInside` (the user-data folder, should a
   * library hold it) and inside folders no walk enters are not news. Stopped by {@link dispose}.
   */
  async followDisk(
    options: { quietInside?: readonly string[]; quietMs?: number; lookMs?: number } = {},
  ): Promise<void> {
    if (this.folderWatch) return;
    const quiet = (options.quietInside ?? []).map((p) => resolve(p));
    const watch = new FolderWatch({
      folders: () => [...this.watchedFolders.keys()],
      ignore: (relativePath, folder) =>
        notASkillChange(relativePath) || quiet.some((q) => isInside(q, join(folder, relativePath))),
      onChange: (changed) => {
        const roots = new Set([...changed].map((f) => this.watchedFolders.get(f) ?? f));
        for (const root of roots) this.emit('library.changed', { root });
      },
      ...(options.quietMs !== undefined ? { quietMs: options.quietMs } : {}),
      ...(options.lookMs !== undefined ? { lookMs: options.lookMs } : {}),
    });
    this.folderWatch = watch;
    // Why after the first listing: setting up the watches lists every folder of the library on
    // this thread, which would hold back the list the window is waiting for.
    await this.firstListing;
    // Why: dispose (the app closing) may come while the first listing is made; nothing starts after it.
    if (this.folderWatch !== watch) return;
    this.watchStarted = true;
    watch.start();
    // Why a catch-up once the watches are set up: a change made between the first listing and
    // then told nobody, and the window would show the library as it was until the next change.
    await watch.ready();
    if (this.folderWatch !== watch) return;
    await this.catchUp();
  }

  /**
   * List each root again and say `library.changed` for a root in which something changed since
   * its last listing (only folders whose fingerprint changed are read and checked again; what
   * counts as a change: `sameUnits`).
   */
  private async catchUp(): Promise<void> {
    const { extraProfiles } = await this.settings.get();
    for (const root of await this.roots()) {
      const memo = this.memos.get(root);
      // Why: a root not listed yet, or still checked in the background, says so when it is done.
      if (!memo || memo.root === '' || this.checking.has(root)) continue;
      const before = memo.units;
      const listed = await this.listRoot(root, extraProfiles);
      if (this.folderWatch === null) return;
      if (listed.ok && !sameUnits(before, memo.units)) this.emit('library.changed', { root });
    }
  }

  /** Add `path` as a library root (remembered) and list its skills. */
  async open(path: string): Promise<Result<{ root: string; skills: SkillSummary[] }>> {
    const root = resolve(path.trim());
    const problem = await folderProblem(root, 'library');
    if (problem) return { ok: false, error: problem };
    this.sessionRoots.add(root);
    const settings = await this.settings.get();
    if (!settings.roots.includes(root))
      await this.settings.update({ roots: [...settings.roots, root] });
    const listed = await this.listRootOrGlance(root, settings.extraProfiles);
    if (!listed.ok) return listed;
    return ok({ root, skills: listed.value.skills });
  }

  /** Forget a root. */
  async close(root: string): Promise<string[]> {
    this.sessionRoots.delete(root);
    const settings = await this.settings.get();
    const roots = settings.roots.filter((r) => r !== root);
    await this.settings.update({
      roots,
      lastOpenSkill: settings.lastOpenSkill?.startsWith(root) ? null : settings.lastOpenSkill,
    });
    return this.roots();
  }

  /** A listing started by {@link prefetch} that no request has taken yet, while it is being made. */
  private prefetched: Promise<LibraryListing> | null = null;

  /**
   * Start listing every root now (at app start, while the window loads), so the window's first
   * `library.list` finds the work under way instead of starting it. Only a listing still being
   * made is handed over: once it is done, a request makes a fresh one (cheap, see LibraryMemo).
   */
  prefetch(): Promise<void> {
    const running = this.listNow();
    this.prefetched = running;
    const clear = (): void => {
      if (this.prefetched === running) this.prefetched = null;
    };
    // Why a promise back: callers at start-up ignore it; a test can wait for the listing to be done.
    return running.then(clear, clear);
  }

  /** Every skill under every root, validated for the selected profiles. */
  async list(): Promise<LibraryListing> {
    const prefetched = this.prefetched;
    if (prefetched) {
      this.prefetched = null;
      try {
        return await prefetched;
      } catch {
        // Why fall through: the request gets its own listing (and its own error, if any).
      }
    }
    return this.listNow();
  }

  private async listNow(): Promise<LibraryListing> {
    try {
      const listing = await this.listEveryRoot();
      this.followListing(listing);
      return listing;
    } finally {
      this.firstListed();
    }
  }

  private async listEveryRoot(): Promise<LibraryListing> {
    const { extraProfiles } = await this.settings.get();
    const listing: LibraryListing = {
      roots: await this.roots(),
      skills: [],
      findings: [],
      budget: { total: 0, limit: 8000, over: false, shares: [] },
      problems: [],
    };
    const budgets: LibraryListing['budget'][] = [];
    for (const root of listing.roots) {
      const result = await this.listRootOrGlance(root, extraProfiles);
      if (!result.ok) {
        listing.problems.push({ root, message: result.error.message });
        continue;
      }
      listing.skills.push(...result.value.skills);
      listing.findings.push(...result.value.findings);
      budgets.push(result.value.budget);
    }
    // Why one budget over all roots: an agent sees every installed skill's description at once.
    const shares = budgets.flatMap((b) => b.shares);
    const total = shares.reduce((sum, s) => sum + s.characters, 0);
    listing.budget = {
      total,
      limit: budgets[0]?.limit ?? 8000,
      over: total > (budgets[0]?.limit ?? 8000),
      shares: shares.map((s) => ({ ...s, share: total > 0 ? s.characters / total : 0 })),
    };
    return listing;
  }

  /** Per root, the background check of a first listing while it runs. */
  private readonly checking = new Map<string, Promise<void>>();

  /** The memo of `root`: in memory, else from the cache on disk, else empty. */
  private async memoOf(root: string): Promise<LibraryMemo> {
    let memo = this.memos.get(root);
    if (!memo) {
      memo = (await this.cache?.load(root)) ?? new LibraryMemo();
      this.memos.set(root, memo);
    }
    return memo;
  }

  /**
   * List a root; when it was never checked and is large, answer with a glance (see quickList)
   * and check it in the background, then emit `library.changed` so the window lists again.
   */
  private async listRootOrGlance(
    root: string,
    extra: ProfileId[],
  ): ReturnType<LibraryService['listRoot']> {
    const memo = await this.memoOf(root);
    if (memo.root === '') {
      const glance = await quickList(root, this.glanceMinFolders);
      if (glance) {
        if (!this.checking.has(root)) {
          const check = this.listRoot(root, extra).then(
            () => this.emit('library.changed', { root }),
            () => this.emit('library.changed', { root }),
          );
          this.checking.set(root, check);
          void check.finally(() => this.checking.delete(root));
        }
        return ok({ skills: glance, findings: [], budget: BUDGET_PENDING });
      }
    }
    return this.listRoot(root, extra);
  }

  /** Wait for background checks of first listings (tests; the app waits for `library.changed`). */
  async settled(): Promise<void> {
    await Promise.all([...this.checking.values()]);
  }

  private async listRoot(
    root: string,
    extra: ProfileId[],
  ): Promise<
    Result<{
      skills: SkillSummary[];
      findings: LibraryListing['findings'];
      budget: LibraryListing['budget'];
    }>
  > {
    try {
      const memo = await this.memoOf(root);
      const validation = await validateLibrary(root, { extraProfiles: extra, memo });
      if (memo.rechecked > 0) this.cache?.save(root, memo);
      const skills = validation.skills.map((skill) => this.summarize(root, skill));
      skills.push(...(await this.linkedSkills(root, extra)));
      return ok({ skills, findings: validation.findings, budget: validation.budget });
    } catch (error) {
      if (error instanceof ValidateInputError) return fail('not-found', error.message);
      return { ok: false, error: describeFsError(error, root, 'open') };
    }
  }

  /**
   * The skill folders at the top of `root` that are links: each one the policy follows is
   * listed as the skill it points to (checked in its real folder), marked as linked; a broken
   * or refused link is listed as such, with the reason, and never read.
   */
  private async linkedSkills(root: string, extra: ProfileId[]): Promise<SkillSummary[]> {
    const verdicts = linkedSkillFolders(root, await this.linkPolicyRoots());
    const out: SkillSummary[] = [];
    for (const v of verdicts) {
      const name = v.link.slice(v.link.lastIndexOf(sep) + 1);
      if (v.state !== 'followed') {
        out.push({
          path: join(v.link, 'SKILL.md'),
          relativeDir: name,
          root,
          name,
          description: v.reason,
          counts: { error: 1, warning: 0, info: 0 },
          suggestedProfiles: [],
          linked: {
            target: v.state === 'refused' ? v.target : v.text,
            state: v.state,
            reason: v.reason,
          },
        });
        continue;
      }
      try {
        const result = await validateSkillFolder(v.target, {
          extraProfiles: extra,
          libraryRoot: root,
        });
        const summary = this.summarize(root, { ...result, relativePath: name });
        summary.path = join(v.link, v.fileName);
        summary.relativeDir = name;
        summary.linked = { target: v.target, state: 'followed' };
        out.push(summary);
      } catch {
        // Why: a target that vanished since it was judged is simply not listed this time.
      }
    }
    return out;
  }

  /**
   * Rename a skill's folder (the name/folder quick fix): a sibling name, never replacing anything
   * (main/platform/rename-folder.ts). Refuses for a library root itself and for a folder that is
   * a link (renaming what it points to would break the link). Returns the new SKILL.md path.
   */
  async renameSkillFolder(path: string, newName: string): Promise<Result<{ path: string }>> {
    const real = await this.resolve(path);
    if (!real) return outside(path);
    const given = dirname(resolve(path));
    const dir = dirname(real);
    if (!/^[^\\/\0]+$/.test(newName) || newName === '.' || newName === '..')
      return fail('invalid-name', `"${newName}" cannot be a folder name.`);
    if ((await this.roots()).some((r) => resolve(r) === dir))
      return fail(
        'invalid-move',
        'This skill is the library folder itself, so Skillbench does not rename it. Rename the folder in your file manager, then open it again.',
      );
    const link = await lstat(given).catch(() => null);
    if (link?.isSymbolicLink())
      return fail(
        'invalid-move',
        `${given} is a link to another folder, so it was not renamed. Change the name in SKILL.md instead.`,
      );
    try {
      const to = await renameFolderNoReplace(dir, newName);
      return ok({ path: join(to, basename(real)) });
    } catch (error) {
      if (error instanceof FolderExistsError)
        return fail(
          'exists',
          `A folder named "${newName}" already exists next to this skill, so nothing was renamed. Rename or remove that folder first.`,
        );
      return { ok: false, error: describeFsError(error, dir, 'write') };
    }
  }

  private summarize(root: string, skill: SkillValidation): SkillSummary {
    return {
      path: skill.file,
      relativeDir: skill.relativePath,
      root,
      name: skill.name ?? skill.dir.split(/[\\/]/).pop() ?? '',
      description: (skill.description ?? '').trim().split('\n')[0] ?? '',
      counts: skill.counts,
      suggestedProfiles: skill.suggestedProfiles,
    };
  }

  /**
   * Is `path` inside a library root (after following links)? Returns the real path or null. A
   * path through a linked skill folder at the top of a root resolves to the real folder when
   * the link policy follows that link (see {@link judgeSkillLink}), so edits act on it.
   */
  async resolve(path: string): Promise<string | null> {
    const roots = await this.roots();
    const inside = await resolveInsideRoots(roots, path);
    if (inside) return inside;
    const abs = resolve(path);
    for (const root of roots) {
      const rel = relative(root, abs);
      if (rel === '' || rel.startsWith('..') || !isInside(root, abs)) continue;
      const first = rel.split(sep)[0] ?? '';
      const verdict = judgeSkillLink(join(root, first), await this.linkPolicyRoots());
      if (verdict.state !== 'followed') continue;
      const real = await resolveInsideRoots(
        [verdict.target],
        join(verdict.target, rel.slice(first.length + 1)),
      );
      if (real) return real;
    }
    return null;
  }

  /** Validate a saved SKILL.md with the disk checks (links, references, package size). */
  async validate(
    path: string,
    profiles: ProfileId[] | undefined,
  ): Promise<Result<ChannelOutput<'skill.validate'>>> {
    const real = await this.resolve(path);
    if (!real) return outside(path);
    const { extraProfiles } = await this.settings.get();
    try {
      const roots = await this.roots();
      const libraryRoot = roots.find((r) => real.startsWith(r));
      const result = await validateSkillFolder(dirname(real), {
        ...(profiles ? { profiles } : {}),
        extraProfiles,
        libraryRoot,
        // Why the listing's memo: the row and the panel keep the library's findings (duplicate names).
        ...(libraryRoot !== undefined ? { library: await this.memoOf(libraryRoot) } : {}),
      });
      return ok({
        diagnostics: result.diagnostics,
        verdicts: result.verdicts,
        counts: result.counts,
      });
    } catch (error) {
      if (error instanceof ValidateInputError) return fail('not-found', error.message);
      return { ok: false, error: describeFsError(error, path, 'read') };
    }
  }

  /** The picture of a skill's folder the core's folder rules need, for instant validation in the editor. */
  async fileView(path: string): Promise<Result<FileView>> {
    const real = await this.resolve(path);
    if (!real) return outside(path);
    try {
      const roots = await this.roots();
      return ok(
        await buildFileView(
          dirname(real),
          roots.find((r) => real.startsWith(r)),
          { takenNames: true },
        ),
      );
    } catch (error) {
      return { ok: false, error: describeFsError(error, path, 'read') };
    }
  }

  /** Read a file inside an open library and watch it for outside edits. */
  async read(path: string): Promise<Result<{ path: string; text: string; version: string }>> {
    const real = await this.resolve(path);
    if (!real) return outside(path);
    try {
      const bytes = await readEditableFile(real);
      // Why not opened: the editor holds text, and saving it would write "�" for every byte that
      // is not UTF-8, for good (validate names the same place: file/not-utf8).
      const place = notUtf8Place(bytes, bytes.toString('utf8'));
      if (place)
        return fail(
          'not-utf8',
          `${basename(path)} is not UTF-8 text (${notUtf8Words(place)}), so Skillbench does not open it for editing: saving it would replace those bytes with "�". Save it as UTF-8 in another editor (most offer "Save with encoding: UTF-8"), then open it here.`,
        );
      const version = versionOf(bytes);
      this.watcher.watch(path, version);
      return ok({ path, text: bytes.toString('utf8'), version });
    } catch (error) {
      return { ok: false, error: describeFsError(error, path, 'read') };
    }
  }

  /**
   * Save `text` atomically. When `expectedVersion` is given and the file on disk no longer has
   * that fingerprint, nothing is written: someone else changed it and the user must choose.
   */
  async save(
    path: string,
    text: string,
    expectedVersion?: string,
  ): Promise<Result<{ path: string; version: string }>> {
    const real = await this.resolve(path);
    if (!real) return outside(path);
    try {
      if (expectedVersion !== undefined) {
        const current = await versionOfFile(real);
        if (current !== expectedVersion) {
          return fail(
            'conflict',
            current === null
              ? `${path} was deleted outside Skillbench after you opened it. Nothing was written.`
              : `${path} was changed outside Skillbench after you opened it. Nothing was written, so neither version is lost.`,
          );
        }
      }
      const bytes = Buffer.from(text, 'utf8');
      const version = versionOf(bytes);
      // Why no event for our own save: the saving window already knows, and an echo would race its reply.
      this.watcher.acknowledge(path, version);
      await writeFileAtomic(real, bytes);
      return ok({ path, version });
    } catch (error) {
      return { ok: false, error: describeFsError(error, path, 'write') };
    }
  }

  /** Create a new skill folder from a template in a library root (see createSkillFolder). */
  async createSkill(
    root: string,
    name: string,
    description: string,
    template: SkillTemplate['id'],
  ): Promise<Result<{ path: string; dir: string }>> {
    const realRoot = await this.resolve(root);
    if (!realRoot)
      return fail('outside-library', `${root} is not one of your library folders. Open it first.`);
    return createSkillFolder(realRoot, name, description, template);
  }

  /** Root subfolders the last listing of `root` checked again (the rest were reused), or undefined before one. */
  lastRechecked(root: string): number | undefined {
    return this.memos.get(resolve(root))?.rechecked;
  }

  /** Write the kept findings now (before the app closes). */
  async saveCache(): Promise<void> {
    await this.cache?.flush();
  }

  /** Write the kept findings and nothing after (the app is closing). */
  async closeCache(): Promise<void> {
    await this.cache?.close();
  }

  /** Stop watching files. */
  dispose(): void {
    this.watcher.close();
    this.folderWatch?.close();
    this.folderWatch = null;
    this.watchStarted = false;
    // Why: a followDisk waiting for the first listing returns now, starting nothing.
    this.firstListed();
  }
}

function outside<T>(path: string): Result<T> {
  return fail(
    'outside-library',
    `${path} is not inside a folder you opened in Skillbench, so it was not touched.`,
  );
}
