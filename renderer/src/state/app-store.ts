import { create } from 'zustand';
import type { ApiError, ChannelOutput } from '../../../shared/ipc/contract';
import { api } from '../platform/api';
import { useEditorStore } from './editor-store';
import { useLibraryStore } from './library-store';

type Info = ChannelOutput<'app.info'>;
type Listing = ChannelOutput<'fs.browse'>;

/** The window as a whole: which shell, suggested folders, the folder picker. */
export interface AppState {
  info: Info | null;
  suggestions: { label: string; path: string }[];
  /** Load everything the window shows at start, and reopen the last skill. */
  start: () => Promise<void>;
  /** The native folder dialog (Electron); returns false where there is none (the browser shell). */
  pickFolder: () => Promise<boolean>;
  /** List a folder's sub-folders for the browser shell's picker. */
  browse: (path: string) => Promise<{ ok: true; value: Listing } | { ok: false; error: ApiError }>;
}

/** The app store. */
export const useAppStore = create<AppState>((set) => ({
  info: null,
  suggestions: [],

  async start() {
    const [info, settings] = await Promise.all([
      api['app.info']({}),
      api['settings.get']({}),
      useLibraryStore.getState().load(),
    ]);
    if (info.ok) set({ info: info.value });
    await useEditorStore.getState().loadRecovered();
    const last = settings.ok ? settings.value.lastOpenSkill : null;
    if (last && useLibraryStore.getState().skills.some((s) => s.path === last))
      await useEditorStore.getState().open(last);
    const places = await api['library.suggestions']({});
    if (places.ok) set({ suggestions: places.value.places });
  },

  async pickFolder() {
    const result = await api['dialog.pickFolder']({});
    if (!result.ok) return false;
    if (result.value.path) await useLibraryStore.getState().openLibrary(result.value.path);
    return true;
  },

  browse: (path) => api['fs.browse']({ path }),
}));
