import {
  CHANNEL_NAMES,
  type ApiClient,
  type ChannelName,
  type EventName,
  type EventPayload,
  type Result,
} from '../../../shared/ipc/contract';

/** What the Electron preload exposes (see preload/index.ts). */
interface ElectronBridge {
  api: ApiClient;
  on(event: EventName, listener: (payload: unknown) => void): () => void;
}

declare global {
  interface Window {
    skillbench?: ElectronBridge;
  }
}

const bridge: ElectronBridge | undefined =
  typeof window !== 'undefined' ? window.skillbench : undefined;

/** Which shell the UI runs in. The only place that knows (ARCHITECTURE "Two shells"). */
export const shellKind: 'electron' | 'browser' = bridge ? 'electron' : 'browser';

const unreachable = {
  code: 'disconnected',
  message:
    'Skillbench’s background service is not answering. If you closed the terminal that runs it, start it again with `npm start`.',
};

async function callHttp(name: ChannelName, input: unknown): Promise<Result<unknown>> {
  try {
    const response = await fetch(`/api/${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(input ?? {}),
    });
    if (response.status === 401) {
      return {
        ok: false,
        error: {
          code: 'unauthorized',
          message:
            'This page lost its access token. Open the address printed by `npm start` again.',
        },
      };
    }
    return (await response.json()) as Result<unknown>;
  } catch (error) {
    return { ok: false, error: { ...unreachable, detail: String(error) } };
  }
}

function httpClient(): ApiClient {
  return Object.fromEntries(
    CHANNEL_NAMES.map((name) => [name, (input: unknown) => callHttp(name, input)]),
  ) as unknown as ApiClient;
}

/** The typed API: one async function per contract channel, returning results as data. */
export const api: ApiClient = bridge?.api ?? httpClient();

let eventSource: EventSource | undefined;

/** Subscribe to a main-process event. Returns the unsubscribe function. */
export function onEvent<K extends EventName>(
  event: K,
  listener: (payload: EventPayload<K>) => void,
): () => void {
  if (bridge) return bridge.on(event, (payload) => listener(payload as EventPayload<K>));
  eventSource ??= new EventSource('/api/events');
  const handler = (message: MessageEvent<string>) =>
    listener(JSON.parse(message.data) as EventPayload<K>);
  eventSource.addEventListener(event, handler as EventListener);
  return () => eventSource?.removeEventListener(event, handler as EventListener);
}
