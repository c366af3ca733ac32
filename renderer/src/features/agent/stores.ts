import { useNoticesStore } from '../../app/state/stores';
import { api } from '../../platform/api';
import { createAgentStore } from './agent-store';

/** The window's "What the agent sees" state. */
export const useAgentStore = createAgentStore({ api, notices: useNoticesStore.getState() });
