import {
  apiErrorSchema,
  CHANNEL_NAMES,
  type ApiClient,
  type ApiError,
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

/** Subscribe to one main-process event; returns the unsubscribe function. */
export type Subscribe = <K extends EventName>(
  event: K,
  listener: (payload: EventPayload<K>) => void,
) => () => void;

const unreachable = {
  code: 'disconnected',
  message:
    'Skillbench’s background service is not answering. If you closed the terminal that runs it, start it again with `npm start`.',
};

/** The error every failure without a result of its own becomes: a plain sentence, the cause as detail. */
function internal(name: ChannelName, detail: string): { ok: false; error: ApiError } {
  return {
    ok: false,
    error: {
      code: 'internal',
      message:
        'Something went wrong inside Skillbench, so this did not finish. Try again; if it keeps happening, restart Skillbench.',
      detail: `${name}: ${detail}`,
    },
  };
}

/** Is `value` a Result as the contract defines it (the shape every store relies on)? */
function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  if (value.ok === true) return 'value' in value;
  return value.ok === false && 'error' in value && apiErrorSchema.safeParse(value.error).success;
}

/**
 * The same client, except that no call ever rejects: a thrown error, a rejected promise (Electron
 * rejects when a handler throws, since only the message crosses) or an answer that is not a Result
 * becomes `{ok: false, error: {code: 'internal'}}`, so a store's busy flags always come down.
 */
export function settled(client: ApiClient): ApiClient {
  return Object.fromEntries(
    CHANNEL_NAMES.map((name) => [
      name,
      async (input: unknown): Promise<Result<unknown>> => {
        try {
          const call = client[name] as (input: unknown) => Promise<unknown>;
          const result = await call(input);
          return isResult(result) ? result : internal(name, 'the answer was not a result');
        } catch (error) {
          return internal(name, error instanceof Error ? error.message : String(error));
        }
      },
    ]),
  ) as unknown as ApiClient;
}

/** The browser shell's client: JSON over HTTP to the host that served this page. */
export function httpClient(fetchImpl: typeof fetch = (...args) => fetch(...args)): ApiClient {
  async function call(name: ChannelName, input: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetchImpl(`/api/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify(input ?? {}),
      });
    } catch (error) {
      // Why its own code: no answer at all means the host is gone, which the user can fix.
      return { ok: false, error: { ...unreachable, detail: String(error) } };
    }
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
    return response.json();
  }
  return Object.fromEntries(
    CHANNEL_NAMES.map((name) => [name, (input: unknown) => call(name, input)]),
  ) as unknown as ApiClient;
}

/** The typed API: one async function per contract channel, always resolving to a Result. */
export const api: ApiClient = settled(bridge?.api ?? httpClient());

let eventSource: EventSource | undefined;

/** Subscribe to a main-process event. Returns the unsubscribe function. */
export const onEvent: Subscribe = (event, listener) => {
  if (bridge) return bridge.on(event, (payload) => listener(payload as EventPayload<typeof event>));
  eventSource ??= new EventSource('/api/events');
  const handler = (message: MessageEvent<string>) =>
    listener(JSON.parse(message.data) as EventPayload<typeof event>);
  eventSource.addEventListener(event, handler as EventListener);
  return () => eventSource?.removeEventListener(event, handler as EventListener);
};
