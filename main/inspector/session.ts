/**
 * One client session with a remote skill server over `@modelcontextprotocol/sdk` 1.32:
 * Streamable HTTP (headers, bearer token, OAuth), legacy SSE, or stdio, on protocol 2026-07-28
 * when the server offers it and 2025-11-25 otherwise (./era.ts). Every request has a
 * timeout and an abort signal; every read is checked (scheme, size) and counted against the
 * per-server byte budget before its content goes anywhere (docs/skills-over-mcp.md §5).
 */
import { grouped } from '../../shared/text/words';
import { setMaxListeners } from 'node:events';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadResourceResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import {
  DIRECTORY_READ_METHOD,
  GetSkillResultSchema,
  ListSkillsResultSchema,
  ReadDirectoryResultSchema,
  SKILLS_EXTENSION_ID,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from '../../shared/sep';
import type { GetSkillResult, ListSkillsResult, ReadDirectoryResult } from '../../shared/sep';
import { modernHeaders, NegotiatingTransport } from './era';
import { boundedFetch } from './http-fetch';
import { InspectorError, toInspectorError } from './errors';
import { resolveLimits } from './limits';
import { LoopbackOAuthProvider } from './oauth';
import type { OAuthState, OpenBrowser } from './oauth';
import { LoggedTransport, ProtocolLog } from './protocol-log';
import { checkReadableUri } from './uris';
import type { ConnectionInput, ConnectionStatus, InspectorLimits } from './types';

/** The bytes of one resource read, decoded. */
export interface ResourceBytes {
  uri: string;
  bytes: Uint8Array;
  /** The text as served (when served as `text`). */
  text?: string;
  encoding: 'text' | 'blob';
  mimeType?: string;
  /** Every content item the server returned (normally one). */
  contentCount: number;
  /** URI the server put on the content item, when it differs from the one asked for. */
  servedUri?: string;
}

/** Options for {@link InspectorSession.open}. */
export interface SessionOptions {
  log?: ProtocolLog;
  limits?: Partial<InspectorLimits>;
  signal?: AbortSignal;
  /** Needed for OAuth: opens the consent page. Without it, servers that ask for OAuth fail with a plain message. */
  openBrowser?: OpenBrowser;
  oauthState?: OAuthState;
  onOAuthState?: (state: OAuthState) => void | Promise<void>;
  onStatus?: (status: ConnectionStatus) => void;
  /** Name and version we introduce ourselves with. */
  clientInfo?: { name: string; version: string };
}

/** Longest wait for the answer to the `server/discover` probe before a server counts as 2025-era. */
const PROBE_TIMEOUT_MS = 10_000;

/** The target as shown to people (never a secret). */
export function describeTarget(input: ConnectionInput): string {
  if (input.kind === 'stdio') return [input.command ?? '', ...(input.args ?? [])].join(' ').trim();
  return input.url ?? '';
}

function headerRecord(input: ConnectionInput): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of input.headers ?? []) {
    // Why: a header name with CR/LF or other non-token characters could split the request (RFC 9110 §5.1).
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h.name))
      throw new InspectorError('usage', `"${h.name}" is not a valid HTTP header name.`);
    if (/[\r\n\0]/.test(h.value))
      throw new InspectorError(
        'usage',
        `The value of header "${h.name}" contains a line break, which is not allowed.`,
      );
    headers[h.name] = h.value;
  }
  if (input.bearerToken) {
    // Why refused, not one chosen silently: the request can carry one Authorization header, and
    // the person would not know which credential the server saw.
    if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization'))
      throw new InspectorError(
        'usage',
        'Both an Authorization header and a bearer token were given, but a request carries only one. Remove the Authorization header or the token.',
      );
    headers.Authorization = `Bearer ${input.bearerToken}`;
  }
  return headers;
}

/** A server's web address, parsed; a usage error in words when it is not an http(s) address. */
export function checkHttpUrl(url: string | undefined): URL {
  let parsed: URL;
  try {
    parsed = new URL(url ?? '');
  } catch {
    throw new InspectorError(
      'usage',
      `"${url ?? ''}" is not a web address. Use http://… or https://….`,
    );
  }
  // Why: only http(s) — never file:, data: or others — may be fetched as a server address.
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new InspectorError('usage', `"${url}" is not an http:// or https:// address.`);
  // Why refuse: a user name or password in the address is never sent (fetch drops it), so the
  // server's refusal would blame credentials it never saw, and every message would show them.
  if (parsed.username !== '' || parsed.password !== '') {
    const shown = new URL(parsed.href);
    shown.username = '';
    shown.password = '';
    throw new InspectorError(
      'usage',
      `The address has a user name or password in it, which is never sent. Use ${shown.href} and give the credentials as a token or an "Authorization" header instead.`,
    );
  }
  return parsed;
}

/** What a stdio read buffer may hold past one whole message: the rest of the chunk it came in. */
const STDIO_CHUNK_SLACK = 1024 * 1024;

/** An event stream of a session cut off for an oversized event: the first such error, and who to tell. */
interface StreamCut {
  error?: InspectorError;
  handle?: (error: InspectorError) => void;
}

/** One connected session. Create with {@link InspectorSession.open}. */
export class InspectorSession {
  readonly limits: InspectorLimits;
  readonly log: ProtocolLog;
  private bytes = 0;
  private closed = false;
  /** Why the session closed by itself (its event stream was cut off), for the errors after. */
  private closedBecause: InspectorError | undefined;
  private abort = new AbortController();

  private constructor(
    readonly label: string,
    readonly input: ConnectionInput,
    readonly client: Client,
    private readonly transport: LoggedTransport,
    limits: InspectorLimits,
    log: ProtocolLog,
    readonly oauth: LoopbackOAuthProvider | undefined,
    streamCut: StreamCut,
  ) {
    this.limits = limits;
    this.log = log;
    // Why: every request in flight holds one abort listener on the session signal; many reads run at once.
    setMaxListeners(0, this.abort.signal);
    streamCut.handle = (error) => {
      this.closedBecause ??= error;
      void this.close();
    };
    if (streamCut.error) streamCut.handle(streamCut.error);
  }

  /** Connect (with OAuth when the server asks for it and `openBrowser` is given). */
  static async open(
    input: ConnectionInput,
    options: SessionOptions = {},
  ): Promise<InspectorSession> {
    const limits = resolveLimits(options.limits);
    const log = options.log ?? new ProtocolLog();
    const target = describeTarget(input);
    const status = (
      state: ConnectionStatus['state'],
      extra: Partial<ConnectionStatus> = {},
    ): void =>
      options.onStatus?.({
        label: input.label,
        state,
        kind: input.kind,
        target,
        skillsExtension: false,
        directoryRead: false,
        ...extra,
      });
    status('connecting');
    const wantsOAuth =
      (input.kind === 'http' || input.kind === 'sse') &&
      input.oauth !== false &&
      !input.bearerToken &&
      options.openBrowser !== undefined;
    const oauth =
      wantsOAuth && options.openBrowser
        ? new LoopbackOAuthProvider({
            openBrowser: options.openBrowser,
            state: options.oauthState,
            onStateChange: options.onOAuthState,
          })
        : undefined;
    const deadline = Date.now() + limits.connectTimeoutMs;
    const remaining = (): number => Math.max(1, deadline - Date.now());
    try {
      if (oauth) await oauth.start();
      let attempt = await InspectorSession.attempt(input, limits, log, oauth, options, remaining());
      if (attempt.unauthorized && oauth?.redirected) {
        status('authorizing');
        const code = await oauth.waitForCode(remaining(), options.signal);
        await attempt.finishAuth(code);
        attempt = await InspectorSession.attempt(input, limits, log, oauth, options, remaining());
      }
      if (attempt.error) {
        const e = toInspectorError(attempt.error, {
          target,
          timeoutMs: limits.connectTimeoutMs,
          signal: options.signal,
          connecting: true,
        });
        throw withProgramOutput(e, input, attempt.stderr ?? '');
      }
      const session = new InspectorSession(
        input.label,
        input,
        attempt.client,
        attempt.transport,
        limits,
        log,
        oauth,
        attempt.streamCut,
      );
      status('connected', session.statusExtra());
      return session;
    } catch (error) {
      await oauth?.stop();
      const e = toInspectorError(error, {
        target,
        timeoutMs: limits.connectTimeoutMs,
        signal: options.signal,
        connecting: true,
      });
      status('failed', { error: e.message });
      throw e;
    }
  }

  private static async attempt(
    input: ConnectionInput,
    limits: InspectorLimits,
    log: ProtocolLog,
    oauth: LoopbackOAuthProvider | undefined,
    options: SessionOptions,
    timeoutMs: number,
  ): Promise<{
    client: Client;
    transport: LoggedTransport;
    streamCut: StreamCut;
    unauthorized?: boolean;
    error?: unknown;
    /** The end of what a stdio program printed on stderr. */
    stderr?: string;
    finishAuth: (code: string) => Promise<void>;
  }> {
    // Why: a response carries at most one resource; base64 grows it by 4/3, plus JSON framing.
    const maxMessage = Math.ceil((limits.maxResourceBytes * 4) / 3) + 1024 * 1024;
    let inner: Transport;
    let finish: (code: string) => Promise<void> = async () => undefined;
    let stderr = '';
    // Why: an event stream cut off for an oversized event ends the connection with that reason,
    // at once (see boundedFetch's onStreamCut), rather than leaving requests to time out.
    const streamCut: StreamCut = {};
    let failConnect: (error: InspectorError) => void = () => undefined;
    const cutWhileConnecting = new Promise<never>((_, reject) => (failConnect = reject));
    cutWhileConnecting.catch(() => undefined);
    const onStreamCut = (error: InspectorError): void => {
      streamCut.error ??= error;
      failConnect(error);
      streamCut.handle?.(error);
    };
    if (input.kind === 'stdio') {
      if (!input.command)
        throw new InspectorError('usage', 'A stdio connection needs a command to start.');
      const env: Record<string, string> = {};
      for (const e of input.env ?? []) env[e.name] = e.value;
      // Why: the SDK merges only a safe default environment (PATH, HOME…) with `env`, so our own secrets never reach the child.
      inner = new StdioClientTransport({
        command: input.command,
        args: input.args ?? [],
        env,
        cwd: input.cwd,
        stderr: 'pipe',
        // Why: the SDK's default (10 MB) is smaller than one answer may be (a 16 MiB file, base64,
        // plus framing: `maxMessage`, the HTTP bound too). A longer line was cut in two, and an
        // honest server reading a large file out was called one that writes garbage.
        maxBufferSize: maxMessage + STDIO_CHUNK_SLACK,
      });
      // Why keep the end of stderr: when the program fails to start, what it printed there
      // ("Cannot find module …") is the only useful part of the error.
      const err = (inner as StdioClientTransport).stderr as Readable | null;
      if (err) {
        err.setEncoding('utf8');
        err.on('data', (chunk: string) => {
          stderr = (stderr + chunk).slice(-STDERR_KEPT);
        });
      }
    } else {
      const url = checkHttpUrl(input.url);
      const headers = headerRecord(input);
      const fetchFn = modernHeaders(boundedFetch(maxMessage, { onStreamCut }));
      if (input.kind === 'http') {
        const t = new StreamableHTTPClientTransport(url, {
          requestInit: { headers },
          authProvider: oauth,
          fetch: fetchFn,
        });
        finish = (code) => t.finishAuth(code);
        inner = t;
      } else {
        const t = new SSEClientTransport(url, {
          requestInit: { headers },
          authProvider: oauth,
          // Why no fetch of its own for the event source: the transport then opens its stream with
          // `fetch` above (the headers included), which bounds each event the stream carries.
          fetch: fetchFn,
        });
        finish = (code) => t.finishAuth(code);
        inner = t;
      }
    }
    const transport = new LoggedTransport(inner, log, input.label);
    const clientInfo = options.clientInfo ?? { name: 'skillbench-inspector', version: '0.1.0' };
    const client = new Client(clientInfo, { capabilities: {} });
    // Why not over SSE: that transport (2024-11-05) predates the modern revision; the others
    // probe for 2026-07-28 and fall back to 2025-11-25 (./era.ts).
    const wire: Transport =
      input.kind === 'sse'
        ? transport
        : new NegotiatingTransport(transport, {
            clientInfo,
            probeTimeoutMs: Math.min(timeoutMs, PROBE_TIMEOUT_MS),
            http: input.kind === 'http',
          });
    const signal = options.signal;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new InspectorError(
                'timeout',
                `The server at ${describeTarget(input)} did not finish connecting within ${Math.round(timeoutMs / 100) / 10} seconds.`,
              ),
            ),
          timeoutMs,
        );
      });
      const aborted = new Promise<never>((_, reject) => {
        if (signal?.aborted) reject(new InspectorError('cancelled', 'Cancelled.'));
        signal?.addEventListener(
          'abort',
          () => reject(new InspectorError('cancelled', 'Cancelled.')),
          { once: true },
        );
      });
      await Promise.race([
        client.connect(wire, { timeout: timeoutMs, signal }),
        timeout,
        aborted,
        cutWhileConnecting,
      ]);
      return { client, transport, streamCut, finishAuth: finish };
    } catch (error) {
      await client.close().catch(() => undefined);
      if (error instanceof UnauthorizedError && oauth?.redirected)
        return { client, transport, streamCut, unauthorized: true, finishAuth: finish };
      return { client, transport, streamCut, error, stderr, finishAuth: finish };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Capabilities, server info and the extension settings, for status events. */
  statusExtra(): Partial<ConnectionStatus> {
    const caps = (this.client.getServerCapabilities() ?? {}) as Record<string, unknown>;
    return {
      serverInfo: this.client.getServerVersion(),
      protocolVersion: this.transport.protocolVersion,
      capabilities: caps,
      skillsExtension: this.skillsCapability !== undefined,
      directoryRead: this.directoryRead,
    };
  }

  /** The connection's status now. */
  status(): ConnectionStatus {
    return {
      label: this.label,
      state: this.closed ? 'disconnected' : 'connected',
      kind: this.input.kind,
      target: describeTarget(this.input),
      skillsExtension: false,
      directoryRead: false,
      ...this.statusExtra(),
    };
  }

  /** The value declared under `extensions["io.modelcontextprotocol/skills"]`, or undefined. */
  get skillsCapability(): unknown {
    const caps = this.client.getServerCapabilities() as
      { extensions?: Record<string, unknown> } | undefined;
    return caps?.extensions?.[SKILLS_EXTENSION_ID];
  }

  /** True when the server declared `directoryRead: true` (SEP-2640 §2: only then may we call it). */
  get directoryRead(): boolean {
    const v = this.skillsCapability as { directoryRead?: unknown } | undefined;
    return v?.directoryRead === true;
  }

  /** Bytes of resource content read so far in this session. */
  get bytesRead(): number {
    return this.bytes;
  }

  /** Send one request with the session's timeout; errors become plain {@link InspectorError}s. */
  async request<S extends z.ZodType>(
    method: string,
    params: Record<string, unknown>,
    schema: S,
    signal?: AbortSignal,
  ): Promise<z.infer<S>> {
    if (this.closed)
      throw new InspectorError(
        'not-connected',
        this.closedBecause
          ? `The connection "${this.label}" was closed: ${this.closedBecause.message} Connect again.`
          : `The connection "${this.label}" is closed. Connect again.`,
      );
    // Why a controller per request: the SDK adds an abort listener to the signal it is given and
    // never removes it, so a long-lived session signal would collect one listener per request.
    const ac = new AbortController();
    const session = this.abort.signal;
    const onAbort = (): void => ac.abort();
    if (session.aborted || signal?.aborted) ac.abort();
    session.addEventListener('abort', onAbort, { once: true });
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.client.request({ method, params }, schema as never, {
        timeout: this.limits.requestTimeoutMs,
        signal: ac.signal,
      });
    } catch (error) {
      // Why: a request the session ended by closing itself fails with the reason, not "Cancelled.".
      if (this.closedBecause && session.aborted) throw this.closedBecause;
      throw toInspectorError(error, {
        target: describeTarget(this.input),
        timeoutMs: this.limits.requestTimeoutMs,
        signal: ac.signal,
      });
    } finally {
      session.removeEventListener('abort', onAbort);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** One page of `skills/list`. */
  listSkillsPage(cursor?: string, signal?: AbortSignal): Promise<ListSkillsResult> {
    return this.request(
      SKILLS_LIST_METHOD,
      cursor !== undefined ? { cursor } : {},
      ListSkillsResultSchema,
      signal,
    );
  }

  /** `skills/get` for a SKILL.md URI. */
  getSkill(uri: string, signal?: AbortSignal): Promise<GetSkillResult> {
    return this.request(SKILLS_GET_METHOD, { uri }, GetSkillResultSchema, signal);
  }

  /** One page of `resources/directory/read`; refused unless the server declared `directoryRead`. */
  readDirectoryPage(
    uri: string,
    cursor?: string,
    signal?: AbortSignal,
  ): Promise<ReadDirectoryResult> {
    // Why: SEP-2640 §4 — "Only call it when the server declared directoryRead: true".
    if (!this.directoryRead)
      throw new InspectorError(
        'protocol',
        'This server did not declare directoryRead, so its folders cannot be listed live.',
      );
    const check = checkReadableUri(uri);
    if (!check.ok) throw new InspectorError('refused-uri', check.reason);
    return this.request(
      DIRECTORY_READ_METHOD,
      cursor !== undefined ? { uri, cursor } : { uri },
      ReadDirectoryResultSchema,
      signal,
    );
  }

  /**
   * Read one resource, refusing `file:` and unsafe URIs before any request, and refusing content
   * beyond the per-resource and per-server bounds. `onBytes` hears the decoded size of what
   * arrived, also when it is then refused as too large (a caller's own count, safe under concurrency).
   */
  async readResource(
    uri: string,
    signal?: AbortSignal,
    onBytes?: (bytes: number) => void,
  ): Promise<ResourceBytes> {
    const check = checkReadableUri(uri);
    if (!check.ok) throw new InspectorError('refused-uri', check.reason);
    if (this.bytes >= this.limits.maxServerBytes) {
      throw new InspectorError(
        'budget',
        `Stopped reading: ${grouped(this.bytes)} bytes were already read from this server, the bound is ${grouped(this.limits.maxServerBytes)}.`,
      );
    }
    const result = await this.request('resources/read', { uri }, ReadResourceResultSchema, signal);
    const first = result.contents[0] as
      { uri?: string; text?: unknown; blob?: unknown; mimeType?: string } | undefined;
    if (!first) throw new InspectorError('protocol', `The server returned no content for ${uri}.`);
    let bytes: Uint8Array;
    let encoding: 'text' | 'blob';
    if (typeof first.text === 'string') {
      // Why: SEP-2640 §5 — text contents are hashed as their UTF-8 bytes.
      bytes = Buffer.from(first.text, 'utf8');
      encoding = 'text';
    } else if (typeof first.blob === 'string') {
      // Why: SEP-2640 §5 — blobs are hashed as the decoded bytes.
      bytes = Buffer.from(first.blob, 'base64');
      encoding = 'blob';
    } else
      throw new InspectorError('protocol', `The content for ${uri} has neither text nor blob.`);
    this.bytes += bytes.byteLength;
    onBytes?.(bytes.byteLength);
    if (bytes.byteLength > this.limits.maxResourceBytes) {
      throw new InspectorError(
        'too-large',
        `${uri} is ${grouped(bytes.byteLength)} bytes, more than the ${grouped(this.limits.maxResourceBytes)}-byte bound for one file; it was not used.`,
      );
    }
    return {
      uri,
      bytes,
      text: encoding === 'text' ? (first.text as string) : undefined,
      encoding,
      mimeType: first.mimeType,
      contentCount: result.contents.length,
      servedUri: first.uri !== undefined && first.uri !== uri ? first.uri : undefined,
    };
  }

  /** Abort everything in flight (requests fail with "Cancelled."). The session stays open. */
  cancelInFlight(): void {
    this.abort.abort();
    this.abort = new AbortController();
    setMaxListeners(0, this.abort.signal);
  }

  /** Close the connection (stops a stdio server we started). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    // Why: tell an HTTP server the session is over (DELETE, MCP Streamable HTTP) so it can free it now.
    const inner = this.transport.inner;
    if (inner instanceof StreamableHTTPClientTransport && inner.sessionId)
      await inner.terminateSession().catch(() => undefined);
    await this.client.close().catch(() => undefined);
    await this.oauth?.stop();
  }

  /** True after {@link close}. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** The wrapped transport (the report card announces its probes to it; tests read the log). */
  get wire(): LoggedTransport {
    return this.transport;
  }
}

/** How much of a stdio program's stderr is kept while connecting. */
const STDERR_KEPT = 8 * 1024;

/** The lines of stderr that say what went wrong (not stack frames), at most three. */
function telling(stderr: string): string[] {
  // eslint-disable-next-line no-control-regex -- colour codes are what is removed
  const lines = stderr.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').split(/\r?\n/);
  const kept = lines.map((l) => l.trim()).filter((l) => l !== '' && !/^at\s/.test(l));
  const errors = kept.filter((l) =>
    /error|cannot|can't|not found|no such|denied|fatal|exception|missing/i.test(l),
  );
  return (errors.length > 0 ? errors : kept.slice(-3)).slice(0, 3).map((l) => l.slice(0, 300));
}

/**
 * A failed start of a stdio program, told with what the program printed on stderr, and a hint
 * when the whole command line was put in Program (a name with spaces that was not found).
 */
function withProgramOutput(
  e: InspectorError,
  input: ConnectionInput,
  stderr: string,
): InspectorError {
  if (input.kind !== 'stdio' || e.code === 'cancelled') return e;
  let message = e.message;
  const said = telling(stderr);
  if (said.length > 0) message += ` The program said: ${said.join(' / ')}`;
  const command = (input.command ?? '').trim();
  if (
    /\s/.test(command) &&
    (input.args ?? []).length === 0 &&
    /not found|ENOENT/i.test(`${message} ${e.detail ?? ''}`)
  )
    message += ` Program holds "${command}": put only the program there (${command.split(/\s+/)[0]}) and the rest in Arguments.`;
  const detail = [e.detail, stderr.trim() ? `stderr:\n${stderr.trim()}` : '']
    .filter(Boolean)
    .join('\n');
  return new InspectorError(e.code, message, detail || undefined, e.rpc);
}
