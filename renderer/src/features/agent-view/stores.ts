import { useNoticesStore } from '../../app/state/stores';
import { api } from '../../platform/api';
import { createAgentViewStore } from './agent-view-store';

/** The window's "What the agent sees" state. */
export const useAgentViewStore = createAgentViewStore({ api, notices: useNoticesStore.getState() });
