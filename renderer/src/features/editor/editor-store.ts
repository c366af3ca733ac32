import { create } from 'zustand';
import type { ApiClient, ChannelOutput, SkillSummary } from '../../../../shared/ipc/contract';
import { applyEdits, parseSkill } from '../../../../shared/skill';
import {
  chooseProfiles,
  fixAllSafe,
  getRule,
  groupFindings,
  validateSkill,
} from '../../../../shared/validation';
import type {
  Diagnostic,
  FileView,
  ProfileId,
  QuickFix,
  ValidationResult,
} from '../../../../shared/validation/types';
import { frontmatterForReview, reviewSkill } from '../../../../shared/safety';
import type { SafetyFinding, SafetyReviewResult } from '../../../../shared/safety/types';
import type { Notices } from '../../app/state/notices-store';
import type { EditorBridge } from './editor-bridge';

type Draft = ChannelOutput<'drafts.list'>['drafts'][number];

/** An edit made outside Skillbench while the file is open. */
export interface Conflict {
  kind: 'changed' | 'deleted';
  /** The text now on disk (null when the file was deleted). */
  diskText: string | null;
  diskVersion: string | null;
}

/** The open document and everything the editor shows about it. */
export interface EditorState {
  path: string | null;
  skillDir: string | null;
  status: 'empty' | 'loading' | 'ready' | 'saving';
  savedText: string;
  draft: string;
  version: string | null;
  fileView: FileView | null;
  /** The profiles the buffer is checked for: its own format, then the extra targets. */
  profiles: ProfileId[];
  /** The skill's own format among them. */
  ownProfiles: ProfileId[];
  /** Findings of the core on the current buffer, recomputed on every change. */
  diagnostics: Diagnostic[];
  verdicts: ValidationResult['verdicts'];
  /** Findings only the disk checks make (links, package size), from the last save or open. */
  diskDiagnostics: Diagnostic[];
  /** The safety review of the open file's buffer, recomputed on every change (the editor's markers). */
  safetyFindings: SafetyFinding[];
  /** The safety review of the whole skill folder on disk, from the last open, save or decision. */
  safetyReview: SafetyReviewResult | null;
  /** Review the skill folder on disk again. */
  loadSafety: () => Promise<void>;
  /** "Trust anyway" for the version reviewed; returns false (with the error shown) when refused. */
  trustSkill: (reason: string, days: number) => Promise<boolean>;
  /** Stop trusting the version reviewed. */
  untrustSkill: () => Promise<void>;
  conflict: Conflict | null;
  view: 'text' | 'form';
  showPreview: boolean;
  /** Unsaved buffers found from an earlier session. */
  recovered: Draft[];
  /** Bumped when the text changed from outside the editor widget (fix, form, reload), so Monaco syncs. */
  externalRevision: number;
  /** Open a file; `skillDir` when it is not the skill's SKILL.md (a reference, a script). */
  open: (path: string, skillDir?: string) => Promise<boolean>;
  setDraft: (text: string, fromEditor?: boolean) => void;
  save: () => Promise<boolean>;
  applyFix: (fix: QuickFix) => void;
  fixAll: () => number;
  revalidate: () => void;
  /**
   * Files of the open skill were added, renamed or removed (the file tree, or on disk): read its
   * file view again and check again, so links and named files are judged against what is there.
   */
  folderChanged: () => Promise<void>;
  externalChange: (path: string, version: string | null) => Promise<void>;
  takeDiskVersion: () => void;
  keepMine: () => void;
  setView: (view: 'text' | 'form') => void;
  togglePreview: () => void;
  loadRecovered: () => Promise<void>;
  restoreDraft: (draft: Draft) => Promise<void>;
  discardDraft: (draft: Draft) => Promise<void>;
  /** Drop the unsaved changes of the open file (and the draft kept of them). */
  discardChanges: () => Promise<void>;
  close: () => void;
  /** Keep the unsaved changes as a draft now, not after the pause (the skill is about to close). */
  keepDraftNow: () => Promise<void>;
}

/** What a SKILL.md's check on disk changes in its library row. */
export type SkillRowPatch = Partial<Pick<SkillSummary, 'name' | 'description' | 'counts'>> & {
  /** The whole description's length in characters, for the description-budget meter. */
  budgetCharacters?: number;
};

/** What the editor store needs from outside. */
export interface EditorDeps {
  api: ApiClient;
  notices: Notices;
  /** The extra targets chosen in Settings (on top of each skill's own format), read at every check. */
  extraProfiles: () => readonly ProfileId[];
  /** Remember the SKILL.md to reopen at the next start. */
  rememberOpenSkill: (path: string) => void;
  /** The mounted Monaco editor, if any: fixes applied through it land in its undo history. */
  bridge: () => EditorBridge | null;
  /** A SKILL.md was checked on disk (after opening or saving it): what its list row shows now. */
  onSkillChecked: (path: string, patch: SkillRowPatch) => void;
  /** The user trusted a skill anyway, or stopped trusting it: the list's badges change. */
  onSafetyChanged?: () => void;
  /** The open skill's folder was renamed: the list follows. */
  onSkillMoved: (from: string, to: string) => void;
}

/** How long typing pauses before the buffer is kept as a draft. */
export const DRAFT_DELAY_MS = 600;

/** Is the buffer different from what is on disk? */
export function isDirty(state: Pick<EditorState, 'draft' | 'savedText' | 'status'>): boolean {
  return state.status !== 'empty' && state.draft !== state.savedText;
}

/** Is `path` a SKILL.md (any case, so a wrongly named skill.md is still checked)? */
export function isSkillFile(path: string | null): boolean {
  return path !== null && /(^|[\\/])skill\.md$/i.test(path);
}

function skillDirOf(path: string): string {
  return path.replace(/[\\/][^\\/]*$/, '');
}

/**
 * The safety review of one buffer, as the file it is in the skill (SKILL.md, or its path inside
 * the skill folder): the same rules as everywhere, so the markers match the review panel.
 */
export function liveSafety(
  text: string,
  path: string | null,
  skillDir: string | null,
): SafetyFinding[] {
  if (path === null) return [];
  const skill = isSkillFile(path);
  const rel =
    skill || skillDir === null || !path.startsWith(skillDir)
      ? 'SKILL.md'
      : path.slice(skillDir.length + 1).replace(/\\/g, '/');
  const report = reviewSkill({
    files: [{ path: skill ? 'SKILL.md' : rel, kind: 'file', size: text.length, text }],
    ...(skill ? { frontmatter: frontmatterForReview(parseSkill(text)) } : {}),
  });
  return report.findings;
}

/** Make an editor store. */
export function createEditorStore(deps: EditorDeps) {
  const { api, notices, bridge } = deps;
  // Whether a draft of the open file may be kept in main (a put was scheduled since the last save).
  let draftKept = false;
  let draftTimer: ReturnType<typeof setTimeout> | undefined;

  return create<EditorState>()((set, get) => {
    /** The profiles for `text` (shared/validation/choose-profiles.ts), the same arrays while they do not change. */
    function choose(text: string) {
      const { profiles, own } = chooseProfiles(parseSkill(text), undefined, deps.extraProfiles());
      const same = (a: readonly ProfileId[], b: readonly ProfileId[] | undefined) =>
        b !== undefined && a.length === b.length && a.every((p, i) => p === b[i]);
      const state = get() as EditorState | undefined;
      return {
        profiles: same(profiles, state?.profiles) && state ? state.profiles : profiles,
        ownProfiles: same(own, state?.ownProfiles) && state ? state.ownProfiles : own,
      };
    }

    function validate(
      text: string,
      fileView: FileView | null,
      path = get()?.path ?? null,
      skillDir = get()?.skillDir ?? null,
    ) {
      const chosen = choose(text);
      // Why every file for safety: a script or a reference can carry the risk as well as SKILL.md.
      const safetyFindings = liveSafety(text, path, skillDir);
      // Why: only SKILL.md has frontmatter rules; a reference or script is just text.
      if (!isSkillFile(path)) return { diagnostics: [], verdicts: {}, ...chosen, safetyFindings };
      const result = validateSkill(text, {
        profiles: chosen.profiles,
        ownProfiles: chosen.ownProfiles,
        fileView: fileView ?? undefined,
      });
      return {
        diagnostics: result.diagnostics,
        verdicts: result.verdicts,
        ...chosen,
        safetyFindings,
      };
    }

    /** Review the open skill's folder on disk (the review panel). */
    async function reviewFolder(skillDir: string) {
      const result = await api['safety.review']({ path: skillDir });
      if (get().skillDir !== skillDir) return;
      const before = get().safetyReview;
      const after = result.ok ? result.value : null;
      set({ safetyReview: after });
      // Why: the list's badge of this skill is out of date when the skill changed its verdict.
      if (
        before?.path === after?.path &&
        before &&
        after &&
        (before.report.verdict !== after.report.verdict ||
          (before.accepted === undefined) !== (after.accepted === undefined))
      )
        deps.onSafetyChanged?.();
    }

    /** The disk checks of a SKILL.md whose saved text is `savedText`: disk-only findings, its list row. */
    async function refreshDisk(path: string, savedText: string) {
      if (!isSkillFile(path)) return;
      // Why no profiles: main chooses them the same way (the skill's own format plus Settings' extras).
      const result = await api['skill.validate']({ path });
      if (!result.ok) return;
      // Why only unknown rule ids: the core's own findings are already live on the buffer.
      if (get().path === path)
        set({
          diskDiagnostics: result.value.diagnostics.filter((d) => getRule(d.ruleId) === undefined),
        });
      // Why one row: listing a 5,000-skill library again after every save would take most of a second.
      const data = parseSkill(savedText).data as Record<string, unknown> | null;
      deps.onSkillChecked(path, {
        counts: result.value.counts,
        ...(typeof data?.name === 'string' ? { name: data.name } : {}),
        ...(typeof data?.description === 'string'
          ? {
              description: data.description.trim().split('\n')[0] ?? '',
              budgetCharacters: [...data.description].length,
            }
          : {}),
      });
    }

    /**
     * A fix that renames the skill's folder (and changes the name with it): the folder first, and
     * only if that worked the text; a buffer without other changes is then saved, so the list and
     * the disk agree at once.
     */
    async function renameFolderWith(fix: QuickFix) {
      const { path, draft, savedText, status } = get();
      const op = fix.fileOperations?.find((o) => o.kind === 'rename-folder');
      if (!path || !op || status !== 'ready') return;
      const moved = await api['skill.renameFolder']({ path, newName: op.newName });
      if (!moved.ok) {
        notices.showError(moved.error);
        return;
      }
      if (get().path !== path) return;
      const newPath = moved.value.path;
      const view = await api['skill.fileView']({ path: newPath });
      const clean = draft === savedText;
      set({
        path: newPath,
        skillDir: skillDirOf(newPath),
        ...(view.ok ? { fileView: view.value } : {}),
      });
      deps.rememberOpenSkill(newPath);
      deps.onSkillMoved(path, newPath);
      if (fix.edits.length > 0) {
        const text = applyEdits(get().draft, fix.edits);
        if (!(get().view === 'text' && bridge()?.applyEdits(fix.edits)))
          get().setDraft(text, false);
      } else set(validate(get().draft, get().fileView));
      if (clean && fix.edits.length > 0) await get().save();
      notices.showNotice(`Renamed the folder to "${op.newName}".`);
    }

    return {
      path: null,
      skillDir: null,
      status: 'empty',
      savedText: '',
      draft: '',
      version: null,
      fileView: null,
      profiles: ['agentskills'],
      ownProfiles: ['agentskills'],
      diagnostics: [],
      verdicts: {},
      diskDiagnostics: [],
      safetyFindings: [],
      safetyReview: null,
      conflict: null,
      view: 'text',
      showPreview: false,
      recovered: [],
      externalRevision: 0,

      async open(path, skillDir) {
        draftKept = false;
        set({ status: 'loading', path, conflict: null, diskDiagnostics: [] });
        const [read, view] = await Promise.all([
          api['skill.read']({ path }),
          isSkillFile(path) ? api['skill.fileView']({ path }) : Promise.resolve(null),
        ]);
        if (get().path !== path) return false; // Why: a later click won the race.
        if (!read.ok) {
          notices.showError(read.error);
          set({ status: 'empty', path: null });
          return false;
        }
        const fileView = view?.ok ? view.value : null;
        // Why: a message about the file shown before ("Saved", "Reloaded") is not about this one.
        notices.showNotice(null);
        const dir = skillDir ?? skillDirOf(path);
        const sameSkill = get().skillDir === dir;
        set({
          skillDir: dir,
          ...(sameSkill ? {} : { safetyReview: null }),
          savedText: read.value.text,
          draft: read.value.text,
          version: read.value.version,
          fileView,
          status: 'ready',
          externalRevision: get().externalRevision + 1,
          ...validate(read.value.text, fileView, path, dir),
        });
        notices.showError(null);
        if (isSkillFile(path)) deps.rememberOpenSkill(path);
        void refreshDisk(path, read.value.text);
        // Why every time: what is on disk may have changed (another editor, a script beside SKILL.md).
        void reviewFolder(dir);
        return true;
      },

      setDraft(text, fromEditor = true) {
        const { fileView, path, version, draft } = get();
        if (text === draft && fromEditor) return;
        set({
          draft: text,
          ...validate(text, fileView),
          ...(fromEditor ? {} : { externalRevision: get().externalRevision + 1 }),
        });
        if (text !== draft) notices.showNotice(null);
        clearTimeout(draftTimer);
        if (path && text !== get().savedText) {
          // Why: a renderer crash must not lose typing; keep the buffer on disk shortly after each pause.
          draftKept = true;
          draftTimer = setTimeout(
            () => void api['drafts.put']({ path, text, baseVersion: version }),
            DRAFT_DELAY_MS,
          );
        } else if (path && draftKept) {
          // Every change undone: the kept draft would be offered back at the next start for nothing.
          draftKept = false;
          void api['drafts.discard']({ path });
        }
      },

      async save() {
        const { path, draft, version, status } = get();
        if (!path || status !== 'ready') return false;
        clearTimeout(draftTimer);
        // Why: main forgets the draft of a saved file.
        draftKept = false;
        set({ status: 'saving' });
        const result = await api['skill.save']({
          path,
          text: draft,
          expectedVersion: version ?? undefined,
        });
        // Why: another file may have been opened while this one was being written; its state is not ours.
        const stillOpen = () => get().path === path;
        if (!result.ok) {
          if (stillOpen()) set({ status: 'ready' });
          if (result.error.code === 'conflict' && stillOpen()) {
            const disk = await api['skill.read']({ path });
            if (stillOpen())
              set({
                conflict: {
                  kind: disk.ok ? 'changed' : 'deleted',
                  diskText: disk.ok ? disk.value.text : null,
                  diskVersion: disk.ok ? disk.value.version : null,
                },
              });
          }
          notices.showError(result.error);
          return false;
        }
        if (stillOpen())
          set({ savedText: draft, version: result.value.version, status: 'ready', conflict: null });
        notices.showNotice('Saved');
        notices.showError(null);
        void refreshDisk(path, draft);
        const dir = get().skillDir;
        if (dir) void reviewFolder(dir);
        return true;
      },

      applyFix(fix) {
        if (fix.fileOperations?.some((o) => o.kind === 'rename-folder')) {
          void renameFolderWith(fix);
          return;
        }
        // Why through the editor: the fix lands in Monaco's undo history, so Ctrl+Z takes it back.
        if (get().view === 'text' && bridge()?.applyEdits(fix.edits)) return;
        get().setDraft(applyEdits(get().draft, fix.edits), false);
      },

      fixAll() {
        const current = get().draft;
        const { text, applied } = fixAllSafe(current, {
          ...choose(current),
          fileView: get().fileView ?? undefined,
        });
        if (applied.length === 0) return 0;
        const before = groupFindings(get().diagnostics).length;
        const whole = [{ start: 0, end: current.length, newText: text }];
        if (!(get().view === 'text' && bridge()?.applyEdits(whole))) get().setDraft(text, false);
        // Why count rows: a fix of one problem raised by several profiles (or in several rounds)
        // is one problem fewer in the list, and the message must match what the user sees.
        return Math.max(
          0,
          before - groupFindings(validate(text, get().fileView).diagnostics).length,
        );
      },

      revalidate() {
        const { draft, fileView, path, savedText } = get();
        set(validate(draft, fileView));
        if (path) void refreshDisk(path, savedText);
      },

      async folderChanged() {
        const { path, skillDir } = get();
        if (!path || !skillDir) return;
        if (isSkillFile(path)) {
          const view = await api['skill.fileView']({ path });
          if (get().path !== path) return;
          if (view.ok) set({ fileView: view.value });
        }
        get().revalidate();
        void reviewFolder(skillDir);
      },

      async externalChange(path, version) {
        const state = get();
        if (path !== state.path || version === state.version) return;
        if (version === null) {
          set({ conflict: { kind: 'deleted', diskText: null, diskVersion: null } });
          return;
        }
        const disk = await api['skill.read']({ path });
        // Why re-check: a save of ours may have finished while the file was read.
        if (!disk.ok || get().path !== path || disk.value.version === get().version) return;
        if (!isDirty(get())) {
          // Why: a clean buffer has nothing to lose, so follow the disk silently.
          set({ savedText: disk.value.text, version: disk.value.version, conflict: null });
          get().setDraft(disk.value.text, false);
          notices.showNotice('Reloaded: the file changed on disk.');
          const dir = get().skillDir;
          if (dir) void reviewFolder(dir);
          return;
        }
        set({
          conflict: { kind: 'changed', diskText: disk.value.text, diskVersion: disk.value.version },
        });
      },

      takeDiskVersion() {
        const { conflict, path, draft } = get();
        if (!conflict || conflict.diskText === null) return;
        set({ savedText: conflict.diskText, version: conflict.diskVersion, conflict: null });
        // setDraft forgets the kept draft when the text changes; when it does not, it is forgotten here.
        get().setDraft(conflict.diskText, false);
        if (path && draft === conflict.diskText) void api['drafts.discard']({ path });
        const dir = get().skillDir;
        if (dir) void reviewFolder(dir);
      },

      keepMine() {
        const { conflict } = get();
        if (!conflict) return;
        // Why: the next save must be allowed to replace the disk version the user has now seen.
        set({ version: conflict.diskVersion, savedText: conflict.diskText ?? '', conflict: null });
      },

      async loadSafety() {
        const dir = get().skillDir;
        if (dir) await reviewFolder(dir);
      },

      async trustSkill(reason, days) {
        const reviewed = get().safetyReview;
        const dir = get().skillDir;
        if (!reviewed || !dir) return false;
        const result = await api['safety.trust']({ path: dir, hash: reviewed.hash, reason, days });
        if (!result.ok) {
          notices.showError(result.error);
          await reviewFolder(dir);
          return false;
        }
        if (get().skillDir === dir) set({ safetyReview: result.value });
        deps.onSafetyChanged?.();
        notices.showNotice(`You chose to trust this version of ${reviewed.name}.`);
        return true;
      },

      async untrustSkill() {
        const reviewed = get().safetyReview;
        const dir = get().skillDir;
        if (!reviewed || !dir) return;
        const result = await api['safety.untrust']({ path: dir, hash: reviewed.hash });
        if (!result.ok) {
          notices.showError(result.error);
          return;
        }
        if (get().skillDir === dir) set({ safetyReview: result.value });
        deps.onSafetyChanged?.();
      },

      setView(view) {
        set({ view });
      },

      togglePreview() {
        set({ showPreview: !get().showPreview });
      },

      async loadRecovered() {
        const result = await api['drafts.list']({});
        if (result.ok) set({ recovered: result.value.drafts });
      },

      async restoreDraft(draft) {
        if (!(await get().open(draft.path))) return;
        get().setDraft(draft.text, false);
        set({ recovered: get().recovered.filter((d) => d.path !== draft.path) });
        if (draft.baseVersion !== null && draft.baseVersion !== get().version) {
          notices.showNotice(
            'Restored your unsaved changes. The file also changed on disk since then; review before saving.',
          );
          set({
            conflict: { kind: 'changed', diskText: get().savedText, diskVersion: get().version },
          });
        } else {
          notices.showNotice('Restored your unsaved changes.');
        }
      },

      async discardDraft(draft) {
        await api['drafts.discard']({ path: draft.path });
        set({ recovered: get().recovered.filter((d) => d.path !== draft.path) });
      },

      async discardChanges() {
        const { path, savedText, fileView } = get();
        if (!path) return;
        clearTimeout(draftTimer);
        draftKept = false;
        set({
          draft: savedText,
          externalRevision: get().externalRevision + 1,
          ...validate(savedText, fileView),
        });
        await api['drafts.discard']({ path });
      },

      async keepDraftNow() {
        const { path, draft, savedText, version } = get();
        if (!path || draft === savedText) return;
        clearTimeout(draftTimer);
        draftKept = true;
        await api['drafts.put']({ path, text: draft, baseVersion: version });
      },

      close() {
        set({
          path: null,
          skillDir: null,
          status: 'empty',
          savedText: '',
          draft: '',
          version: null,
          fileView: null,
          diagnostics: [],
          diskDiagnostics: [],
          safetyFindings: [],
          safetyReview: null,
          conflict: null,
        });
      },
    };
  });
}
