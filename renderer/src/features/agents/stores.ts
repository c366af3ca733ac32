import { useNoticesStore } from '../../app/state/stores';
import { api } from '../../platform/api';
import { createAgentsStore } from './agents-store';

/** The window's Agents view and install dialog state. */
export const useAgentsStore = createAgentsStore({ api, notices: useNoticesStore.getState() });
