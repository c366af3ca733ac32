/**
 * One HTTP session's side of the Streamable HTTP transport (MCP 2025-11-25, transports
 * §Streamable HTTP), answering POSTed requests with `application/json` and sending the
 * server's own notifications on the session's GET event stream. Only 2025-11-25 (and older)
 * clients have sessions; 2026-07-28 requests are answered one by one by the host.
 *
 * Why not the SDK's `StreamableHTTPServerTransport`: in JSON-response mode SDK 1.32 keeps an
 * entry per answered POST (holding the whole answer) until the session closes, so one session
 * reading a large file in a loop grows without bound; its Node adapter also converts every
 * exchange to a fetch `Request`/`Response` pair. Here an exchange lives in {@link pending} only
 * until its answer is written, answers are written straight to the Node response, and the event
 * stream is bounded: a client that stops reading it is disconnected instead of buffered for.
 */
import type { ServerResponse } from 'node:http';
import type {
  JSONRPCMessage,
  RequestId,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { errorResponse, isAnswer, isRequest, RpcCode } from './jsonrpc';

/** Limits of one session's transport. */
export interface SessionTransportLimits {
  /** Bytes the event stream may hold for a client that does not read it; past this it is closed. */
  maxStreamBufferBytes: number;
  /** Interval of `: keep-alive` comments on the event stream, so a quiet stream is not idle. */
  keepAliveMs: number;
  /** Called when the event stream is closed because its client did not read it. */
  onStreamDropped?: () => void;
}

/** One POST waiting for the answers to its requests. */
interface Exchange {
  res: ServerResponse;
  batch: boolean;
  waiting: Set<RequestId>;
  answers: JSONRPCMessage[];
}

/** Write a JSON body with its length; the caller decides the status. */
export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** The transport of one HTTP session; the host routes its POSTs and GET here. */
export class HttpSessionTransport implements Transport {
  readonly sessionId: string;
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  readonly #limits: SessionTransportLimits;
  /** Request id → the exchange that waits for its answer. Empty whenever nothing is being answered. */
  readonly #pending = new Map<RequestId, Exchange>();
  #stream: { res: ServerResponse; timer: NodeJS.Timeout } | undefined;
  #closed = false;

  constructor(sessionId: string, limits: SessionTransportLimits) {
    this.sessionId = sessionId;
    this.#limits = limits;
  }

  /** Requests waiting for an answer (for the host's limits and for tests). */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Whether the GET event stream is open. */
  get hasEventStream(): boolean {
    return this.#stream !== undefined;
  }

  async start(): Promise<void> {}

  /**
   * Deliver the messages of one POST. Requests are answered on `res` as one JSON body (an array
   * for a batch); a POST of notifications or answers only gets 202 (transports §sending messages).
   */
  post(messages: JSONRPCMessage[], batch: boolean, res: ServerResponse): void {
    const ids = messages.filter(isRequest).map((m) => m.id);
    if (ids.length === 0) {
      for (const m of messages) {
        this.onmessage?.(m);
        this.#cancelled(m);
      }
      res.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
      return;
    }
    const clash = ids.find((id, i) => this.#pending.has(id) || ids.indexOf(id) !== i);
    if (clash !== undefined) {
      writeJson(
        res,
        400,
        errorResponse(
          clash,
          RpcCode.InvalidRequest,
          `Another request with the id ${JSON.stringify(clash)} is still being answered in this session. Use a new id for each request.`,
        ),
        { 'mcp-session-id': this.sessionId },
      );
      return;
    }
    const exchange: Exchange = { res, batch, waiting: new Set(ids), answers: [] };
    for (const id of ids) this.#pending.set(id, exchange);
    // A client that hangs up before its answer: forget the exchange so nothing waits for it.
    res.once('close', () => {
      for (const id of exchange.waiting) this.#pending.delete(id);
      exchange.waiting.clear();
    });
    for (const m of messages) {
      this.onmessage?.(m);
      this.#cancelled(m);
    }
  }

  /**
   * A request the client cancels is never answered by the server (MCP cancellation: "SHOULD NOT
   * send a response"), so its exchange would wait until the connection times out, holding a
   * request slot. Drop it from its exchange; an exchange left with nothing to say ends with 202,
   * which the SDK clients read as "no answer to read".
   */
  #cancelled(m: JSONRPCMessage): void {
    if (!('method' in m) || m.method !== 'notifications/cancelled') return;
    const id = (m.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const exchange = this.#pending.get(id);
    if (!exchange) return;
    this.#pending.delete(id);
    exchange.waiting.delete(id);
    if (exchange.waiting.size > 0) return;
    if (exchange.answers.length > 0) this.#answer(exchange);
    else if (!exchange.res.headersSent)
      exchange.res.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
  }

  #answer(exchange: Exchange): void {
    writeJson(exchange.res, 200, exchange.batch ? exchange.answers : exchange.answers[0], {
      'mcp-session-id': this.sessionId,
    });
  }

  /** Attach the session's GET event stream; false when one is already open (one per session). */
  openEventStream(res: ServerResponse): boolean {
    if (this.#stream || this.#closed) return false;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'mcp-session-id': this.sessionId,
    });
    res.flushHeaders();
    const timer = setInterval(
      () => this.#streamWrite(': keep-alive\n\n'),
      this.#limits.keepAliveMs,
    );
    timer.unref();
    const stream = { res, timer };
    this.#stream = stream;
    res.once('close', () => {
      clearInterval(timer);
      if (this.#stream === stream) this.#stream = undefined;
    });
    return true;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return;
    if (isAnswer(message)) {
      const id = message.id;
      const exchange = id === undefined ? undefined : this.#pending.get(id);
      // No exchange: the client hung up or the session closed; there is no one to answer.
      if (!exchange || id === undefined) return;
      this.#pending.delete(id);
      exchange.waiting.delete(id);
      exchange.answers.push(message);
      if (exchange.waiting.size === 0) this.#answer(exchange);
      return;
    }
    // A JSON answer has no stream for messages tied to a request (progress, logs): they are dropped,
    // as the SDK's JSON-response mode does. The rest goes on the GET event stream when one is open.
    if (options?.relatedRequestId !== undefined) return;
    this.#streamWrite(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** End the session: the event stream closes and requests still waiting get 404. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const exchanges = new Set(this.#pending.values());
    this.#pending.clear();
    for (const ex of exchanges)
      writeJson(
        ex.res,
        404,
        errorResponse(
          null,
          RpcCode.ConnectionClosed,
          'This session has ended. Start a new one with initialize.',
        ),
      );
    if (this.#stream) {
      clearInterval(this.#stream.timer);
      this.#stream.res.end();
      this.#stream = undefined;
    }
    this.onclose?.();
  }

  #streamWrite(text: string): void {
    const stream = this.#stream;
    if (!stream) return;
    // Why: bounded buffers — a client that stops reading its stream must not make us keep every notification.
    if (stream.res.writableLength + text.length > this.#limits.maxStreamBufferBytes) {
      this.#stream = undefined;
      clearInterval(stream.timer);
      stream.res.destroy();
      this.#limits.onStreamDropped?.();
      return;
    }
    stream.res.write(text);
  }
}
