/**
 * Protocol revision negotiation for the inspector's client (`@modelcontextprotocol/sdk` 1.32,
 * which speaks only the `initialize` handshake of 2025-11-25 and older).
 *
 * MCP 2026-07-28 has no handshake: every request carries its version and the client's
 * capabilities in `_meta`, and `server/discover` says which versions a server speaks. A client
 * that speaks both eras probes with `server/discover` first and falls back to `initialize`
 * on anything that is not a recognised modern answer (MCP 2026-07-28, versioning §"Backward
 * Compatibility"; transports §stdio "Backward Compatibility", §Streamable HTTP "Backward
 * Compatibility"). This transport does that under the SDK's client: when the client sends
 * `initialize`, the probe goes out instead; a modern server's answer is handed back to the
 * client as the answer to its `initialize` (so it knows the capabilities), and from then on
 * every message gets the per-request `_meta` and the handshake's leftovers are dropped. A
 * legacy server gets the client's own `initialize`, and everything passes through unchanged.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '../../shared/json/values';

/** The modern revisions the inspector speaks, newest first. */
export const MODERN_VERSIONS = ['2026-07-28'] as const;

/** The newest 2025-era revision, which the SDK's client asks for in `initialize`. */
export const LEGACY_VERSION = '2025-11-25';

/** The per-request `_meta` keys of MCP 2026-07-28 (basic §`_meta`, "Per-request protocol fields"). */
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** MCP 2026-07-28 UnsupportedProtocolVersionError (basic §"Error Codes"). */
const UNSUPPORTED_VERSION = -32022;

/** Options for {@link NegotiatingTransport}. */
export interface NegotiationOptions {
  clientInfo: { name: string; version: string };
  /** Longest wait for the probe's answer before the server is taken for a legacy one. */
  probeTimeoutMs: number;
  /**
   * Streamable HTTP: closing a request's response is its cancellation there (MCP 2026-07-28,
   * transports §Streamable HTTP "Cancellation"), so `notifications/cancelled` is not sent.
   */
  http: boolean;
}

type Json = Record<string, unknown>;

/** Wraps a transport with the probe-and-fallback negotiation described above. */
export class NegotiatingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** `modern` or `legacy` once the probe has been answered; undefined before. */
  era: 'modern' | 'legacy' | undefined;
  /** The revision in use once known: the modern one chosen, or the one `initialize` agreed. */
  protocolVersion: string | undefined;
  #probe: { id: string; settle: (answer: JSONRPCMessage | Error) => void } | undefined;
  #probes = 0;
  #capabilities: Json = {};

  constructor(
    readonly inner: Transport,
    private readonly options: NegotiationOptions,
  ) {
    inner.onmessage = (message, extra) => {
      const m = message as { id?: unknown };
      const probe = this.#probe;
      if (probe && m.id === probe.id && !('method' in message)) {
        probe.settle(message);
        return;
      }
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => {
      this.#probe?.settle(new Error('The connection closed during the version probe.'));
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    // The SDK's client reports the version of the answer it got to `initialize`; on a modern
    // server that answer was ours, so the version the server speaks is passed on instead.
    const actual = this.era === 'modern' ? (this.protocolVersion ?? version) : version;
    if (this.era !== 'modern') this.protocolVersion = version;
    this.inner.setProtocolVersion?.(actual);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as { id?: string | number; method?: string; params?: Json };
    if (this.era === undefined && m.method === 'initialize' && m.id !== undefined) {
      this.#capabilities = isJsonObject(m.params?.capabilities) ? m.params.capabilities : {};
      const discovered = await this.#discover(options);
      if (!discovered) {
        this.era = 'legacy';
        return this.inner.send(message, options);
      }
      this.era = 'modern';
      this.protocolVersion = discovered.version;
      const d = discovered.result;
      const serverInfo =
        (isJsonObject(d._meta) && isJsonObject(d._meta[SERVER_INFO])
          ? d._meta[SERVER_INFO]
          : undefined) ??
        (isJsonObject(d.serverInfo) ? d.serverInfo : { name: 'unknown', version: 'unknown' });
      // The client's `initialize` answered from the discovery: the capabilities it needs, and a
      // version it knows (it accepts only 2025-era ones); setProtocolVersion corrects the latter.
      this.onmessage?.({
        jsonrpc: '2.0',
        id: m.id,
        result: {
          protocolVersion: LEGACY_VERSION,
          capabilities: isJsonObject(d.capabilities) ? d.capabilities : {},
          serverInfo,
          ...(typeof d.instructions === 'string' ? { instructions: d.instructions } : {}),
        },
      });
      return;
    }
    if (this.era !== 'modern') return this.inner.send(message, options);
    // No handshake on the modern revision: nothing to acknowledge.
    if (m.method === 'notifications/initialized') return;
    if (this.options.http && m.method === 'notifications/cancelled') return;
    if (m.method === undefined) return this.inner.send(message, options);
    return this.inner.send(
      { ...message, params: { ...m.params, _meta: this.#meta(m.params?._meta) } },
      options,
    );
  }

  /** The per-request `_meta`: what the caller put there, plus the protocol fields. */
  #meta(own: unknown, version = this.protocolVersion ?? MODERN_VERSIONS[0]): Json {
    return {
      ...(isJsonObject(own) ? own : {}),
      [PROTOCOL_VERSION]: version,
      [CLIENT_CAPABILITIES]: this.#capabilities,
      [CLIENT_INFO]: this.options.clientInfo,
    };
  }

  /**
   * Ask the server which revisions it speaks; the chosen modern one and the discovery result,
   * or undefined for a legacy server (any answer that is not a recognised modern one).
   */
  async #discover(
    options: TransportSendOptions | undefined,
    version: string = MODERN_VERSIONS[0],
    again = true,
  ): Promise<{ version: string; result: Json } | undefined> {
    const answer = await this.#ask(version, options);
    if (answer instanceof Error) {
      // Why rethrow: an authorization request must reach the caller (it starts OAuth), not become a legacy guess.
      if (answer instanceof UnauthorizedError) throw answer;
      return undefined;
    }
    const a = answer as { result?: unknown; error?: { code?: unknown; data?: unknown } };
    if (isJsonObject(a.result)) {
      const offered = Array.isArray(a.result.supportedVersions) ? a.result.supportedVersions : [];
      const chosen = MODERN_VERSIONS.find((v) => offered.includes(v));
      return chosen ? { version: chosen, result: a.result } : undefined;
    }
    // A modern server that does not speak our version names the ones it does (versioning §"Protocol Version Negotiation").
    if (a.error?.code === UNSUPPORTED_VERSION && isJsonObject(a.error.data) && again) {
      const supported = Array.isArray(a.error.data.supported) ? a.error.data.supported : [];
      const chosen = MODERN_VERSIONS.find((v) => supported.includes(v));
      if (chosen) return this.#discover(options, chosen, false);
    }
    return undefined;
  }

  /** Send one probe and wait for its answer, an error, the connection's end, or the timeout. */
  #ask(
    version: string,
    options: TransportSendOptions | undefined,
  ): Promise<JSONRPCMessage | Error> {
    const id = `skillbench-discover-${++this.#probes}`;
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => settle(new Error('The server did not answer the version probe.')),
        this.options.probeTimeoutMs,
      );
      const settle = (answer: JSONRPCMessage | Error): void => {
        if (this.#probe?.id !== id) return;
        this.#probe = undefined;
        clearTimeout(timer);
        resolve(answer);
      };
      this.#probe = { id, settle };
      this.inner
        .send(
          {
            jsonrpc: '2.0',
            id,
            method: 'server/discover',
            params: { _meta: this.#meta(undefined, version) },
          },
          options,
        )
        .catch((e: unknown) => settle(e instanceof Error ? e : new Error(String(e))));
    });
  }
}

/** The value of a header that may carry any text (MCP 2026-07-28, transports §"Value Encoding"). */
export function headerValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value);
  const sentinel = value.startsWith('=?base64?') && value.endsWith('?=');
  return plain && !sentinel ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch that mirrors a modern request's method, name and version into the headers MCP
 * 2026-07-28 requires on every POST (transports §Streamable HTTP "Standard Request Headers":
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`); anything else goes out as it came.
 */
export function modernHeaders(base: Fetch): Fetch {
  return (url, init) => {
    if (typeof init?.body !== 'string' || (init.method ?? 'GET').toUpperCase() !== 'POST')
      return base(url, init);
    let message: { method?: unknown; params?: Json };
    try {
      message = JSON.parse(init.body) as typeof message;
    } catch {
      return base(url, init);
    }
    const version = isJsonObject(message.params?._meta)
      ? message.params._meta[PROTOCOL_VERSION]
      : undefined;
    if (typeof version !== 'string' || typeof message.method !== 'string') return base(url, init);
    const headers = new Headers(init.headers);
    headers.set('mcp-protocol-version', version);
    headers.set('mcp-method', message.method);
    const p = message.params ?? {};
    const name =
      message.method === 'resources/read'
        ? p.uri
        : message.method === 'tools/call' || message.method === 'prompts/get'
          ? p.name
          : undefined;
    if (typeof name === 'string') headers.set('mcp-name', headerValue(name));
    return base(url, { ...init, headers });
  };
}
