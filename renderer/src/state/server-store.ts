import { create } from 'zustand';
import type { ChannelOutput, EventPayload } from '../../../shared/ipc/contract';
import { api, onEvent } from '../platform/api';
import { useLibraryStore } from './library-store';

type Panel = ChannelOutput<'server.panel'>;

/** The embedded server panel's state; actions are the only callers of the server channels. */
export interface ServerState {
  panel: Panel | null;
  busy: boolean;
  load: () => Promise<void>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
  regenerateToken: () => Promise<void>;
  /** Subscribe to live updates; returns the unsubscribe function. */
  follow: () => () => void;
}

const LOG_LIMIT = 300;

/** The server store. */
export const useServerStore = create<ServerState>((set, get) => {
  async function call(
    action: () => Promise<
      { ok: true; value: Panel } | { ok: false; error: { code: string; message: string } }
    >,
  ) {
    set({ busy: true });
    const result = await action();
    set({ busy: false });
    if (result.ok) set({ panel: result.value });
    else useLibraryStore.getState().showError(result.error);
  }
  return {
    panel: null,
    busy: false,
    load: () => call(() => api['server.panel']({})),
    start: () => call(() => api['server.start']({})),
    stop: () => call(() => api['server.stop']({})),
    regenerateToken: () => call(() => api['server.regenerateToken']({})),
    follow() {
      const offChanged = onEvent('server.changed', () => void get().load());
      const offRequested = onEvent(
        'server.requested',
        (entry: EventPayload<'server.requested'>) => {
          const panel = get().panel;
          if (panel)
            set({ panel: { ...panel, requests: [...panel.requests, entry].slice(-LOG_LIMIT) } });
        },
      );
      return () => {
        offChanged();
        offRequested();
      };
    },
  };
});
