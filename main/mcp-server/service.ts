/**
 * The embedded server as a service the app drives:
 * start/stop, address, token (regenerate), live request log, served and excluded skills with
 * reasons, and copy-ready client setup. Every value it hands out is plain JSON, so main/api can
 * pass it through the IPC contract unchanged. Events: `status`, `request`, `catalog`.
 */
import { EventEmitter } from 'node:events';
import type { CliLaunch } from '../platform/cli-launch';
import type { CatalogSnapshot } from './catalog';
import { clientSetupSnippets } from './client-setup';
import type { ClientSnippet } from './client-setup';
import { generateToken, startHttpHost } from './http-host';
import type { HttpHost } from './http-host';
import { LiveCatalog } from './live-catalog';
import type { CatalogChange } from './live-catalog';
import type { RequestLogEntry, SkillsServerFeatures } from './mcp-server';
import type { SkillCheck } from './skill-check';

/** Where the service is in its life. */
export type ServerState = 'stopped' | 'starting' | 'running' | 'stopping' | 'failed';

/** A served skill as the panel shows it. */
export interface ServedSkillInfo {
  uri: string;
  skillPath: string;
  name: string;
  description: string;
  root: string;
  dir: string;
  files: number;
  bytes: number;
  warnings: string[];
}

/** A skill that is not served, with the reasons in plain sentences. */
export interface ExcludedSkillInfo {
  root: string;
  dir: string;
  relativeDir: string;
  name?: string;
  reasons: string[];
}

/** The catalog as the panel shows it. */
export interface CatalogSummary {
  version: number;
  builtAt: number;
  buildMs: number;
  served: ServedSkillInfo[];
  excluded: ExcludedSkillInfo[];
}

/** Everything the panel shows at once. */
export interface ServerStatus {
  state: ServerState;
  roots: string[];
  /** `http://127.0.0.1:<port>/mcp` while running. */
  url?: string;
  host?: string;
  port?: number;
  /** The bearer token while running (shown, copied, regenerated in the panel). */
  token?: string;
  sessions: number;
  features: Required<Omit<SkillsServerFeatures, 'pageSizes'>>;
  /** The plain-sentence reason when `state` is `failed`. */
  error?: string;
}

/** Options for {@link SkillsServerService}. */
export interface SkillsServerServiceOptions extends SkillsServerFeatures {
  roots: readonly string[];
  host?: string;
  port?: number;
  /** A stored token (the app keeps it with Electron safeStorage); generated when absent. */
  token?: string;
  allowNonLoopback?: boolean;
  /** How a client starts this installation's CLI, for the stdio snippets; without it there are none. */
  cliLaunch?: CliLaunch;
  /** Watch the library and rebuild on changes. Default true. */
  watch?: boolean;
  check?: SkillCheck;
  /** Where linked skill folders may point besides the roots (the agents' skills folders). */
  linkRoots?: () => readonly string[] | Promise<readonly string[]>;
  /** Request log entries kept for {@link SkillsServerService.recentRequests}. Default 500. */
  logSize?: number;
}

/** Events of {@link SkillsServerService}. */
export interface SkillsServerServiceEvents {
  /** State, address or token changed. */
  status: [ServerStatus];
  /** One request answered or refused (method, uri, status, ms). */
  request: [RequestLogEntry];
  /** The catalog was (re)built. */
  catalog: [CatalogSummary];
}

/** Summarise a snapshot for the panel. */
export function summarizeSnapshot(snap: CatalogSnapshot): CatalogSummary {
  return {
    version: snap.version,
    builtAt: snap.builtAt,
    buildMs: Math.round(snap.buildMs),
    served: snap.skills.map((s) => ({
      uri: s.uri,
      skillPath: s.skillPath,
      name: s.name,
      description: s.description,
      root: s.root,
      dir: s.dir,
      files: s.files.length,
      bytes: s.files.reduce((n, f) => n + f.size, 0),
      warnings: s.warnings,
    })),
    excluded: snap.excluded.map((e) => ({
      root: e.root,
      dir: e.dir,
      relativeDir: e.relativeDir,
      name: e.name,
      reasons: e.reasons,
    })),
  };
}

/** The embedded skills server the app starts and stops. */
export class SkillsServerService extends EventEmitter<SkillsServerServiceEvents> {
  #options: SkillsServerServiceOptions;
  #roots: string[];
  #state: ServerState = 'stopped';
  #error: string | undefined;
  #catalog: LiveCatalog | undefined;
  #http: HttpHost | undefined;
  #token: string;
  #log: RequestLogEntry[] = [];

  /** A stopped service over these roots. */
  constructor(options: SkillsServerServiceOptions) {
    super();
    this.#options = options;
    this.#roots = [...options.roots];
    this.#token = options.token ?? generateToken();
  }

  /** The current status (plain JSON). */
  status(): ServerStatus {
    const o = this.#options;
    return {
      state: this.#state,
      roots: [...this.#roots],
      url: this.#http?.url,
      host: this.#http?.host,
      port: this.#http?.port,
      token: this.#http ? this.#token : undefined,
      sessions: this.#http?.sessionCount() ?? 0,
      features: {
        legacy: o.legacy !== false,
        personalMcp: o.personalMcp !== false,
        tools: o.tools !== false,
        prompts: o.prompts !== false,
      },
      ...(this.#error ? { error: this.#error } : {}),
    };
  }

  /** Served and excluded skills; undefined before the first start. */
  catalog(): CatalogSummary | undefined {
    return this.#catalog ? summarizeSnapshot(this.#catalog.current) : undefined;
  }

  /** The last request log entries, oldest first. */
  recentRequests(): RequestLogEntry[] {
    return [...this.#log];
  }

  /** Copy-ready setup for Claude Desktop, Claude Code, Cursor and VS Code. */
  clientSetup(): ClientSnippet[] {
    return clientSetupSnippets({
      roots: this.#roots,
      launch: this.#options.cliLaunch,
      http: this.#http ? { url: this.#http.url, token: this.#token } : undefined,
    });
  }

  /** Build the catalog and start the HTTP server. Resolves with the running status; on failure the state is `failed` with a reason. */
  async start(): Promise<ServerStatus> {
    if (this.#state === 'running' || this.#state === 'starting') return this.status();
    this.#setState('starting');
    try {
      const catalog = new LiveCatalog(this.#roots, {
        watch: this.#options.watch,
        check: this.#options.check,
        ...(this.#options.linkRoots ? { linkRoots: this.#options.linkRoots } : {}),
      });
      await catalog.load();
      catalog.on('changed', (c: CatalogChange) =>
        this.emit('catalog', summarizeSnapshot(c.current)),
      );
      this.#catalog = catalog;
      this.emit('catalog', summarizeSnapshot(catalog.current));
      this.#http = await startHttpHost(catalog, {
        ...this.#options,
        token: this.#token,
        onRequest: (e) => this.#record(e),
      });
      this.#error = undefined;
      this.#setState('running');
    } catch (e) {
      this.#catalog?.close();
      this.#catalog = undefined;
      this.#error = e instanceof Error ? e.message : String(e);
      this.#setState('failed');
    }
    return this.status();
  }

  /** Stop the server and the watcher; sessions end. */
  async stop(): Promise<ServerStatus> {
    if (this.#state === 'stopped') return this.status();
    this.#setState('stopping');
    await this.#http?.close();
    this.#http = undefined;
    this.#catalog?.close();
    this.#catalog = undefined;
    this.#setState('stopped');
    return this.status();
  }

  /** A new token; clients holding the old one are disconnected. Returns the new token. */
  async regenerateToken(): Promise<string> {
    this.#token = generateToken();
    await this.#http?.setToken(this.#token);
    this.emit('status', this.status());
    return this.#token;
  }

  /** Serve other library folders (rebuilds while running). */
  async setRoots(roots: readonly string[]): Promise<ServerStatus> {
    this.#roots = [...roots];
    if (this.#catalog) {
      await this.#catalog.setRoots(roots);
      this.emit('catalog', summarizeSnapshot(this.#catalog.current));
    }
    this.emit('status', this.status());
    return this.status();
  }

  /** Rebuild the catalog now (e.g. after the app saved a file); the watcher does this too. */
  async refresh(): Promise<CatalogSummary | undefined> {
    if (!this.#catalog) return undefined;
    return summarizeSnapshot(await this.#catalog.rebuild());
  }

  #record(entry: RequestLogEntry): void {
    this.#log.push(entry);
    const max = this.#options.logSize ?? 500;
    if (this.#log.length > max) this.#log.splice(0, this.#log.length - max);
    this.emit('request', entry);
  }

  #setState(state: ServerState): void {
    this.#state = state;
    this.emit('status', this.status());
  }
}
