import { useEditorStore } from '../features/editor/stores';
import { useLibraryStore } from '../features/library/stores';
import { api } from '../platform/api';
import { createAppStore } from './app-store';
import { useNoticesStore, useSettingsStore } from './state/stores';

/** The window's app store. */
export const useAppStore = createAppStore({
  api,
  notices: useNoticesStore.getState(),
  settings: useSettingsStore.getState,
  library: useLibraryStore.getState,
  editor: useEditorStore.getState,
});
