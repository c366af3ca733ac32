import { api } from '../../platform/api';
import { useLibraryStore } from '../library/stores';
import { createImportStore } from './import-store';

/** The window's import dialog state. */
export const useImportStore = createImportStore({
  api,
  onLibraryChanged: () => useLibraryStore.getState().refresh(),
});
