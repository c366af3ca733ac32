/**
 * Our stdio transport (MCP 2025-11-25 and 2026-07-28, transports §stdio: one JSON-RPC message
 * per line; the framing is the same in both). It replaces the SDK's because that one closes the connection without a word when a line
 * passes its buffer limit (the server then exits 0) and answers nothing to text that is not
 * JSON. Here a line is bounded and an oversized one is skipped up to its newline with an error
 * answer; text that is not a message gets -32700 or -32600 (JSON-RPC 2.0 §5.1); and at most
 * `maxInFlight` requests are answered at once, reading stops while stdout is backed up, so a
 * client that does not read cannot make us buffer without bound.
 */
import type { Readable, Writable } from 'node:stream';
import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  RequestId,
  Transport,
} from '@modelcontextprotocol/server';
import { errorResponse, frameMessages, isAnswer, isRequest, RpcCode } from './jsonrpc';
import { formatBytes, formatBytesAgainst } from '../../shared/text/bytes';

/** Options for {@link StdioLineTransport}. */
export interface StdioTransportOptions {
  /** Longest accepted line, in bytes. Default 4 MiB. */
  maxLineBytes?: number;
  /** Requests answered at once; further lines wait. Default 16. */
  maxInFlight?: number;
  /** A plain sentence for the operator (stderr) when input was refused. */
  onProblem?: (message: string) => void;
  /**
   * Checks a message before it is handed on; an error answer it returns is sent instead. Why
   * here: the SDK's serving entry owns the opening `initialize`, and answers parameters of the
   * wrong type there with -32603 and its validator's dump (SECURITY.md, "The embedded MCP
   * server" §6).
   */
  precheck?: (message: JSONRPCMessage) => JSONRPCErrorResponse | undefined;
}

/** The long-lived request of protocol 2026-07-28 that opens a notification stream. */
const LISTEN_METHOD = 'subscriptions/listen';

/** Default bound of one line: far above any MCP request a client sends, far below memory trouble. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

type Queued = { line: string } | { tooLarge: number };

/** Newline-delimited JSON-RPC over a pair of streams, bounded in line size and in answers pending. */
export class StdioLineTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  readonly #in: Readable;
  readonly #out: Writable;
  readonly #maxLine: number;
  readonly #maxInFlight: number;
  readonly #onProblem: (message: string) => void;
  readonly #precheck: StdioTransportOptions['precheck'];
  #resolveClosed: () => void = () => undefined;
  /** Resolves once the transport has closed (the client ended its side, or a stream failed). */
  readonly closed = new Promise<void>((resolve) => (this.#resolveClosed = resolve));
  #parts: Buffer[] = [];
  #size = 0;
  #discarding = 0;
  #queue: Queued[] = [];
  /** Requests handed to the server and not answered yet. */
  readonly #inFlight = new Set<RequestId>();
  #blocked = false;
  #paused = false;
  #ended = false;
  #closed = false;
  #corked = false;

  constructor(stdin: Readable, stdout: Writable, options: StdioTransportOptions = {}) {
    this.#in = stdin;
    this.#out = stdout;
    this.#maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#maxInFlight = options.maxInFlight ?? 16;
    this.#onProblem = options.onProblem ?? (() => undefined);
    this.#precheck = options.precheck;
  }

  async start(): Promise<void> {
    this.#in.on('data', this.#onData);
    this.#in.on('end', this.#onEnd);
    this.#in.on('close', this.#onEnd);
    this.#in.on('error', this.#onStreamError);
    this.#out.on('error', this.#onStreamError);
    this.#out.on('drain', this.#onDrain);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    if (isAnswer(message) && message.id !== undefined) this.#inFlight.delete(message.id);
    this.#write(message);
    this.#pump();
  }

  /**
   * Why corked until the current tick ends: answers to requests read in one chunk are built in the
   * same tick, and go out in one system call (writev) instead of one each; nothing waits longer
   * than that tick. Backpressure is unchanged: `write` still says when stdout's buffer is full.
   */
  #write(message: JSONRPCMessage): void {
    if (!this.#corked) {
      this.#corked = true;
      this.#out.cork();
      process.nextTick(this.#uncork);
    }
    if (!this.#out.write(`${JSON.stringify(message)}\n`)) this.#blocked = true;
  }

  readonly #uncork = (): void => {
    this.#corked = false;
    this.#out.uncork();
  };

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#in.off('data', this.#onData);
    this.#in.off('end', this.#onEnd);
    this.#in.off('close', this.#onEnd);
    this.#out.off('drain', this.#onDrain);
    // The error listeners stay: a late EPIPE on a closed pipe must not crash the process.
    this.#queue = [];
    this.#parts = [];
    this.onclose?.();
    this.#resolveClosed();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start <= buf.length) {
      const nl = buf.indexOf(10, start);
      const piece = buf.subarray(start, nl === -1 ? buf.length : nl);
      if (this.#discarding > 0) this.#discarding += piece.length;
      else if (this.#size + piece.length > this.#maxLine) {
        // Why skip instead of close: one bad line must not end the session (the SDK's transport closes here).
        this.#discarding = this.#size + piece.length;
        this.#parts = [];
        this.#size = 0;
      } else if (piece.length > 0) {
        this.#parts.push(piece);
        this.#size += piece.length;
      }
      if (nl === -1) break;
      if (this.#discarding > 0) {
        this.#queue.push({ tooLarge: this.#discarding });
        this.#discarding = 0;
      } else {
        this.#queue.push({ line: Buffer.concat(this.#parts, this.#size).toString('utf8') });
        this.#parts = [];
        this.#size = 0;
      }
      start = nl + 1;
    }
    this.#pump();
  };

  readonly #onDrain = (): void => {
    this.#blocked = false;
    this.#pump();
  };

  /** The client closed its side: answer what was already sent, then close. */
  readonly #onEnd = (): void => {
    this.#ended = true;
    this.#pump();
  };

  readonly #onStreamError = (error: Error): void => {
    if (this.#closed) return;
    this.onerror?.(error);
    void this.close();
  };

  /** Hand queued lines to the server while answers may be written; pause reading otherwise. */
  #pump(): void {
    while (
      !this.#closed &&
      this.#queue.length > 0 &&
      !this.#blocked &&
      this.#inFlight.size < this.#maxInFlight
    ) {
      const item = this.#queue.shift() as Queued;
      if ('tooLarge' in item) this.#refuseLarge(item.tooLarge);
      else this.#handleLine(item.line);
    }
    if (this.#ended && this.#queue.length === 0 && this.#inFlight.size === 0) {
      void this.close();
      return;
    }
    const wait = this.#queue.length > 0 || this.#blocked;
    if (wait && !this.#paused && !this.#closed) {
      this.#paused = true;
      this.#in.pause();
    } else if (!wait && this.#paused) {
      this.#paused = false;
      this.#in.resume();
    }
  }

  #refuseLarge(bytes: number): void {
    this.#onProblem(
      `ignored a message of ${formatBytesAgainst(bytes, this.#maxLine).join('; one line may hold at most ')}.`,
    );
    this.#write(
      errorResponse(
        null,
        RpcCode.InvalidRequest,
        `The message is larger than the ${formatBytes(this.#maxLine)} this server accepts on one line, so it was ignored.`,
        { limitBytes: this.#maxLine, receivedBytes: bytes },
      ),
    );
  }

  #handleLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const framed = frameMessages(line, 0);
    if (!framed.ok) {
      this.#onProblem(framed.error.error.message);
      this.#write(framed.error);
      return;
    }
    for (const message of framed.messages) {
      const refused = this.#precheck?.(message);
      if (refused) {
        this.#write(refused);
        continue;
      }
      // Why a listen request is not counted: its answer comes only when the subscription ends
      // (MCP 2026-07-28, subscriptions), so it would hold a place for ever and keep the process
      // from exiting when the client closes its side. The SDK bounds how many are open.
      if (isRequest(message) && message.method !== LISTEN_METHOD) this.#inFlight.add(message.id);
      // The server never answers a request it was told to cancel (MCP cancellation §behavior): free its place.
      else if ('method' in message && message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
        if (typeof id === 'string' || typeof id === 'number') this.#inFlight.delete(id);
      }
      this.onmessage?.(message);
    }
  }
}
