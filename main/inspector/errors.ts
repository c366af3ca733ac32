/**
 * Errors for people (docs/conventions.md §7): every failure the inspector reports carries a plain
 * sentence and a stable code the CLI and screens can branch on.
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Stable codes of {@link InspectorError}. */
export type InspectorErrorCode =
  | 'usage'
  | 'connect'
  | 'timeout'
  | 'cancelled'
  | 'unauthorized'
  | 'not-connected'
  | 'refused-uri'
  | 'too-large'
  | 'budget'
  | 'protocol'
  | 'no-secret-box'
  | 'not-found'
  | 'conflict';

/** An error with a plain sentence and a code. */
export class InspectorError extends Error {
  constructor(
    readonly code: InspectorErrorCode,
    message: string,
    readonly detail?: string,
    /** The JSON-RPC error code, when the server answered with an error. */
    readonly rpc?: number,
  ) {
    super(message);
    this.name = 'InspectorError';
  }
}

/** The JSON-RPC error code of an MCP error, if it is one. */
export function rpcCode(error: unknown): number | undefined {
  if (error instanceof InspectorError) return error.rpc;
  if (error instanceof McpError) return error.code;
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'number'
  )
    return (error as { code: number }).code;
  return undefined;
}

function causeCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 5 && typeof e === 'object' && e !== null; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Error codes of a TLS handshake that failed (OpenSSL's ERR_SSL_*, certificate checks). */
const TLS_FAILURE = /^ERR_SSL_|^ERR_TLS_|CERT|^EPROTO$/;

/** What a server said in an HTTP error body: a JSON-RPC error's message, or short plain text. */
function bodyMessage(text: string): { text: string; rpc: boolean } {
  const trimmed = text.trim();
  try {
    const parsed = JSON.parse(trimmed) as { error?: { message?: unknown } };
    const m = parsed?.error?.message;
    return typeof m === 'string' ? { text: m.slice(0, 300), rpc: true } : { text: '', rpc: false };
  } catch {
    // Why not a web page: its markup says nothing a person can use here.
    return { text: trimmed.startsWith('<') ? '' : trimmed.slice(0, 300), rpc: false };
  }
}

/**
 * The plain sentence for an answer that is not MCP at all: an HTTP error status, a web page, JSON
 * that is not a JSON-RPC message, a redirect. Why: the SDK words these for its developers
 * ("Streamable HTTP error: Error POSTing to endpoint: …", or a validator's dump of issues), and
 * they mostly mean the address is not an MCP server's.
 */
function notMcpAnswer(
  error: unknown,
  httpStatus: number | undefined,
  context: { target: string; connecting?: boolean },
): string | undefined {
  const target = context.target;
  // Why only while connecting: afterwards the server has spoken MCP, so its address is right.
  const check = context.connecting
    ? ' Check the address: it must be the MCP endpoint itself (for skillbench serve, http://127.0.0.1:PORT/mcp).'
    : '';
  if (error instanceof Error && Array.isArray((error as { issues?: unknown }).issues))
    return `The server at ${target} answered with something that is not an MCP message.${check}`;
  if (!(error instanceof StreamableHTTPError || error instanceof SseError)) return undefined;
  const said = error.message.replace(/^(Streamable HTTP|SSE) error: /, '');
  const type = /^Unexpected content type: (.*)$/.exec(said);
  if (type)
    return `The server at ${target} answered with ${type[1] === 'text/html' ? 'a web page' : `"${type[1] ?? ''}"`}, not with MCP.${check}`;
  const redirect = /Redirect to (\S+) not followed/.exec(said);
  if (redirect)
    return `The server at ${target} sends you on to ${redirect[1] ?? 'another address'}, which is not followed. If you trust that address, inspect it instead.`;
  if (httpStatus === undefined || httpStatus < 400) return undefined;
  // Why apart: the SSE transport keeps no body, and a server of today refuses its opening GET.
  if (error instanceof SseError && httpStatus !== 401 && httpStatus !== 403)
    return `The server at ${target} refused the older HTTP+SSE transport (HTTP status ${httpStatus}). Most servers today, skillbench serve among them, speak Streamable HTTP: connect with that instead (without --sse on the command line).`;
  const body = bodyMessage(said.replace(/^[^:]*: /, ''));
  const status = `HTTP status ${httpStatus}${body.text ? ` ("${body.text}")` : ''}`;
  // Why apart: 501 (and 405) is a web server saying it takes no POST there; an MCP endpoint does.
  if (httpStatus === 501 || httpStatus === 405)
    return `The server at ${target} answered with ${status}: it does not take the POST requests MCP sends, so this is not an MCP endpoint.${check}`;
  if (httpStatus >= 500)
    return `The server at ${target} failed with ${status}. It may be broken or busy; try again later.`;
  // A JSON-RPC error is MCP: the server refused the request and said why.
  if (body.rpc)
    return `The server at ${target} refused the request with ${status}.${httpStatus === 404 ? check : ''}`;
  return `The server at ${target} answered with ${status}, not with MCP.${check}`;
}

/** Turn anything thrown while talking to a server into an {@link InspectorError} with a plain sentence. */
export function toInspectorError(
  error: unknown,
  context: {
    target: string;
    timeoutMs?: number;
    signal?: AbortSignal;
    /** True while connecting, when an answer that is not MCP most likely means a wrong address. */
    connecting?: boolean;
  },
): InspectorError {
  if (error instanceof InspectorError) return error;
  let raw = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  if (cause) raw = `${raw} (${cause.message})`;
  if (context.signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
    return new InspectorError('cancelled', 'Cancelled.', raw);
  }
  if (error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number)) {
    const s =
      context.timeoutMs !== undefined
        ? ` within ${Math.round(context.timeoutMs / 100) / 10} seconds`
        : '';
    return new InspectorError(
      'timeout',
      `The server at ${context.target} did not answer${s}. It may be slow, busy or stuck; try again or raise the timeout.`,
      raw,
    );
  }
  const httpStatus =
    error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
  // Why before the credentials sentence: a 403 that says why (our server's Host and Origin
  // checks) is not about the token, and saying so sent people to check a token that was right.
  if (httpStatus === 403 && error instanceof Error) {
    const said = bodyMessage(error.message.replace(/^.*?endpoint: /, ''));
    if (said.rpc && said.text)
      return new InspectorError(
        'unauthorized',
        `The server at ${context.target} refused the request with HTTP status 403 ("${said.text}").`,
        raw,
      );
  }
  if (
    error instanceof UnauthorizedError ||
    httpStatus === 401 ||
    httpStatus === 403 ||
    /\b401\b|unauthori[sz]ed/i.test(raw)
  ) {
    return new InspectorError(
      'unauthorized',
      `The server at ${context.target} refused the credentials (or asked for some). Check the token or sign in again.`,
      raw,
    );
  }
  const notMcp = notMcpAnswer(error, httpStatus, context);
  if (notMcp) return new InspectorError('connect', notMcp, raw);
  const code = causeCode(error);
  if (code !== undefined && /^https:/i.test(context.target) && TLS_FAILURE.test(code))
    return new InspectorError(
      'connect',
      /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/.test(code)
        ? `The server at ${context.target} does not answer secure (https) connections. If it serves plain http, as skillbench serve does, use the same address with http://.`
        : `A secure (https) connection to ${context.target} could not be made: its certificate is not trusted or does not match the address (${code}).`,
      raw,
    );
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return new InspectorError(
      'connect',
      `The server at ${context.target} dropped the connection without answering.`,
      raw,
    );
  // Why the text too: the SSE transport passes the cause on as text only.
  if (code === 'ECONNREFUSED' || (code === undefined && /\bECONNREFUSED\b/.test(raw)))
    return new InspectorError(
      'connect',
      `Nothing is listening at ${context.target}. Is the server running?`,
      raw,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new InspectorError(
      'connect',
      `The address ${context.target} could not be found. Check the host name.`,
      raw,
    );
  if (code === 'ENOENT')
    return new InspectorError(
      'connect',
      `The program for ${context.target} could not be started: it was not found.`,
      raw,
    );
  if (code === 'EACCES')
    return new InspectorError(
      'connect',
      `The program for ${context.target} could not be started: permission denied.`,
      raw,
    );
  // Why before the generic McpError: the SDK reports a dropped connection as error -32000, which
  // is no answer from the server at all.
  if (
    (error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number)) ||
    /^not connected$/i.test(raw)
  )
    return new InspectorError(
      'connect',
      `The server at ${context.target} closed the connection.`,
      raw,
    );
  if (error instanceof McpError)
    return new InspectorError(
      'protocol',
      `The server answered with an error (${error.code}): ${error.message.replace(/^MCP error -?\d+: /, '')}`,
      raw,
      error.code,
    );
  if (/connection closed/i.test(raw))
    return new InspectorError(
      'connect',
      `The server at ${context.target} closed the connection.`,
      raw,
    );
  if (/fetch failed/i.test(raw))
    return new InspectorError('connect', `Could not reach ${context.target}.`, raw);
  return new InspectorError('connect', `Talking to ${context.target} failed: ${raw}`, raw);
}
