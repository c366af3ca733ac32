import { api } from '../../platform/api';
import { createNoticesStore } from './notices-store';
import { createSettingsStore } from './settings-store';

/** The window's notices: the error banner and the status line. */
export const useNoticesStore = createNoticesStore();

/** The window's settings, remembered by main. */
export const useSettingsStore = createSettingsStore({
  api,
  notices: useNoticesStore.getState(),
});
