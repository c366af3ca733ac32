import { api } from '../../platform/api';
import { useLibraryStore } from '../library/stores';
import { createInspectorStore } from './inspector-store';

/** The window's inspector state. */
export const useInspectorStore = createInspectorStore({
  api,
  onLibraryChanged: () => useLibraryStore.getState().refresh(),
});
