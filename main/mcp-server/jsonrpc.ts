/**
 * JSON-RPC framing shared by our two transports (stdio lines and HTTP bodies): turning bytes
 * into messages, and the error answers for bytes that are not a message (JSON-RPC 2.0 §5.1:
 * -32700 for text that is not JSON, -32600 for JSON that is not a request, both with id null
 * when no id could be read). Messages are for people; the technical detail goes in `data`.
 */
import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResultResponse,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** The outcome of reading one message's text. */
export type Framed =
  | { ok: true; messages: JSONRPCMessage[]; batch: boolean }
  | { ok: false; error: JSONRPCErrorResponse };

/** An error answer; `id` is null when the request's id could not be read (JSON-RPC 2.0 §5). */
export function errorResponse(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): JSONRPCErrorResponse {
  return {
    jsonrpc: '2.0',
    // Why the cast: the SDK types `id` as RequestId, but JSON-RPC 2.0 §5 requires null when the id is unknown.
    id: id as RequestId,
    error: { code, message, ...(data !== undefined ? { data } : {}) },
  };
}

function readableId(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * Parse the text of one message (a stdio line or an HTTP body). A JSON array is a batch
 * (allowed by protocol revisions before 2025-06-18), at most `maxBatch` long; 0 refuses batches.
 */
export function frameMessages(text: string, maxBatch: number): Framed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      error: errorResponse(
        null,
        ErrorCode.ParseError,
        'The message is not valid JSON, so it was ignored.',
        e instanceof Error ? e.message : String(e),
      ),
    };
  }
  const batch = Array.isArray(value);
  const items: unknown[] = batch ? (value as unknown[]) : [value];
  if (batch && (items.length === 0 || items.length > maxBatch))
    return {
      ok: false,
      error: errorResponse(
        null,
        ErrorCode.InvalidRequest,
        maxBatch === 0
          ? 'Send one message at a time, not a JSON array of messages.'
          : `A batch must hold from 1 to ${maxBatch} messages; this one holds ${items.length}.`,
      ),
    };
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success)
      return {
        ok: false,
        error: errorResponse(
          readableId(item),
          ErrorCode.InvalidRequest,
          'The message is JSON but not a JSON-RPC 2.0 request, notification or response, so it was ignored.',
          parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        ),
      };
    messages.push(parsed.data);
  }
  return { ok: true, messages, batch };
}

/** Whether a message is a request (a method and an id); cheaper than the SDK's schema checks on every message. */
export function isRequest(m: JSONRPCMessage): m is JSONRPCRequest {
  return 'method' in m && 'id' in m;
}

/** Whether a message is an answer (a result or an error, no method). */
export function isAnswer(m: JSONRPCMessage): m is JSONRPCResultResponse | JSONRPCErrorResponse {
  return !('method' in m);
}
