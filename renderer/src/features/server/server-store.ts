import { create } from 'zustand';
import type {
  AddToClientOutcome,
  ApiClient,
  ChannelOutput,
  EventPayload,
  McpClientId,
  Result,
} from '../../../../shared/ipc/contract';
import type { Notices } from '../../app/state/notices-store';

type Panel = ChannelOutput<'server.panel'>;

/** What the server store needs from outside. */
export interface ServerDeps {
  api: ApiClient;
  notices: Notices;
}

/** The embedded server panel's state; actions are the only callers of the server channels. */
export interface ServerState {
  panel: Panel | null;
  /** True while a call is on its way (the buttons wait for it). */
  busy: boolean;
  load: () => Promise<void>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
  regenerateToken: () => Promise<void>;
  /** Write the stdio setup into a client's own config file; what happened (undefined after an error notice). */
  addToClient: (client: McpClientId, replace?: boolean) => Promise<AddToClientOutcome | undefined>;
  /** The server's state, catalog or token changed: show it again if the panel was shown. */
  serverChanged: () => Promise<void>;
  /** The server answered a request: add it to the log. */
  requestLogged: (entry: EventPayload<'server.requested'>) => void;
}

/** How many requests the panel keeps. */
export const REQUEST_LIMIT = 300;

/** Make a server store. */
export function createServerStore({ api, notices }: ServerDeps) {
  // Why counters: calls overlap (a click and an event); an answer older than the one shown is
  // dropped, and the buttons stay disabled until the last call is back.
  let issued = 0;
  let shown = 0;
  let pending = 0;
  return create<ServerState>()((set, get) => {
    async function call(action: () => Promise<Result<Panel>>) {
      const mine = ++issued;
      pending += 1;
      set({ busy: true });
      const result = await action();
      pending -= 1;
      set({ busy: pending > 0 });
      if (!result.ok) notices.showError(result.error);
      else if (mine > shown) {
        shown = mine;
        set({ panel: result.value });
      }
    }
    return {
      panel: null,
      busy: false,
      load: () => call(() => api['server.panel']({})),
      start: () => call(() => api['server.start']({})),
      stop: () => call(() => api['server.stop']({})),
      regenerateToken: () => call(() => api['server.regenerateToken']({})),
      async addToClient(client, replace) {
        const result = await api['server.addToClient']({ client, ...(replace ? { replace } : {}) });
        if (!result.ok) {
          notices.showError(result.error);
          return undefined;
        }
        return result.value;
      },
      async serverChanged() {
        if (get().panel) await get().load();
      },
      requestLogged(entry) {
        const panel = get().panel;
        if (panel)
          set({ panel: { ...panel, requests: [...panel.requests, entry].slice(-REQUEST_LIMIT) } });
      },
    };
  });
}
