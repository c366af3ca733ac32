import { create } from 'zustand';
import type { ApiError, SkillSummary } from '../../../shared/ipc/contract';
import { api } from '../platform/api';

/** The open library and the skill being edited. Components read this; only its actions call the API. */
export interface LibraryState {
  root: string | null;
  skills: SkillSummary[];
  /** The last problem to show the user, in plain words. */
  error: ApiError | null;
  /** A short confirmation ("Saved"). */
  notice: string | null;
  openPath: string | null;
  /** The text as last read from or written to disk. */
  savedText: string;
  /** The text in the editor. */
  draft: string;
  version: string | null;
  editorState: 'empty' | 'loading' | 'ready' | 'saving';
  openLibrary: (path: string) => Promise<boolean>;
  openSkill: (path: string) => Promise<void>;
  setDraft: (text: string) => void;
  save: () => Promise<void>;
  dismissError: () => void;
}

/** The library store. */
export const useLibraryStore = create<LibraryState>((set, get) => ({
  root: null,
  skills: [],
  error: null,
  notice: null,
  openPath: null,
  savedText: '',
  draft: '',
  version: null,
  editorState: 'empty',

  async openLibrary(path) {
    if (path.trim() === '') {
      set({ error: { code: 'invalid-input', message: 'Type the path of a folder, or pick one with Browse.' } });
      return false;
    }
    const result = await api['library.open']({ path });
    if (!result.ok) {
      set({ error: result.error });
      return false;
    }
    set({
      root: result.value.root,
      skills: result.value.skills,
      error: null,
      notice: result.value.skills.length === 0 ? `No SKILL.md was found under ${result.value.root}.` : null,
      openPath: null,
      savedText: '',
      draft: '',
      version: null,
      editorState: 'empty',
    });
    return true;
  },

  async openSkill(path) {
    set({ editorState: 'loading', openPath: path, notice: null });
    const result = await api['skill.read']({ path });
    if (get().openPath !== path) return; // Why: a later click won the race.
    if (!result.ok) {
      set({ error: result.error, editorState: 'empty', openPath: null });
      return;
    }
    set({ savedText: result.value.text, draft: result.value.text, version: result.value.version, editorState: 'ready', error: null });
  },

  setDraft(text) {
    set({ draft: text, notice: null });
  },

  async save() {
    const { openPath, draft, version } = get();
    if (!openPath || get().editorState !== 'ready') return;
    set({ editorState: 'saving' });
    const result = await api['skill.save']({ path: openPath, text: draft, expectedVersion: version ?? undefined });
    if (!result.ok) {
      set({ error: result.error, editorState: 'ready' });
      return;
    }
    set({ savedText: draft, version: result.value.version, editorState: 'ready', notice: 'Saved', error: null });
  },

  dismissError() {
    set({ error: null });
  },
}));
