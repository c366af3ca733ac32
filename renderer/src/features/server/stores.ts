import { useNoticesStore } from '../../app/state/stores';
import { api } from '../../platform/api';
import { createServerStore } from './server-store';

/** The window's server panel state. */
export const useServerStore = createServerStore({ api, notices: useNoticesStore.getState() });
