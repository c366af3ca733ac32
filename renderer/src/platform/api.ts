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

/** Which shell the UI runs in. The only place that knows (docs/architecture.md). */
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

/** Where the browser shell keeps its access token: this tab's session storage, our origin only. */
const TOKEN_KEY = 'skillbench.token';

/**
 * The browser shell's access token. The page is opened with `?token=…` (printed by `npm start`
 * or `skillbench web`); the token is kept in this tab's session storage (an origin includes the
 * port, so no other local page can read it) and dropped from the address bar. Why not a
 * cookie: a cookie for 127.0.0.1 goes to every port of 127.0.0.1, so any other local web page
 * the user visits would receive it.
 */
export function browserToken(
  location: { search: string; pathname: string; hash: string } = window.location,
  storage: Pick<Storage, 'getItem' | 'setItem'> = window.sessionStorage,
  replace: (url: string) => void = (url) => window.history.replaceState(null, '', url),
): string | null {
  const fromUrl = new URLSearchParams(location.search).get('token');
  if (fromUrl) {
    storage.setItem(TOKEN_KEY, fromUrl);
    replace(`${location.pathname}${location.hash}`);
    return fromUrl;
  }
  return storage.getItem(TOKEN_KEY);
}

/** The browser shell's client: JSON over HTTP to the host that served this page, the token in a header. */
export function httpClient(
  fetchImpl: typeof fetch = (...args) => fetch(...args),
  token: () => string | null = () => null,
): ApiClient {
  async function call(name: ChannelName, input: unknown): Promise<unknown> {
    let response: Response;
    try {
      const bearer = token();
      response = await fetchImpl(`/api/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
        },
        credentials: 'omit',
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
            'This page has no access token. Open the full address printed by `npm start` or `skillbench web` (it ends with ?token=…).',
        },
      };
    }
    return response.json();
  }
  return Object.fromEntries(
    CHANNEL_NAMES.map((name) => [name, (input: unknown) => call(name, input)]),
  ) as unknown as ApiClient;
}

/** The token of this tab, read once (it is then gone from the address bar). */
const token: string | null = bridge || typeof window === 'undefined' ? null : browserToken();

/** The typed API: one async function per contract channel, always resolving to a Result. */
export const api: ApiClient = settled(bridge?.api ?? httpClient(undefined, () => token));

/** One parsed Server-Sent Events frame. */
export interface EventFrame {
  event: string;
  data: string;
}

/**
 * Split a Server-Sent Events stream into frames as chunks arrive (the `event:` and `data:`
 * fields; comments and other fields ignored). Returns the frames complete so far and keeps the
 * rest for the next chunk.
 */
export function eventFrames(): (chunk: string) => EventFrame[] {
  let buffer = '';
  return (chunk) => {
    buffer += chunk.replace(/\r\n?/g, '\n');
    const frames: EventFrame[] = [];
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) frames.push({ event, data: data.join('\n') });
    }
    return frames;
  };
}

type AnyListener = (payload: unknown) => void;
const listeners = new Map<string, Set<AnyListener>>();
let streaming = false;

/**
 * The browser shell's event stream: `fetch` of /api/events with the token in a header (an
 * EventSource cannot send one), read frame by frame, opened again after a pause when it ends.
 */
async function streamEvents(): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch('/api/events', {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        credentials: 'omit',
      });
      if (response.ok && response.body) {
        attempt = 0;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        const split = eventFrames();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const frame of split(value))
            for (const listener of listeners.get(frame.event) ?? [])
              listener(JSON.parse(frame.data) as unknown);
        }
      }
    } catch {
      // Why keep going: the host restarting or a network hiccup must not end live updates.
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 500 * 2 ** attempt)));
  }
}

/** Subscribe to a main-process event. Returns the unsubscribe function. */
export const onEvent: Subscribe = (event, listener) => {
  if (bridge) return bridge.on(event, (payload) => listener(payload as EventPayload<typeof event>));
  const set = listeners.get(event) ?? new Set<AnyListener>();
  listeners.set(event, set);
  const wrapped: AnyListener = (payload) => listener(payload as EventPayload<typeof event>);
  set.add(wrapped);
  if (!streaming) {
    streaming = true;
    void streamEvents();
  }
  return () => set.delete(wrapped);
};
