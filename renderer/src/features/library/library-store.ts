import { create } from 'zustand';
import type {
  ApiClient,
  ApiError,
  ChannelInput,
  ChannelOutput,
  SkillSummary,
} from '../../../../shared/ipc/contract';
import type { SafetyBadge } from '../../../../shared/safety/types';
import type { ProfileId } from '../../../../shared/validation/types';
import { budgetFromCounts } from '../../../../shared/validation/describe-budget';
import type { Notices } from '../../app/state/notices-store';

type Listing = ChannelOutput<'library.list'>;
type Browsed = ChannelOutput<'fs.browse'>;

/** How the list is narrowed. */
export interface ListFilter {
  query: string;
  status: 'all' | 'errors' | 'warnings' | 'clean';
  root: string | 'all';
  /** Only skills whose suggested profiles include this one. */
  profile: ProfileId | 'all';
  sort: 'name' | 'path' | 'status';
}

/** What one saved skill changes in its list row. */
export type SkillRowPatch = Partial<Pick<SkillSummary, 'name' | 'description' | 'counts'>> & {
  /** The whole description's length in characters, for the description-budget meter. */
  budgetCharacters?: number;
};

/** What the library store needs from outside. */
export interface LibraryDeps {
  api: ApiClient;
  notices: Notices;
}

/** The library: roots, skills with their status, library-wide findings, and the list's filter. */
export interface LibraryState {
  state: 'idle' | 'loading' | 'ready';
  roots: string[];
  skills: SkillSummary[];
  findings: Listing['findings'];
  budget: Listing['budget'] | null;
  problems: Listing['problems'];
  /** The safety review's verdict of each skill folder (the list's badges), by folder path. */
  safety: Record<string, SafetyBadge>;
  filter: ListFilter;
  /** The usual skill folders found on this computer, offered while no folder is open. */
  suggestions: { label: string; path: string }[];
  /** List the library for the first time. */
  load: () => Promise<void>;
  /** List the library again (after a change on disk, a new folder, new targets). */
  refresh: () => Promise<void>;
  /** Review every listed skill again for the badges (reviews of unchanged skills are kept in main). */
  loadSafety: () => Promise<void>;
  /** Add a folder to the library; returns false (with the error shown) when it cannot be opened. */
  openLibrary: (path: string) => Promise<boolean>;
  /** The native folder dialog (Electron); returns false where there is none (the browser shell). */
  pickFolder: () => Promise<boolean>;
  /** List a folder's sub-folders for the browser shell's picker. */
  browse: (path: string) => Promise<{ ok: true; value: Browsed } | { ok: false; error: ApiError }>;
  closeRoot: (root: string) => Promise<void>;
  /** Create a skill from a template; returns its SKILL.md path, or null with the error shown. */
  createSkill: (input: ChannelInput<'skill.create'>) => Promise<string | null>;
  loadSuggestions: () => Promise<void>;
  setFilter: (patch: Partial<ListFilter>) => void;
  /** Update one row after its file was saved, without listing the whole library again. */
  updateSkill: (path: string, patch: SkillRowPatch) => void;
}

/** Make a library store. Components read it; only its actions call the API. */
export function createLibraryStore({ api, notices }: LibraryDeps) {
  // Why a sequence: listings overlap (an event, a new folder); one older than the list shown is dropped.
  let listings = 0;
  let shown = 0;
  let reviews = 0;
  return create<LibraryState>()((set, get) => ({
    state: 'idle',
    roots: [],
    skills: [],
    findings: [],
    budget: null,
    problems: [],
    safety: {},
    filter: { query: '', status: 'all', root: 'all', profile: 'all', sort: 'name' },
    suggestions: [],

    async load() {
      set({ state: 'loading' });
      await get().refresh();
    },

    async refresh() {
      const mine = ++listings;
      const result = await api['library.list']({});
      if (mine < shown) return;
      if (!result.ok) {
        notices.showError(result.error);
        set({ state: 'ready' });
        return;
      }
      shown = mine;
      const { roots, skills, findings, budget, problems } = result.value;
      set({ roots, skills, findings, budget, problems, state: 'ready' });
      void get().loadSafety();
    },

    async loadSafety() {
      const mine = ++reviews;
      const result = await api['safety.library']({});
      // Why no error banner: the badges are extra; the list itself is already shown.
      if (mine !== reviews || !result.ok) return;
      set({ safety: Object.fromEntries(result.value.skills.map((b) => [b.path, b])) });
    },

    async openLibrary(path) {
      if (path.trim() === '') {
        notices.showError({
          code: 'invalid-input',
          message: 'Type the path of a folder, or pick one with Browse.',
        });
        return false;
      }
      const result = await api['library.open']({ path });
      if (!result.ok) {
        notices.showError(result.error);
        return false;
      }
      notices.showError(null);
      notices.showNotice(
        result.value.skills.length === 0
          ? `No SKILL.md was found under ${result.value.root}.`
          : null,
      );
      await get().refresh();
      return true;
    },

    async pickFolder() {
      const result = await api['dialog.pickFolder']({});
      if (!result.ok) return false;
      if (result.value.path) await get().openLibrary(result.value.path);
      return true;
    },

    browse: (path) => api['fs.browse']({ path }),

    async closeRoot(root) {
      const result = await api['library.close']({ root });
      if (!result.ok) notices.showError(result.error);
      await get().refresh();
    },

    async createSkill(input) {
      const result = await api['skill.create'](input);
      if (!result.ok) {
        notices.showError(result.error);
        return null;
      }
      await get().refresh();
      return result.value.path;
    },

    async loadSuggestions() {
      const result = await api['library.suggestions']({});
      if (result.ok) set({ suggestions: result.value.places });
    },

    setFilter(patch) {
      set({ filter: { ...get().filter, ...patch } });
    },

    updateSkill(path, patch) {
      const skills = get().skills;
      const row = skills.find((s) => s.path === path);
      if (!row) return;
      const { budgetCharacters, ...fields } = patch;
      const budget = get().budget;
      // Why here: the meter must follow a save without listing the whole library again. Why not
      // when several skills share the name: the shares are by name, so the saved skill's own
      // cannot be told apart (all of them were replaced by one, and the total fell at each
      // save); the next listing brings the right total.
      const sameName = budget?.shares.filter((s) => s.name === row.name).length ?? 0;
      const next =
        budget && budgetCharacters !== undefined && sameName <= 1
          ? budgetFromCounts([
              ...budget.shares.filter((s) => s.name !== row.name),
              { name: fields.name ?? row.name, characters: budgetCharacters },
            ])
          : budget;
      set({
        skills: skills.map((s) => (s.path === path ? { ...s, ...fields } : s)),
        budget: next,
      });
    },
  }));
}

/** The skills the list shows for a filter (pure, so the list and tests agree). */
export function visibleSkills(skills: readonly SkillSummary[], filter: ListFilter): SkillSummary[] {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = skills.filter((skill) => {
    if (filter.root !== 'all' && skill.root !== filter.root) return false;
    if (filter.profile !== 'all' && !skill.suggestedProfiles.includes(filter.profile)) return false;
    if (filter.status === 'errors' && skill.counts.error === 0) return false;
    if (filter.status === 'warnings' && (skill.counts.warning === 0 || skill.counts.error > 0))
      return false;
    if (
      filter.status === 'clean' &&
      (skill.pending || skill.counts.error > 0 || skill.counts.warning > 0)
    )
      return false;
    if (words.length === 0) return true;
    const haystack = `${skill.name} ${skill.description} ${skill.relativeDir}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
  const rank = (s: SkillSummary) => (s.counts.error > 0 ? 0 : s.counts.warning > 0 ? 1 : 2);
  const byName = (a: SkillSummary, b: SkillSummary) =>
    a.name.localeCompare(b.name) || a.path.localeCompare(b.path);
  shown.sort(
    filter.sort === 'path'
      ? (a, b) => a.path.localeCompare(b.path)
      : filter.sort === 'status'
        ? (a, b) => rank(a) - rank(b) || byName(a, b)
        : byName,
  );
  return shown;
}
