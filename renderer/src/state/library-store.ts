import { create } from 'zustand';
import type {
  ApiError,
  ChannelInput,
  ChannelOutput,
  SkillSummary,
} from '../../../shared/ipc/contract';
import type { ProfileId } from '../../../shared/validation/types';
import { api } from '../platform/api';

type Listing = ChannelOutput<'library.list'>;

/** How the list is narrowed. */
export interface ListFilter {
  query: string;
  status: 'all' | 'errors' | 'warnings' | 'clean';
  root: string | 'all';
  /** Only skills whose suggested profiles include this one. */
  profile: ProfileId | 'all';
  sort: 'name' | 'path' | 'status';
}

/** The library: roots, skills with their status, library-wide findings, and the list's filter. */
export interface LibraryState {
  state: 'idle' | 'loading' | 'ready';
  roots: string[];
  skills: SkillSummary[];
  findings: Listing['findings'];
  budget: Listing['budget'] | null;
  problems: Listing['problems'];
  profiles: ProfileId[];
  filter: ListFilter;
  /** The last problem to show the user, in plain words. */
  error: ApiError | null;
  /** A short confirmation ("Saved"). */
  notice: string | null;
  load: () => Promise<void>;
  refresh: () => Promise<void>;
  openLibrary: (path: string) => Promise<boolean>;
  closeRoot: (root: string) => Promise<void>;
  setProfiles: (profiles: ProfileId[]) => Promise<void>;
  createSkill: (input: ChannelInput<'skill.create'>) => Promise<string | null>;
  setFilter: (patch: Partial<ListFilter>) => void;
  /** Update one row after its file was saved, without listing the whole library again. */
  updateSkill: (
    path: string,
    patch: Partial<Pick<SkillSummary, 'name' | 'description' | 'counts'>>,
  ) => void;
  showError: (error: ApiError | null) => void;
  showNotice: (notice: string | null) => void;
}

/** The library store. Components read it; only its actions call the API. */
export const useLibraryStore = create<LibraryState>((set, get) => ({
  state: 'idle',
  roots: [],
  skills: [],
  findings: [],
  budget: null,
  problems: [],
  profiles: ['agentskills'],
  filter: { query: '', status: 'all', root: 'all', profile: 'all', sort: 'name' },
  error: null,
  notice: null,

  async load() {
    set({ state: 'loading' });
    // Why in parallel: the list is what the window waits for; settings must not delay it.
    const [settings] = await Promise.all([api['settings.get']({}), get().refresh()]);
    if (settings.ok) set({ profiles: settings.value.profiles });
  },

  async refresh() {
    const result = await api['library.list']({});
    if (!result.ok) {
      set({ error: result.error, state: 'ready' });
      return;
    }
    const { roots, skills, findings, budget, problems } = result.value;
    set({ roots, skills, findings, budget, problems, state: 'ready' });
  },

  async openLibrary(path) {
    if (path.trim() === '') {
      set({
        error: {
          code: 'invalid-input',
          message: 'Type the path of a folder, or pick one with Browse.',
        },
      });
      return false;
    }
    const result = await api['library.open']({ path });
    if (!result.ok) {
      set({ error: result.error });
      return false;
    }
    set({
      error: null,
      notice:
        result.value.skills.length === 0
          ? `No SKILL.md was found under ${result.value.root}.`
          : null,
    });
    await get().refresh();
    return true;
  },

  async closeRoot(root) {
    await api['library.close']({ root });
    await get().refresh();
  },

  async setProfiles(profiles) {
    if (profiles.length === 0) return;
    set({ profiles });
    const result = await api['settings.update']({ profiles });
    if (!result.ok) set({ error: result.error });
    await get().refresh();
  },

  async createSkill(input) {
    const result = await api['skill.create'](input);
    if (!result.ok) {
      set({ error: result.error });
      return null;
    }
    await get().refresh();
    return result.value.path;
  },

  setFilter(patch) {
    set({ filter: { ...get().filter, ...patch } });
  },

  updateSkill(path, patch) {
    const skills = get().skills;
    if (!skills.some((s) => s.path === path)) return;
    set({ skills: skills.map((s) => (s.path === path ? { ...s, ...patch } : s)) });
  },

  showError(error) {
    set({ error });
  },

  showNotice(notice) {
    set({ notice });
  },
}));

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
