/**
 * One MCP server session over the live catalog (`@modelcontextprotocol/sdk` v1 `Server`):
 * the Skills extension (SEP-2640: `skills/list`, `skills/get`, `resources/directory/read`),
 * resources (read, list, templates, subscribe), the legacy index and archives, the seed-000
 * mapping, read-only tools and skill prompts. Read-only: no handler writes anything.
 * Every transport (stdio, each HTTP session) gets its own `Server` from {@link createSkillsServer}.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCErrorResponse, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  DIRECTORY_READ_METHOD,
  GetSkillRequestSchema,
  isSafeSegment,
  LEGACY_INDEX_URI,
  ListSkillsRequestSchema,
  parseSkillUri,
  ReadDirectoryRequestSchema,
  SKILLS_EXTENSION_ID,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from '../../shared/sep';
import type { DirectoryResource } from '../../shared/sep';
import type { CatalogSnapshot, ServedSkill, SnapshotFile } from './catalog';
import { archiveUris, legacyView } from './legacy';
import type { LegacyResource } from './legacy';
import { errorResponse, isRequest } from './jsonrpc';
import type { CatalogChange, LiveCatalog } from './live-catalog';
import { PromptTooLongError, renderPromptBody, shellCommandLines, skillPrompts } from './prompts';

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
}

/** A server plus the means to stop listening to the catalog. */
export interface SkillsServerHandle {
  server: Server;
  /**
   * Connect the server to a transport, checking every request's parameters first: a request
   * whose parameters have the wrong shape gets -32602 with a plain sentence (JSON-RPC 2.0 §5.1),
   * where the SDK would answer -32603 with its validator's dump.
   */
  connect(transport: Transport): Promise<void>;
  /** Stop forwarding catalog changes; call when the transport closes. */
  dispose(): void;
}

/** Default of {@link CreateSkillsServerOptions.maxSubscriptions}. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 4096;

/** A result object as handlers build it; the SDK checks the wire shape. */
type AnyResult = Record<string, unknown>;

const DEFAULT_PAGES = { skills: 250, resources: 500, directory: 500 };

/** Why every "not served" answer is -32602: SEP-2640 §3–§4 ("give -32602 and read nothing") and SEP-2164 (resource not found is -32602). */
function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

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

interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
}

const KIND_WORDS: Record<string, string> = {
  string: 'text (a string)',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list (an array)',
};

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** One plain sentence for the first problem with a request's parameters. */
function describeParams(method: string, request: unknown, issues: readonly SchemaIssue[]): string {
  const issue = issues[0];
  if (!issue) return `The parameters of ${method} are not valid.`;
  const path = issue.path[0] === 'params' ? issue.path.slice(1) : issue.path;
  const name = path.length > 0 ? `"${path.map(String).join('.')}"` : 'The parameters';
  const value = valueAt(request, issue.path);
  if (issue.code === 'invalid_type' && issue.expected) {
    const wanted = KIND_WORDS[issue.expected] ?? issue.expected;
    return value === undefined
      ? `${method} needs ${path.length > 0 ? name : 'parameters'}, which must be ${wanted}.`
      : `In ${method}, ${name} must be ${wanted}, not ${kindOf(value)}.`;
  }
  return `In ${method}, ${name} is not valid: ${issue.message}.`;
}

/**
 * The -32602 answer for a request whose parameters do not fit `schema`, or undefined when they
 * do. The message is a plain sentence; the validator's issues go in `data`.
 */
function paramsProblem(
  schema: { safeParse(v: unknown): unknown },
  message: JSONRPCRequest,
): JSONRPCErrorResponse | undefined {
  const checked = schema.safeParse(message) as
    { success: true } | { success: false; error: { issues: SchemaIssue[] } };
  if (checked.success) return undefined;
  return errorResponse(
    message.id,
    ErrorCode.InvalidParams,
    describeParams(message.method, message, checked.error.issues),
    {
      issues: checked.error.issues.map((i) => ({
        path: i.path.map(String).join('.'),
        message: i.message,
      })),
    },
  );
}

/** The -32602 answer for an `initialize` request with parameters of the wrong shape (checked before a session is made). */
export function initializeProblem(message: JSONRPCRequest): JSONRPCErrorResponse | undefined {
  return paramsProblem(InitializeRequestSchema, message);
}

/** The request schemas the SDK checks on its own (initialize, ping); ours are added as handlers register. */
const SDK_HANDLED = [InitializeRequestSchema, PingRequestSchema];

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

/** Build a `Server` over the catalog. Connect it with the handle's `connect(transport)`. */
export function createSkillsServer(
  catalog: LiveCatalog,
  options: CreateSkillsServerOptions,
): SkillsServerHandle {
  const legacy = options.legacy !== false;
  const personal = options.personalMcp !== false;
  const tools = options.tools !== false;
  const prompts = options.prompts !== false;
  const sizes = { ...DEFAULT_PAGES, ...options.pageSizes };
  const server = new Server(options.serverInfo ?? { name: 'skillbench', version: '0.1.0' }, {
    capabilities: {
      resources: { subscribe: true, listChanged: true },
      ...(tools ? { tools: { listChanged: false } } : {}),
      ...(prompts ? { prompts: { listChanged: true } } : {}),
    },
    instructions:
      'Skills served by Skillbench. Use skills/list (or the list_skills tool) to see them and resources/read to read their files.',
  });
  // Why: SEP-2640 §2 — declaring the extension commits us to skills/list + skills/get; directoryRead to resources/directory/read. Settings inline under the id (SEP-2133).
  server.registerCapabilities({ extensions: { [SKILLS_EXTENSION_ID]: { directoryRead: true } } });
  const subscriptions = new Set<string>();
  const maxSubscriptions = options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS;
  /** Method → the request schema its handler parses with, for the check in `connect`. */
  const schemas = new Map<string, { safeParse(v: unknown): unknown }>(
    SDK_HANDLED.map((s) => [s.shape.method.value, s]),
  );
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
  // Wrap every handler: time it, log it, and turn unexpected failures into plain sentences.
  const handle = <S extends Parameters<Server['setRequestHandler']>[0]>(
    schema: S,
    method: string,
    fn: (req: { params?: Record<string, unknown> }) => AnyResult | Promise<AnyResult>,
  ): void => {
    schemas.set(method, schema as { safeParse(v: unknown): unknown });
    server.setRequestHandler(schema, async (req: unknown) => {
      const started = performance.now();
      const r = req as { params?: Record<string, unknown> };
      const uri =
        typeof r.params?.uri === 'string'
          ? r.params.uri
          : typeof r.params?.name === 'string'
            ? r.params.name
            : undefined;
      try {
        const result = await fn(r);
        log(method, uri, 'ok', started);
        return result;
      } catch (e) {
        const err =
          e instanceof McpError
            ? e
            : new McpError(
                ErrorCode.InternalError,
                `The server could not answer: ${e instanceof Error ? e.message : String(e)}`,
              );
        log(method, uri, err.code, started, err.message);
        throw err;
      }
    });
  };
  const snap = (): CatalogSnapshot => catalog.current;
  const parse = (uri: unknown, schemes: string[] = ['skill:']): string => {
    const r = parseSkillUri(uri, { schemes });
    if (!r.ok) throw invalid(`${r.reason} Nothing was read.`);
    return r.uri.href;
  };

  handle(ListSkillsRequestSchema, SKILLS_LIST_METHOD, (req) => {
    const s = snap();
    const cursor = typeof req.params?.cursor === 'string' ? req.params.cursor : undefined;
    const p = page(s.skills, decodeCursor('skills', cursor), sizes.skills, 'skills');
    return {
      skills: p.items.map((k) => k.entry),
      ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}),
    };
  });

  handle(GetSkillRequestSchema, SKILLS_GET_METHOD, (req) => {
    const href = parse(req.params?.uri);
    const skill = snap().bySkillUri.get(href);
    if (!skill) throw invalid(`No skill is served with the SKILL.md URI ${href}.`);
    return { skill: skill.entry };
  });

  handle(ReadDirectoryRequestSchema, DIRECTORY_READ_METHOD, (req) => {
    const href = parse(req.params?.uri);
    const target = snap().targets.get(href);
    if (!target || target.kind !== 'directory')
      throw invalid(`${href} is not a served skill folder.`);
    const children = target.skill.children.get(target.relDir) ?? [];
    const cursor = typeof req.params?.cursor === 'string' ? req.params.cursor : undefined;
    const p = page<DirectoryResource>(
      children,
      decodeCursor('dir', cursor, href),
      sizes.directory,
      'dir',
      href,
    );
    return { resources: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
  });

  handle(ReadResourceRequestSchema, 'resources/read', async (req) => {
    const href = parse(req.params?.uri, ['skill:', 'resource:']);
    const s = snap();
    const target = s.targets.get(href);
    if (target?.kind === 'file') return { contents: [fileContents(href, target.file)] };
    if (target?.kind === 'directory')
      throw invalid(`${href} is a folder. List it with resources/directory/read.`);
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
    throw invalid(`No served resource has the URI ${href}.`);
  });

  handle(ListResourcesRequestSchema, 'resources/list', (req) => {
    const all = listedResources(snap(), legacy, personal);
    const cursor = typeof req.params?.cursor === 'string' ? req.params.cursor : undefined;
    const p = page(all, decodeCursor('resources', cursor), sizes.resources, 'resources');
    return { resources: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
  });

  handle(ListResourceTemplatesRequestSchema, 'resources/templates/list', () => ({
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

  handle(SubscribeRequestSchema, 'resources/subscribe', (req) => {
    const href = parse(req.params?.uri, ['skill:', 'resource:']);
    const s = snap();
    // Why refuse: a subscription to a URI we do not serve could never be updated (SEP-2164: not found is -32602).
    if (!s.targets.has(href) && !legacyView(s, { archives: legacy, personal }).byUri.has(href))
      throw invalid(`No served resource has the URI ${href}, so there is nothing to subscribe to.`);
    if (!subscriptions.has(href) && subscriptions.size >= maxSubscriptions)
      // -32600: the request is well formed, but this session may not hold more (a per-session bound on memory).
      throw new McpError(
        ErrorCode.InvalidRequest,
        `This session already follows ${maxSubscriptions} resources, the most it may. Unsubscribe from some first.`,
      );
    subscriptions.add(href);
    return {};
  });

  handle(UnsubscribeRequestSchema, 'resources/unsubscribe', (req) => {
    subscriptions.delete(parse(req.params?.uri, ['skill:', 'resource:']));
    return {};
  });

  if (tools) {
    handle(ListToolsRequestSchema, 'tools/list', () => ({ tools: TOOLS }));
    handle(CallToolRequestSchema, 'tools/call', (req) => {
      const name = req.params?.name;
      const args = (req.params?.arguments ?? {}) as Record<string, unknown>;
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
        if (e instanceof McpError)
          return toolText(e.message.replace(/^MCP error -?\d+: /, ''), true);
        throw e;
      }
    });
  }

  if (prompts) {
    handle(ListPromptsRequestSchema, 'prompts/list', () => ({
      prompts: skillPrompts(snap().skills).map((p) => ({
        name: p.name,
        description: p.description,
        arguments: p.arguments,
      })),
    }));
    handle(GetPromptRequestSchema, 'prompts/get', (req) => {
      const name = req.params?.name;
      const prompt = skillPrompts(snap().skills).find((p) => p.name === name);
      if (!prompt) throw invalid(`No prompt is named "${String(name)}".`);
      const values = (req.params?.arguments ?? {}) as Record<string, string | undefined>;
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
            ? `${prompt.description} (Contains ${commands.length} shell command line(s) left as text; nothing was run.)`
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
    const sends: Promise<void>[] = [];
    if (change.listChanged) {
      sends.push(server.sendResourceListChanged());
      if (prompts) sends.push(server.sendPromptListChanged());
    } else if (prompts && change.changedSkills.length > 0)
      sends.push(server.sendPromptListChanged());
    if (subscriptions.size > 0) {
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
      for (const uri of updated)
        if (subscriptions.has(uri)) sends.push(server.sendResourceUpdated({ uri }));
    }
    // A closed transport rejects; the next change simply finds no listener once disposed.
    for (const p of sends) p.catch(() => undefined);
  };
  const unsubscribe = subscribe(catalog, onChange);
  return {
    server,
    async connect(transport: Transport): Promise<void> {
      await server.connect(transport);
      const deliver = transport.onmessage;
      transport.onmessage = (message, extra) => {
        const schema = isRequest(message) ? schemas.get(message.method) : undefined;
        const problem = schema && paramsProblem(schema, message as JSONRPCRequest);
        if (problem) {
          log(
            (message as JSONRPCRequest).method,
            undefined,
            problem.error.code,
            performance.now(),
            problem.error.message,
          );
          void transport.send(problem);
          return;
        }
        deliver?.(message, extra);
      };
    },
    dispose: unsubscribe,
  };
}
