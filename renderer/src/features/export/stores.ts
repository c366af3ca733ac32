import { api } from '../../platform/api';
import { useLibraryStore } from '../library/stores';
import { createExportStore } from './export-store';

/** The window's export dialog state. */
export const useExportStore = createExportStore({
  api,
  onLibraryChanged: () => void useLibraryStore.getState().refresh(),
});
