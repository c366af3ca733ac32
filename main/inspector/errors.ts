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

/** Turn anything thrown while talking to a server into an {@link InspectorError} with a plain sentence. */
export function toInspectorError(
  error: unknown,
  context: { target: string; timeoutMs?: number; signal?: AbortSignal },
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
  const code = causeCode(error);
  if (code === 'ECONNREFUSED')
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
