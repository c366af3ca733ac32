/**
 * JSON-RPC framing shared by our two transports (stdio lines and HTTP bodies): turning bytes
 * into messages, and the error answers for bytes that are not a message (JSON-RPC 2.0 §5.1:
 * -32700 for text that is not JSON, -32600 for JSON that is not a request, both with id null
 * when no id could be read). Messages are for people; the technical detail goes in `data`.
 */
import { z } from 'zod';
import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResultResponse,
  RequestId,
} from '@modelcontextprotocol/server';
import { isJsonObject } from '../../shared/json/values';

/** JSON-RPC 2.0 §5.1 codes, and the -32000 our HTTP host answers refusals with before MCP is spoken. */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Implementation-defined (JSON-RPC 2.0 §5.1 server errors); MCP 2026-07-28 keeps -32000…-32019 for these. */
  ConnectionClosed: -32000,
} as const;

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

const Id = z.union([z.string(), z.number().int()]);
const Params = z.record(z.string(), z.unknown());
/**
 * One JSON-RPC 2.0 message (§4 request and notification, §5 response). Our own check, since the
 * transports are ours: the SDK checks the shape of each method's parameters later.
 */
const MessageSchema = z.union([
  z.looseObject({
    jsonrpc: z.literal('2.0'),
    id: Id,
    method: z.string(),
    params: Params.optional(),
  }),
  z.looseObject({ jsonrpc: z.literal('2.0'), method: z.string(), params: Params.optional() }),
  z.looseObject({ jsonrpc: z.literal('2.0'), id: Id, result: Params }),
  z.looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([Id, z.null()]).optional(),
    error: z.looseObject({ code: z.number().int(), message: z.string(), data: z.unknown() }),
  }),
]);

function readableId(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * The common case, a request or notification with object `params` (or none), told without the
 * validator: each request would otherwise pay for a copy of every field. Anything this accepts,
 * MessageSchema accepts too (its notification shape takes any such object, id or not); anything
 * else goes to MessageSchema, which decides and words the refusal.
 */
function isPlainCall(item: unknown): boolean {
  return (
    isJsonObject(item) &&
    item.jsonrpc === '2.0' &&
    typeof item.method === 'string' &&
    (item.params === undefined || isJsonObject(item.params))
  );
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
        RpcCode.ParseError,
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
        RpcCode.InvalidRequest,
        maxBatch === 0
          ? 'Send one message at a time, not a JSON array of messages.'
          : `A batch must hold from 1 to ${maxBatch} messages; this one holds ${items.length}.`,
      ),
    };
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    if (isPlainCall(item)) {
      messages.push(item as JSONRPCMessage);
      continue;
    }
    const parsed = MessageSchema.safeParse(item);
    if (!parsed.success)
      return {
        ok: false,
        error: errorResponse(
          readableId(item),
          RpcCode.InvalidRequest,
          'The message is JSON but not a JSON-RPC 2.0 request, notification or response, so it was ignored.',
          parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        ),
      };
    // The values are the parsed JSON itself (loose objects keep every field).
    messages.push(item as JSONRPCMessage);
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
