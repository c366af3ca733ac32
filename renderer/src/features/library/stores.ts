import { useNoticesStore } from '../../app/state/stores';
import { api } from '../../platform/api';
import { createLibraryStore } from './library-store';

/** The window's library. */
export const useLibraryStore = createLibraryStore({ api, notices: useNoticesStore.getState() });
