/**
 * The protocol log: every JSON-RPC message in both directions with time,
 * size and — for responses — the time since the matching request. It wraps the transport, so
 * it sees exactly what went over the wire, including the initialize handshake.
 */
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { ProtocolLogEntry, ProtocolLogFilter } from './types';

/** Messages larger than this are kept as a preview (a 16 MiB blob would otherwise sit in memory twice). */
const MAX_KEPT_CHARS = 64 * 1024;

/**
 * The era negotiation's version probe: its id starts with this, and a legacy server answers it with
 * an error. Like the report card's probes (announced with `expectProbe`), it is logged as an
 * expected probe, not as a failure.
 */
const DISCOVER_ID_PREFIX = 'skillbench-discover-';

/** A bounded, filterable log of protocol messages shared by all sessions of a service. */
export class ProtocolLog {
  private entries: ProtocolLogEntry[] = [];
  private seq = 0;
  private readonly listeners = new Set<(entry: ProtocolLogEntry) => void>();

  /** `capacity` 0 turns the log off: nothing is kept, measured or announced (the CLI shows no log). */
  constructor(private readonly capacity = 5000) {}

  /**
   * Whether messages are recorded. Why the transport asks first: measuring a message means writing
   * it out as JSON again, a real share of the CPU of each read when nobody will look at the log.
   */
  get on(): boolean {
    return this.capacity > 0;
  }

  /** Record one message; returns the entry. */
  record(
    server: string,
    direction: 'out' | 'in',
    message: JSONRPCMessage,
    durationMs?: number,
    inReplyTo?: string,
    /** A deliberate probe or its answer (an error here is what the sender expects). */
    answersProbe = false,
  ): ProtocolLogEntry {
    const text = JSON.stringify(message);
    const m = message as {
      id?: string | number;
      method?: string;
      error?: unknown;
      result?: unknown;
    };
    const kind: ProtocolLogEntry['kind'] =
      m.method !== undefined
        ? m.id !== undefined
          ? 'request'
          : 'notification'
        : m.error !== undefined
          ? 'error'
          : 'response';
    const truncated = text.length > MAX_KEPT_CHARS;
    const entry: ProtocolLogEntry = {
      seq: ++this.seq,
      server,
      direction,
      time: Date.now(),
      kind,
      method: m.method,
      id: m.id,
      ...(inReplyTo !== undefined ? { inReplyTo } : {}),
      ...(answersProbe ? { expectedProbe: true } : {}),
      durationMs,
      bytes: Buffer.byteLength(text, 'utf8'),
      message: truncated ? { truncated: true, preview: text.slice(0, 2048) } : message,
      truncated,
    };
    this.entries.push(entry);
    // Trim in batches, so a full log does not shift the whole array on every message.
    if (this.entries.length > this.capacity + Math.ceil(this.capacity / 4))
      this.entries.splice(0, this.entries.length - this.capacity);
    for (const l of this.listeners) l(entry);
    return entry;
  }

  /** Call `listener` for every new entry; returns the unsubscribe function. */
  subscribe(listener: (entry: ProtocolLogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Entries matching the filter, oldest first. */
  query(filter: ProtocolLogFilter = {}): ProtocolLogEntry[] {
    const text = filter.text?.toLowerCase();
    const out = this.entries.filter((e) => {
      if (filter.server !== undefined && e.server !== filter.server) return false;
      if (filter.direction !== undefined && e.direction !== filter.direction) return false;
      if (filter.kind !== undefined && e.kind !== filter.kind) return false;
      if (filter.sinceSeq !== undefined && e.seq <= filter.sinceSeq) return false;
      if (filter.method !== undefined) {
        const method = e.method ?? '';
        if (
          filter.method.endsWith('/') ? !method.startsWith(filter.method) : method !== filter.method
        )
          return false;
      }
      if (text !== undefined && !JSON.stringify(e.message).toLowerCase().includes(text))
        return false;
      return true;
    });
    const kept = out.slice(-this.capacity);
    return filter.limit !== undefined ? kept.slice(-filter.limit) : kept;
  }

  /** The matching entries as a JSON document (pretty-printed). */
  exportJson(filter: ProtocolLogFilter = {}): string {
    return `${JSON.stringify({ exportedAt: new Date().toISOString(), entries: this.query(filter) }, null, 2)}\n`;
  }

  /** Forget every entry. */
  clear(): void {
    this.entries = [];
  }
}

/** Parse errors kept as samples of a server's unreadable output. */
const MAX_UNREADABLE_SAMPLES = 5;

/**
 * True for the errors a transport reports when the server sent something that is not a JSON-RPC
 * message: the SDK's stdio reader skips such a line and reports the JSON or schema error.
 */
function isUnreadableMessage(error: Error): boolean {
  return error instanceof SyntaxError || error.name === 'ZodError';
}

/** Wraps a transport so every message in and out is logged; otherwise it is the inner transport. */
export class LoggedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** Requests sent and not yet answered (same connection): when, and which method. */
  private readonly pending = new Map<
    string | number,
    { started: number; method: string; probe: boolean }
  >();
  /**
   * What the server sent that was not an MCP message: counted, the first few errors kept. Why:
   * the SDK skips such output silently, but a server that mixes other text into the protocol
   * cannot be trusted with it (docs/skills-over-mcp.md §5 "The verdict").
   */
  readonly unreadable: { count: number; samples: string[] } = { count: 0, samples: [] };
  /** URIs of announced probes not yet sent. */
  private readonly probes: string[] = [];

  constructor(
    readonly inner: Transport,
    private readonly log: ProtocolLog,
    private readonly server: string,
    private readonly onIncoming?: (message: JSONRPCMessage) => void,
  ) {
    inner.onmessage = (message, extra) => {
      const m = message as { id?: string | number; method?: string };
      let duration: number | undefined;
      let inReplyTo: string | undefined;
      let answersProbe = false;
      if (m.method === undefined && m.id !== undefined) {
        const request = this.pending.get(m.id);
        if (request !== undefined) {
          duration = performance.now() - request.started;
          inReplyTo = request.method;
          answersProbe = request.probe;
          this.pending.delete(m.id);
        }
      }
      if (this.log.on)
        this.log.record(
          this.server,
          'in',
          message,
          duration === undefined ? undefined : Math.round(duration * 10) / 10,
          inReplyTo,
          answersProbe,
        );
      this.onIncoming?.(message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => {
      if (isUnreadableMessage(error)) {
        this.unreadable.count++;
        if (this.unreadable.samples.length < MAX_UNREADABLE_SAMPLES)
          this.unreadable.samples.push(error.message.slice(0, 300));
      }
      this.onerror?.(error);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The protocol version the client negotiated (the SDK tells the transport after initialize). */
  protocolVersion: string | undefined;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  /**
   * Announce a deliberate probe: the next request for `uri` is sent expecting an error (the report
   * card asks for what does not exist). The request and its answer are logged as expected probes.
   * Returns the function that withdraws the announcement if the request was never sent.
   */
  expectProbe(uri: string): () => void {
    this.probes.push(uri);
    return () => {
      const i = this.probes.indexOf(uri);
      if (i !== -1) this.probes.splice(i, 1);
    };
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as {
      id?: string | number;
      method?: string;
      params?: { uri?: unknown };
    };
    let probe = false;
    if (m.method !== undefined && m.id !== undefined) {
      const announced = this.probes.indexOf(m.params?.uri as string);
      if (announced !== -1) this.probes.splice(announced, 1);
      probe = announced !== -1 || (typeof m.id === 'string' && m.id.startsWith(DISCOVER_ID_PREFIX));
      this.pending.set(m.id, { started: performance.now(), method: m.method, probe });
    }
    if (this.log.on) this.log.record(this.server, 'out', message, undefined, undefined, probe);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
