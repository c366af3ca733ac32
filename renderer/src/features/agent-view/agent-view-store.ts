import { create } from 'zustand';
import {
  DEFAULT_THRESHOLD,
  selectableSkills,
  selectSkills,
  type EvalReport,
  type Selection,
} from '../../../../shared/agent-view';
import type { AgentCatalogView, ApiClient } from '../../../../shared/ipc/contract';
import type { Notices } from '../../app/state/notices-store';

/** What the agent store needs from outside. */
export interface AgentViewDeps {
  api: ApiClient;
  notices: Notices;
}

/** The tester's input as the user types it. */
export interface TesterInput {
  prompt: string;
  /** Attached file names, one per line or comma-separated as typed. */
  files: string;
  /** Host intents, comma-separated as typed. */
  intents: string;
  /** The threshold as typed ('' means the default). */
  threshold: string;
}

/** The "What the agent sees" view: the catalog, the trigger tester and the trigger evals. */
export interface AgentViewState {
  catalog: AgentCatalogView | null;
  loading: boolean;
  tester: TesterInput;
  /** The tester's outcome over the catalog, recomputed on every change (pure, like validation). */
  selection: Selection | null;
  evals: EvalReport | null;
  evalsRunning: boolean;
  /** Load (or reload) the catalog. */
  load: () => Promise<void>;
  /** Something the catalog is made of changed: load again if the view was shown. */
  refresh: () => Promise<void>;
  setTester: (patch: Partial<TesterInput>) => void;
  runEvals: () => Promise<void>;
  /** Change the context budget (tokens) and show the catalog against it. */
  setBudget: (tokens: number) => Promise<void>;
}

/** Split what the user typed into items: commas or line breaks separate, blanks are dropped. */
export function splitList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The threshold as typed, or the default when empty or not a number. */
export function thresholdOf(text: string): number {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : DEFAULT_THRESHOLD;
}

function run(catalog: AgentCatalogView | null, t: TesterInput): Selection | null {
  if (!catalog || (t.prompt.trim() === '' && splitList(t.files).length === 0)) return null;
  return selectSkills(selectableSkills(catalog), {
    prompt: t.prompt,
    files: splitList(t.files),
    intents: splitList(t.intents),
    threshold: thresholdOf(t.threshold),
  });
}

/** Make an agent store; actions are the only callers of the agent channels. */
export function createAgentViewStore({ api, notices }: AgentViewDeps) {
  // Why a counter: a reload may overlap another (an event and a click); only the newest answer is shown.
  let issued = 0;
  return create<AgentViewState>()((set, get) => ({
    catalog: null,
    loading: false,
    tester: { prompt: '', files: '', intents: '', threshold: '' },
    selection: null,
    evals: null,
    evalsRunning: false,
    async load() {
      const mine = ++issued;
      set({ loading: true });
      const result = await api['agentView.catalog']({});
      if (mine !== issued) return;
      if (!result.ok) {
        set({ loading: false });
        notices.showError(result.error);
        return;
      }
      set({
        catalog: result.value,
        loading: false,
        selection: run(result.value, get().tester),
      });
    },
    async refresh() {
      if (get().catalog) await get().load();
    },
    setTester(patch) {
      const tester = { ...get().tester, ...patch };
      set({ tester, selection: run(get().catalog, tester) });
    },
    async runEvals() {
      set({ evalsRunning: true });
      const result = await api['agentView.evals']({
        threshold: thresholdOf(get().tester.threshold),
      });
      set({ evalsRunning: false });
      if (!result.ok) notices.showError(result.error);
      else set({ evals: result.value });
    },
    async setBudget(tokens) {
      const result = await api['settings.update']({ contextBudget: tokens });
      if (!result.ok) notices.showError(result.error);
      else await get().load();
    },
  }));
}
