import { useNoticesStore, useSettingsStore } from '../../app/state/stores';
import { api } from '../../platform/api';
import { useLibraryStore } from '../library/stores';
import { editorBridge } from './editor-bridge';
import { createEditorStore } from './editor-store';
import { createFilesStore } from './files-store';

/** The window's editor: the open document. */
export const useEditorStore = createEditorStore({
  api,
  notices: useNoticesStore.getState(),
  extraProfiles: () => useSettingsStore.getState().extraProfiles,
  rememberOpenSkill: (path) => useSettingsStore.getState().rememberOpenSkill(path),
  bridge: editorBridge,
  // Why here and in this direction only: the editor tells the list about a saved skill; the list
  // never reaches into the editor (the app shell hands it what to open).
  onSkillChecked: (path, patch) => useLibraryStore.getState().updateSkill(path, patch),
  onSafetyChanged: () => void useLibraryStore.getState().loadSafety(),
  onSkillMoved: () => void useLibraryStore.getState().refresh(),
});

/** The window's file tree of the open skill. */
export const useFilesStore = createFilesStore({
  api,
  notices: useNoticesStore.getState(),
  // Why: the open skill's links and named files are checked against its files.
  onChanged: () => void useEditorStore.getState().folderChanged(),
});
