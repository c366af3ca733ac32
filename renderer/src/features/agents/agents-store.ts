import { create } from 'zustand';
import type { SafetyBadge, TrustRequest } from '../../../../shared/safety/types';
import type {
  AgentsOverview,
  InstallCheck,
  InstallReport,
  MergeResolution,
  OutdatedEntry,
  ScopeRef,
  UpdateChoice,
  UpdateOutcome,
} from '../../../../shared/agents/types';
import type { ApiClient, ChannelOutput, Result } from '../../../../shared/ipc/contract';
import type { Notices } from '../../app/state/notices-store';

/** What the agents store needs from outside. */
export interface AgentsDeps {
  api: ApiClient;
  notices: Notices;
}

/** What an install asks for. */
export interface InstallChoice {
  skills: string[];
  agents: string[];
  scope: ScopeRef;
  mode?: 'link' | 'copy';
  onConflict?: 'ask' | 'rename' | 'replace';
  /** "Trust anyway" for a skill the safety review calls "Don't trust". */
  trust?: TrustRequest;
}

/** What an install of a skill discovered in the inspector asks for. */
export interface RemoteInstallChoice {
  /** The inspector's skill key (server label and URI). */
  key: string;
  agents: string[];
  scope: ScopeRef;
  mode?: 'link' | 'copy';
  onConflict?: 'ask' | 'rename' | 'replace';
  /** "Trust anyway" for a skill the safety review calls "Don't trust". */
  trust?: TrustRequest;
}

/** The checks of a skill from a server, or why it cannot be installed. */
export interface RemoteChecks {
  checks: InstallCheck[];
  refused?: string;
}

/** The Agents view and the install dialog; actions are the only callers of the agents channels. */
export interface AgentsState {
  overview: AgentsOverview | null;
  outdated: OutdatedEntry[] | null;
  outcomes: UpdateOutcome[];
  busy: boolean;
  /** The last removal's undo token and what it removed, for the Undo button. */
  lastRemoval: { token: string; name: string } | null;
  /** The safety review of each skill the agents load, by its real folder. */
  safety: Record<string, SafetyBadge>;
  load: () => Promise<void>;
  /** Review what the agents load (after each listing), for the badges. */
  loadSafety: () => Promise<void>;
  /** Add a project folder; true when it was added (on a refusal the error is shown). */
  addProject: (dir: string) => Promise<boolean>;
  /**
   * Choose a project folder in the system's folder dialog and add it: the folder added, null when
   * none was (cancelled, or refused: the error is shown), undefined where the window has no such
   * dialog (the browser shell: then the folder picker is shown).
   */
  pickProject: () => Promise<string | null | undefined>;
  /** List a folder's sub-folders, for the folder picker. */
  browse: (path: string) => Promise<Result<ChannelOutput<'fs.browse'>>>;
  removeProject: (dir: string) => Promise<void>;
  check: (skills: string[], agents: string[]) => Promise<InstallCheck[] | null>;
  install: (choice: InstallChoice) => Promise<InstallReport | null>;
  /** Check a skill discovered in the inspector (read and verified again first). */
  checkRemote: (key: string, agents: string[]) => Promise<RemoteChecks | null>;
  /** Install a skill discovered in the inspector; only a verified skill is installed. */
  installRemote: (choice: RemoteInstallChoice) => Promise<InstallReport | null>;
  uninstall: (name: string, agents: string[], scope: ScopeRef) => Promise<void>;
  undoRemoval: () => Promise<void>;
  loadOutdated: () => Promise<void>;
  /** Update one installed skill in one scope (a name can be installed globally and in a project). */
  update: (
    target: UpdateTarget,
    choice?: UpdateChoice,
    resolved?: MergeResolution,
    trust?: TrustRequest,
  ) => Promise<void>;
  /** The last update again, with the user's "Trust anyway" (after a refused new version). */
  trustUpdate: (trust: TrustRequest) => Promise<void>;
}

/** One installed skill in one scope: what an update in the Agents view acts on. */
export interface UpdateTarget {
  name: string;
  scope: ScopeRef;
}

/** Make an agents store. */
export function createAgentsStore({ api, notices }: AgentsDeps) {
  // Why sequences: an overview or an update check may overlap another (a project added while the
  // first listing is on its way); an answer older than the one shown is dropped.
  let overviewSeq = 0;
  let outdatedSeq = 0;
  let safetySeq = 0;
  /** What the last update asked for, so "Trust anyway" repeats it exactly (merge settlements too). */
  let lastUpdate:
    { target: UpdateTarget; choice?: UpdateChoice; resolved?: MergeResolution } | undefined;
  return create<AgentsState>()((set, get) => ({
    overview: null,
    outdated: null,
    outcomes: [],
    busy: false,
    lastRemoval: null,
    safety: {},
    async load() {
      const seq = ++overviewSeq;
      set({ busy: true });
      const result = await api['agents.overview']({});
      if (seq !== overviewSeq) return;
      set({ busy: false });
      if (result.ok) {
        set({ overview: result.value });
        void get().loadSafety();
      } else notices.showError(result.error);
    },
    async loadSafety() {
      const seq = ++safetySeq;
      const result = await api['safety.agents']({});
      // Why no error banner: the badges are extra; the list itself is already shown.
      if (seq !== safetySeq || !result.ok) return;
      set({ safety: Object.fromEntries(result.value.skills.map((b) => [b.path, b])) });
    },
    async addProject(dir) {
      const result = await api['agents.addProject']({ dir });
      if (!result.ok) {
        notices.showError(result.error);
        return false;
      }
      // Why: a refusal shown before (a mistyped folder) is not true of the folder added now.
      notices.showError(null);
      await get().load();
      return true;
    },
    async pickProject() {
      const result = await api['dialog.pickFolder']({ title: 'Choose a project folder' });
      if (!result.ok) return undefined;
      const path = result.value.path;
      return path !== null && (await get().addProject(path)) ? path : null;
    },
    browse: (path) => api['fs.browse']({ path }),
    async removeProject(dir) {
      const result = await api['agents.removeProject']({ dir });
      if (!result.ok) return notices.showError(result.error);
      await get().load();
    },
    async check(skills, agents) {
      const result = await api['agents.check']({ skills, agents });
      if (!result.ok) {
        notices.showError(result.error);
        return null;
      }
      return result.value.checks;
    },
    async install(choice) {
      set({ busy: true });
      const result = await api['agents.install'](choice);
      set({ busy: false });
      if (!result.ok) {
        notices.showError(result.error);
        return null;
      }
      await get().load();
      return result.value;
    },
    async checkRemote(key, agents) {
      const result = await api['agents.checkRemote']({ key, agents });
      if (!result.ok) {
        notices.showError(result.error);
        return null;
      }
      return result.value;
    },
    async installRemote(choice) {
      set({ busy: true });
      const result = await api['agents.installRemote'](choice);
      set({ busy: false });
      if (!result.ok) {
        notices.showError(result.error);
        return null;
      }
      await get().load();
      return result.value;
    },
    async uninstall(name, agents, scope) {
      const result = await api['agents.uninstall']({ name, agents, scope });
      if (!result.ok) return notices.showError(result.error);
      const r = result.value;
      if (r.undoToken) set({ lastRemoval: { token: r.undoToken, name } });
      notices.showNotice(
        r.removed.length > 0
          ? `Removed ${name}: moved to Skillbench's trash.${r.kept.length ? ` ${r.kept.join(' ')}` : ''}`
          : `Nothing was removed. ${[...r.notFound, ...r.kept].join(' ')}`,
      );
      await get().load();
    },
    async undoRemoval() {
      const last = get().lastRemoval;
      if (!last) return;
      const result = await api['agents.restore']({ undoToken: last.token });
      set({ lastRemoval: null });
      if (!result.ok) return notices.showError(result.error);
      notices.showNotice(
        result.value.refused.length > 0
          ? result.value.refused.join(' ')
          : `${last.name} is back where it was.`,
      );
      await get().load();
    },
    async loadOutdated() {
      const seq = ++outdatedSeq;
      set({ busy: true });
      const result = await api['agents.outdated']({});
      if (seq !== outdatedSeq) return;
      set({ busy: false });
      if (result.ok) set({ outdated: result.value.entries });
      else notices.showError(result.error);
    },
    async update(target, choice, resolved, trust) {
      lastUpdate = { target, choice, resolved };
      set({ busy: true });
      const result = await api['agents.update']({
        names: [target.name],
        scope: target.scope,
        ...(choice ? { choice } : {}),
        ...(resolved ? { resolved } : {}),
        ...(trust ? { trust } : {}),
      });
      set({ busy: false });
      if (!result.ok) return notices.showError(result.error);
      set({ outcomes: result.value.outcomes });
      await get().loadOutdated();
      await get().load();
    },
    async trustUpdate(trust) {
      if (!lastUpdate) return;
      const { target, choice, resolved } = lastUpdate;
      await get().update(target, choice, resolved, trust);
    },
  }));
}
