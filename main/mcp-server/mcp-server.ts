/**
 * One MCP server instance over the live catalog (`@modelcontextprotocol/server` 2.4 `Server`):
 * the Skills extension (SEP-2640: `skills/list`, `skills/get`, `resources/directory/read`),
 * resources (read, list, templates, subscribe), the legacy index and archives, the seed-000
 * mapping, read-only tools and skill prompts. Read-only: no handler writes anything.
 *
 * Both protocol revisions are served from the same handlers (docs/skills-over-mcp.md, "Protocol
 * revisions"): a 2025-11-25 client gets an instance per stdio connection or HTTP session, a
 * 2026-07-28 client an instance per stdio connection or per HTTP request. The SDK owns what
 * differs between them (`initialize` or `server/discover`, the per-request `_meta`,
 * `resultType`, the cache fields of core results, `subscriptions/listen`); the Skills
 * extension's own results get `ttlMs` and `cacheScope` here, on the modern revision only.
 */
import { ProtocolError, Server } from '@modelcontextprotocol/server';
import type { CacheScope, StandardSchemaV1 } from '@modelcontextprotocol/server';
import {
  DIRECTORY_READ_METHOD,
  isSafeSegment,
  LEGACY_INDEX_URI,
  parseSkillUri,
  SKILLS_EXTENSION_ID,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from '../../shared/sep';
import type { DirectoryResource } from '../../shared/sep';
import type { CatalogSnapshot, ServedSkill, SnapshotFile } from './catalog';
import { archiveUris, legacyView } from './legacy';
import type { LegacyResource } from './legacy';
import { RpcCode } from './jsonrpc';
import type { CatalogChange, LiveCatalog } from './live-catalog';
import { paramsProblem } from './params';
import { PromptTooLongError, renderPromptBody, shellCommandLines, skillPrompts } from './prompts';
import { count } from '../../shared/text/words';
import { isJsonObject } from '../../shared/json/values';

/** What the server offers besides the Skills extension. Everything is on by default. */
export interface SkillsServerFeatures {
  /** `skill://index.json` and the per-skill archives. */
  legacy?: boolean;
  /** The seed-000 `resource://skills/<id>/…` mapping. */
  personalMcp?: boolean;
  /** Read-only tools `list_skills`, `read_skill`, `read_skill_file`. */
  tools?: boolean;
  /** User-invocable skills as prompts. */
  prompts?: boolean;
  /** Entries per page: `skills/list` (default 250), `resources/list` (default 500), directory reads (default 500). */
  pageSizes?: { skills?: number; resources?: number; directory?: number };
}

/** One line of the request log. */
export interface RequestLogEntry {
  time: number;
  transport: 'stdio' | 'http';
  session?: string;
  method: string;
  uri?: string;
  /** `ok`, a JSON-RPC error code, or an HTTP status for requests refused before MCP (401, 403, 413…). */
  status: 'ok' | number;
  ms: number;
  /** For errors: the plain sentence sent back. */
  message?: string;
}

/** Options for {@link createSkillsServer}. */
export interface CreateSkillsServerOptions extends SkillsServerFeatures {
  transport: 'stdio' | 'http';
  session?: string;
  onRequest?: (entry: RequestLogEntry) => void;
  serverInfo?: { name: string; version: string };
  /** Resources one session may subscribe to. Default 4,096. */
  maxSubscriptions?: number;
  /**
   * The protocol era the instance serves: `modern` (2026-07-28) adds `ttlMs` and `cacheScope`
   * to the Skills extension's results. Default `legacy` (2025-11-25 and earlier).
   */
  era?: 'legacy' | 'modern';
  /**
   * Send catalog changes as notifications from this instance. Default true. Off for the
   * per-request instances of modern HTTP, whose host publishes changes on the
   * `subscriptions/listen` streams itself.
   */
  notify?: boolean;
}

/** A server plus the means to stop listening to the catalog. */
export interface SkillsServerHandle {
  /** Connect it to a transport (`server.connect`), or hand it to the SDK's serving entries. */
  server: Server;
  /** Stop forwarding catalog changes; call when the transport closes. */
  dispose: () => void;
}

/** Default of {@link CreateSkillsServerOptions.maxSubscriptions}. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 4096;

/** A result object as handlers build it; the SDK checks the wire shape. */
type AnyResult = Record<string, unknown>;

const DEFAULT_PAGES = { skills: 250, resources: 500, directory: 500 };

/**
 * Why every "not served" answer is -32602: SEP-2640 §3–§4 ("give -32602 and read nothing") and
 * SEP-2164 (resource not found is -32602, with the URI asked for in `data.uri`).
 */
function invalid(message: string, uri?: unknown): ProtocolError {
  return new ProtocolError(
    RpcCode.InvalidParams,
    message,
    typeof uri === 'string' ? { uri } : undefined,
  );
}

/**
 * The cache fields of results on protocol revision 2026-07-28 (docs/skills-over-mcp.md,
 * "Protocol revisions"): `ttlMs: 0` because the library may change on disk at any moment (the
 * list-changed and updated notifications say when), `private` because a library is one user's.
 */
const CACHE = { ttlMs: 0, cacheScope: 'private' as CacheScope };

/**
 * Any parameters: the SDK's own check of spec methods answers -32603 with a dump, so ours runs in
 * the handler (`paramsProblem`). The SDK hands this a fresh copy of the request's params, always
 * an object; a plain Standard Schema passes it on as it is instead of having a validator copy
 * every key again on each request.
 */
const AnyParams: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'skillbench',
    validate: (value) =>
      isJsonObject(value)
        ? { value }
        : { issues: [{ message: 'The parameters must be an object.' }] },
  },
};

/** Opaque, stable cursors: the URI after which the next page starts, so a rebuild never shifts a page. */
function encodeCursor(kind: string, after: string, scope = ''): string {
  return Buffer.from(JSON.stringify({ k: kind, a: after, s: scope }), 'utf8').toString('base64url');
}

function decodeCursor(kind: string, cursor: string | undefined, scope = ''): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      k?: unknown;
      a?: unknown;
      s?: unknown;
    };
    if (v.k === kind && typeof v.a === 'string' && v.s === scope) return v.a;
  } catch {
    // fall through
  }
  throw invalid('The cursor is not one this server handed out. Start again without a cursor.');
}

/** A page of a URI-sorted list: items after `after`, at most `size`, and the next cursor. */
function page<T extends { uri: string }>(
  items: readonly T[],
  after: string | undefined,
  size: number,
  kind: string,
  scope = '',
): { items: T[]; nextCursor?: string } {
  let lo = 0;
  if (after !== undefined) {
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (items[mid].uri <= after) lo = mid + 1;
      else hi = mid;
    }
  }
  const slice = items.slice(lo, lo + size);
  const more = lo + size < items.length;
  return more
    ? { items: slice, nextCursor: encodeCursor(kind, slice[slice.length - 1].uri, scope) }
    : { items: slice };
}

interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: LegacyResource['annotations'];
  _meta?: Record<string, unknown>;
}

const listings = new WeakMap<CatalogSnapshot, Map<string, ListedResource[]>>();

/** Every listed resource of a snapshot, sorted by URI (cached per snapshot and feature set). */
function listedResources(
  snap: CatalogSnapshot,
  legacy: boolean,
  personal: boolean,
): ListedResource[] {
  const key = `${legacy}/${personal}`;
  const per = listings.get(snap) ?? new Map<string, ListedResource[]>();
  listings.set(snap, per);
  const hit = per.get(key);
  if (hit) return hit;
  const out: ListedResource[] = [];
  const seen = new Set<string>();
  for (const skill of snap.skills) {
    for (const f of skill.files) {
      if (seen.has(f.uri)) continue; // nested skills share files
      seen.add(f.uri);
      out.push(
        f.relPath === 'SKILL.md'
          ? {
              uri: f.uri,
              name: skill.name,
              description: skill.description,
              mimeType: f.mimeType,
              size: f.size,
            }
          : { uri: f.uri, name: f.relPath, mimeType: f.mimeType, size: f.size },
      );
    }
  }
  for (const r of legacyView(snap, { archives: legacy, personal }).list) {
    out.push({
      uri: r.uri,
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
      annotations: r.annotations,
      _meta: r._meta,
    });
  }
  out.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  per.set(key, out);
  return out;
}

function fileContents(
  uri: string,
  file: SnapshotFile,
):
  | { uri: string; mimeType: string; text: string }
  | { uri: string; mimeType: string; blob: string } {
  // Why: SEP-2640 §1 — valid UTF-8 may be served as text, anything else as base64 blob so the bytes survive.
  return file.text !== undefined
    ? { uri, mimeType: file.mimeType, text: file.text }
    : {
        uri,
        mimeType: file.mimeType,
        blob: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength).toString(
          'base64',
        ),
      };
}

/** Find a served skill by path or name; names may repeat, paths may not. */
function resolveSkill(snap: CatalogSnapshot, key: string): ServedSkill {
  const wanted = key
    .trim()
    .replace(/^skill:\/\//, '')
    .replace(/\/SKILL\.md$/, '');
  const byPath = snap.skills.find((s) => s.skillPath === wanted);
  if (byPath) return byPath;
  const named = snap.skills.filter((s) => s.name === wanted);
  if (named.length === 1) return named[0];
  if (named.length > 1) {
    throw invalid(
      `Several skills are named "${wanted}". Ask for one by its path: ${named.map((s) => s.skillPath).join(', ')}.`,
    );
  }
  throw invalid(`No skill named "${wanted}" is served. Call list_skills to see the names.`);
}

function toolText(text: string, isError = false): AnyResult {
  return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}

const TOOLS = [
  {
    name: 'list_skills',
    title: 'List skills',
    description:
      'List the skills this server serves: name, path, description and SKILL.md URI. Read one with read_skill.',
    inputSchema: { type: 'object' as const, properties: {}, additionalProperties: false },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  {
    name: 'read_skill',
    title: 'Read a skill',
    description:
      "Read a skill's SKILL.md and the list of its other files. `name` is the skill name, or its path when two skills share a name.",
    inputSchema: {
      type: 'object' as const,
      properties: {
        name: {
          type: 'string',
          description: 'Skill name or path, e.g. "refunds" or "team/billing/refunds".',
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  {
    name: 'read_skill_file',
    title: 'Read a skill file',
    description:
      'Read one file of a skill. `skill` is the name or path; `path` is relative to the skill folder, e.g. "references/guide.md".',
    inputSchema: {
      type: 'object' as const,
      properties: {
        skill: { type: 'string', description: 'Skill name or path.' },
        path: {
          type: 'string',
          description: 'File path inside the skill, e.g. "references/guide.md".',
        },
      },
      required: ['skill', 'path'],
      additionalProperties: false,
    },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
];

/** A subscriber to a catalog; one catalog listener serves every session (no listener per session). */
const fanOuts = new WeakMap<LiveCatalog, Set<(change: CatalogChange) => void>>();

function subscribe(catalog: LiveCatalog, fn: (change: CatalogChange) => void): () => void {
  let set = fanOuts.get(catalog);
  if (!set) {
    const subscribers = new Set<(change: CatalogChange) => void>();
    set = subscribers;
    fanOuts.set(catalog, subscribers);
    // Why one listener: a listener per session passed EventEmitter's limit of 10 (MaxListenersExceededWarning).
    catalog.on('changed', (change) => {
      for (const f of subscribers) f(change);
    });
  }
  set.add(fn);
  return () => set.delete(fn);
}

/**
 * The SDK's `Server`, whose close makes its "Connection closed" error without a stack trace. Why:
 * a 2026-07-28 request is answered by an instance that closes right after its answer, so that
 * error (handed to handlers still running and to requests still waiting, never shown to anyone)
 * was made once per request, and capturing its stack cost about 5% of the server's CPU over HTTP.
 */
class SkillsServer extends Server {
  protected override _onclose(): void {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super._onclose();
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/** Build a `Server` over the catalog, for one stdio connection, HTTP session or modern HTTP request. */
export function createSkillsServer(
  catalog: LiveCatalog,
  options: CreateSkillsServerOptions,
): SkillsServerHandle {
  const legacy = options.legacy !== false;
  const personal = options.personalMcp !== false;
  const tools = options.tools !== false;
  const prompts = options.prompts !== false;
  const modern = options.era === 'modern';
  const sizes = { ...DEFAULT_PAGES, ...options.pageSizes };
  const server = new SkillsServer(options.serverInfo ?? { name: 'skillbench', version: '0.1.0' }, {
    capabilities: {
      resources: { subscribe: true, listChanged: true },
      ...(tools ? { tools: { listChanged: false } } : {}),
      ...(prompts ? { prompts: { listChanged: true } } : {}),
    },
    instructions:
      'Skills served by Skillbench. Use skills/list (or the list_skills tool) to see them and resources/read to read their files.',
    // The same hints for the core results the SDK stamps on 2026-07-28 as for ours (see CACHE).
    cacheHints: {
      'server/discover': CACHE,
      'resources/list': CACHE,
      'resources/read': CACHE,
      'resources/templates/list': CACHE,
      'tools/list': CACHE,
      'prompts/list': CACHE,
    },
  });
  // Why: SEP-2640 §2 — declaring the extension commits us to skills/list + skills/get; directoryRead to resources/directory/read. Settings inline under the id (SEP-2133).
  server.registerCapabilities({ extensions: { [SKILLS_EXTENSION_ID]: { directoryRead: true } } });
  const subscriptions = new Set<string>();
  const maxSubscriptions = options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS;
  const log = (
    method: string,
    uri: string | undefined,
    status: 'ok' | number,
    started: number,
    message?: string,
  ): void => {
    options.onRequest?.({
      time: Date.now(),
      transport: options.transport,
      session: options.session,
      method,
      uri,
      status,
      ms: performance.now() - started,
      message,
    });
  };
  /**
   * Register a handler: check its parameters (-32602 with a plain sentence, the validator's
   * issues in `data`), time and log it, add the cache fields where asked, and turn unexpected
   * failures into plain sentences (-32603).
   */
  const handle = (
    method: string,
    fn: (params: Record<string, unknown>) => AnyResult | Promise<AnyResult>,
    { cached = false }: { cached?: boolean } = {},
  ): void => {
    server.setRequestHandler(method, { params: AnyParams }, async (params) => {
      const started = performance.now();
      const p = params;
      const uri =
        typeof p.uri === 'string' ? p.uri : typeof p.name === 'string' ? p.name : undefined;
      try {
        const problem = paramsProblem(method, p);
        if (problem) throw new ProtocolError(RpcCode.InvalidParams, problem.message, problem.data);
        const result = await fn(p);
        log(method, uri, 'ok', started);
        // Why only on the modern revision: 2025-11-25 results have no cache fields (SEP-2549).
        return cached && modern ? { ...result, ...CACHE } : result;
      } catch (e) {
        const err =
          e instanceof ProtocolError
            ? e
            : new ProtocolError(
                RpcCode.InternalError,
                `The server could not answer: ${e instanceof Error ? e.message : String(e)}`,
              );
        log(method, uri, err.code, started, err.message);
        throw err;
      }
    });
  };
  /** The Skills extension's results are cacheable on 2026-07-28 (SEP-2640 with SEP-2549). */
  const extensionResult = { cached: true };
  const snap = (): CatalogSnapshot => catalog.current;
  const parse = (uri: unknown, schemes: string[] = ['skill:']): string => {
    const r = parseSkillUri(uri, { schemes });
    if (!r.ok) throw invalid(`${r.reason} Nothing was read.`, uri);
    return r.uri.href;
  };

  handle(
    SKILLS_LIST_METHOD,
    (params) => {
      const s = snap();
      const cursor = typeof params.cursor === 'string' ? params.cursor : undefined;
      const p = page(s.skills, decodeCursor('skills', cursor), sizes.skills, 'skills');
      return {
        skills: p.items.map((k) => k.entry),
        ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}),
      };
    },
    extensionResult,
  );

  handle(
    SKILLS_GET_METHOD,
    (params) => {
      const href = parse(params.uri);
      const skill = snap().bySkillUri.get(href);
      if (!skill) throw invalid(`No skill is served with the SKILL.md URI ${href}.`, params.uri);
      return { skill: skill.entry };
    },
    extensionResult,
  );

  handle(
    DIRECTORY_READ_METHOD,
    (params) => {
      const href = parse(params.uri);
      const target = snap().targets.get(href);
      if (!target || target.kind !== 'directory')
        throw invalid(`${href} is not a served skill folder.`, params.uri);
      const children = target.skill.children.get(target.relDir) ?? [];
      const cursor = typeof params.cursor === 'string' ? params.cursor : undefined;
      const p = page<DirectoryResource>(
        children,
        decodeCursor('dir', cursor, href),
        sizes.directory,
        'dir',
        href,
      );
      return { resources: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
    },
    extensionResult,
  );

  handle('resources/read', async (params) => {
    const s = snap();
    // Why the URI as sent is looked up first: every URI a snapshot serves is canonical (parsing it
    // gives it back), so one found as it is needs no parsing; any other is parsed, and refused or
    // normalised, as before.
    const served = typeof params.uri === 'string' ? s.targets.get(params.uri) : undefined;
    const href = served ? (params.uri as string) : parse(params.uri, ['skill:', 'resource:']);
    const target = served ?? s.targets.get(href);
    if (target?.kind === 'file') return { contents: [fileContents(href, target.file)] };
    if (target?.kind === 'directory')
      throw invalid(`${href} is a folder. List it with resources/directory/read.`, params.uri);
    const extra = legacyView(s, { archives: legacy, personal }).byUri.get(href);
    if (extra) {
      const bytes = await extra.bytes();
      const text = await extra.text?.();
      return {
        contents: [
          text !== undefined
            ? {
                uri: href,
                mimeType: extra.mimeType,
                text,
                ...(extra._meta ? { _meta: extra._meta } : {}),
              }
            : {
                uri: href,
                mimeType: extra.mimeType,
                blob: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
                  'base64',
                ),
              },
        ],
      };
    }
    throw invalid(`No served resource has the URI ${href}.`, params.uri);
  });

  handle('resources/list', (params) => {
    const all = listedResources(snap(), legacy, personal);
    const cursor = typeof params.cursor === 'string' ? params.cursor : undefined;
    const p = page(all, decodeCursor('resources', cursor), sizes.resources, 'resources');
    return { resources: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
  });

  handle('resources/templates/list', () => ({
    // Why: docs/skills-over-mcp.md §6 D — clients without the extension find skill files through this template.
    resourceTemplates: [
      {
        uriTemplate: 'skill://{+path}',
        name: 'skill-file',
        title: 'Skill file',
        description: 'Any file of a served skill, e.g. skill://team/refunds/SKILL.md.',
      },
    ],
  }));

  handle('resources/subscribe', (params) => {
    const href = parse(params.uri, ['skill:', 'resource:']);
    const s = snap();
    // Why refuse: a subscription to a URI we do not serve could never be updated (SEP-2164: not found is -32602).
    if (!s.targets.has(href) && !legacyView(s, { archives: legacy, personal }).byUri.has(href))
      throw invalid(
        `No served resource has the URI ${href}, so there is nothing to subscribe to.`,
        params.uri,
      );
    if (!subscriptions.has(href) && subscriptions.size >= maxSubscriptions)
      // -32600: the request is well formed, but this session may not hold more (a per-session bound on memory).
      throw new ProtocolError(
        RpcCode.InvalidRequest,
        `This session already follows ${maxSubscriptions} resources, the most it may. Unsubscribe from some first.`,
      );
    subscriptions.add(href);
    return {};
  });

  handle('resources/unsubscribe', (params) => {
    subscriptions.delete(parse(params.uri, ['skill:', 'resource:']));
    return {};
  });

  if (tools) {
    handle('tools/list', () => ({ tools: TOOLS }));
    handle('tools/call', (params) => {
      const name = params.name;
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      const s = snap();
      try {
        if (name === 'list_skills') {
          const list = s.skills.map((k) => ({
            name: k.name,
            path: k.skillPath,
            description: k.description,
            uri: k.uri,
            ...(k.personal
              ? {
                  depends_on: k.personal.dependsOn,
                  version: k.personal.version,
                  tags: k.personal.tags,
                }
              : {}),
          }));
          return {
            content: [{ type: 'text', text: JSON.stringify(list, null, 2) }],
            structuredContent: { skills: list },
          };
        }
        if (name === 'read_skill') {
          if (typeof args.name !== 'string')
            return toolText('Give the skill name as "name".', true);
          const skill = resolveSkill(s, args.name);
          const md = skill.files.find((f) => f.relPath === 'SKILL.md');
          const others = skill.files
            .filter((f) => f.relPath !== 'SKILL.md')
            .map((f) => `- ${f.relPath} (${f.size} bytes)`);
          return {
            content: [
              { type: 'text', text: md?.text ?? '' },
              {
                type: 'text',
                text:
                  others.length > 0
                    ? `Other files of ${skill.skillPath} (read them with read_skill_file):\n${others.join('\n')}`
                    : `${skill.skillPath} has no other files.`,
              },
            ],
          };
        }
        if (name === 'read_skill_file') {
          if (typeof args.skill !== 'string' || typeof args.path !== 'string')
            return toolText(
              'Give "skill" (name or path) and "path" (file inside the skill).',
              true,
            );
          const skill = resolveSkill(s, args.skill);
          const rel = args.path.replace(/^\.\//, '');
          // Why: the same refusal as for URIs: no `..`, backslashes or empty segments, and only snapshot files.
          if (rel.includes('\\') || !rel.split('/').every(isSafeSegment))
            return toolText(
              `"${args.path}" is not a path inside the skill. Nothing was read.`,
              true,
            );
          const file = skill.files.find((f) => f.relPath === rel);
          if (!file) return toolText(`${skill.skillPath} has no file "${rel}".`, true);
          if (file.text !== undefined) return toolText(file.text);
          return { content: [{ type: 'resource', resource: fileContents(file.uri, file) }] };
        }
        return toolText(`There is no tool named "${String(name)}".`, true);
      } catch (e) {
        if (e instanceof ProtocolError) return toolText(e.message, true);
        throw e;
      }
    });
  }

  if (prompts) {
    handle('prompts/list', () => ({
      prompts: skillPrompts(snap().skills).map((p) => ({
        name: p.name,
        description: p.description,
        arguments: p.arguments,
      })),
    }));
    handle('prompts/get', (params) => {
      const name = params.name;
      const prompt = skillPrompts(snap().skills).find((p) => p.name === name);
      if (!prompt) throw invalid(`No prompt is named "${String(name)}".`);
      const values = (params.arguments ?? {}) as Record<string, string | undefined>;
      let text: string;
      try {
        text = renderPromptBody(prompt, values);
      } catch (e) {
        if (e instanceof PromptTooLongError) throw invalid(e.message);
        throw e;
      }
      const commands = shellCommandLines(prompt.skill.body);
      return {
        description:
          commands.length > 0
            ? `${prompt.description} (Contains ${count(commands.length, 'shell command line')} left as text; nothing was run.)`
            : prompt.description,
        messages: [{ role: 'user', content: { type: 'text', text } }],
        // Why: `!`cmd`` lines are flagged, never run (docs/skill-format.md §2 agentskills-mcp).
        ...(commands.length > 0
          ? { _meta: { 'io.skillbench/shell-commands-not-run': commands } }
          : {}),
      };
    });
  }

  const onChange = (change: CatalogChange): void => {
    const n = changeNotifications(change, { prompts });
    const sends: Promise<void>[] = [];
    if (n.resourcesListChanged) sends.push(server.sendResourceListChanged());
    if (n.promptsListChanged) sends.push(server.sendPromptListChanged());
    // Why every URI on the modern revision: there `subscriptions/listen` picks the URIs, and the
    // SDK's listen router passes on only those its streams asked for; a 2025-11-25 session asks
    // with resources/subscribe.
    for (const uri of n.updated)
      if (modern || subscriptions.has(uri)) sends.push(server.sendResourceUpdated({ uri }));
    // A closed transport rejects; the next change simply finds no listener once disposed.
    for (const p of sends) p.catch(() => undefined);
  };
  const unsubscribe = options.notify === false ? () => false : subscribe(catalog, onChange);
  return { server, dispose: () => void unsubscribe() };
}

/** The notifications one catalog change calls for (docs/skills-over-mcp.md §1, "Subscriptions and notifications"). */
export function changeNotifications(
  change: CatalogChange,
  features: { prompts: boolean },
): { resourcesListChanged: boolean; promptsListChanged: boolean; updated: Set<string> } {
  const updated = new Set(change.changedFiles);
  const touched = [...change.changedSkills, ...change.addedSkills, ...change.removedSkills];
  if (touched.length > 0) updated.add(LEGACY_INDEX_URI);
  for (const uri of touched) {
    const skill = change.previous.bySkillUri.get(uri) ?? change.current.bySkillUri.get(uri);
    if (!skill) continue;
    const a = archiveUris(skill);
    updated.add(a.tarGz).add(a.zip);
    if (skill.personal) updated.add(`resource://skills/${skill.personal.id}/document`);
  }
  return {
    resourcesListChanged: change.listChanged,
    promptsListChanged: features.prompts && (change.listChanged || change.changedSkills.length > 0),
    updated,
  };
}

/** Listen to a catalog's changes through the one shared listener; returns the way to stop. */
export function onCatalogChange(
  catalog: LiveCatalog,
  fn: (change: CatalogChange) => void,
): () => void {
  const stop = subscribe(catalog, fn);
  return () => void stop();
}
