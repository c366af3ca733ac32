import { z } from 'zod';
import type { CatalogEntry, Collision, EvalReport, Catalog, UserOnlySkill } from '../agent-view';
import type {
  ExportPlan,
  ExportResult,
  ImportPreview,
  ImportResult,
  TargetId,
} from '../projection/types';
import type {
  ConnectionInput,
  ConnectionStatus,
  DirectoryPage,
  DiscoveryResult,
  FileRead,
  FileTreeNode,
  FileVerification,
  InspectedSkill,
  ProtocolLogEntry,
  ProvenanceRecord,
  ReportCard,
  SaveResult,
  SavedConnection,
  SkillVerification,
  SkillViewData,
} from '../inspector/types';
import type {
  AgentsOverview,
  InstallCheck,
  InstallReport,
  OutdatedEntry,
  RemoveReport,
  UpdateOutcome,
} from '../agents/types';
import { PROFILE_IDS, type Diagnostic, type FileView, type ProfileId } from '../validation/types';
import type { SafetyBadge, SafetyReviewResult } from '../safety/types';

/**
 * The one typed API between the renderer and main (docs/conventions.md §1). This is the only file
 * where a channel or event name is written: the Electron registrar, the preload bridge, the
 * browser-shell host and renderer/src/platform/api.ts are all derived from it.
 */

/** An error returned as data (Electron passes only a message across; we keep a code too). */
export const apiErrorSchema = z.object({
  /** Machine-readable: `not-found`, `invalid-input`, `outside-library`, `conflict`, `io`, `unsupported`. */
  code: z.string(),
  /** A plain sentence for the user. */
  message: z.string(),
  /** Technical detail (the OS error, the path). */
  detail: z.string().optional(),
});

/** A problem a handler reports instead of throwing. */
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Every channel answers `{ok: true, value}` or `{ok: false, error}`. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** A profile id (one reader of SKILL.md). */
export const profileIdSchema = z.enum(PROFILE_IDS as [ProfileId, ...ProfileId[]]);

const positionSchema = z.object({ line: z.number(), column: z.number(), offset: z.number() });
const textEditSchema = z.object({ start: z.number(), end: z.number(), newText: z.string() });

/** A finding of the validation core, as it crosses the boundary (mirrors shared/validation/types.ts). */
export const diagnosticSchema = z.object({
  ruleId: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  profile: profileIdSchema,
  message: z.string(),
  detail: z.string().optional(),
  range: z.object({ start: positionSchema, end: positionSchema }).optional(),
  file: z.string().optional(),
  field: z.string().optional(),
  fixes: z
    .array(
      z.object({
        title: z.string(),
        edits: z.array(textEditSchema),
        fileOperations: z
          .array(z.object({ kind: z.literal('rename-folder'), newName: z.string() }))
          .optional(),
        safe: z.boolean(),
      }),
    )
    .optional(),
});

// Why: the contract's schema and the core's type must describe the same thing; this fails to compile if they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _diagnosticMatchesCore: Same<z.infer<typeof diagnosticSchema>, Diagnostic> = true;
void _diagnosticMatchesCore;

const verdictsSchema = z.record(z.string(), z.enum(['valid', 'warning', 'error']));
const countsSchema = z.object({ error: z.number(), warning: z.number(), info: z.number() });

/** What the app remembers between runs. */
export const settingsSchema = z.object({
  roots: z.array(z.string()),
  lastOpenSkill: z.string().nullable(),
  /**
   * Targets checked on top of each skill's own format (shared/validation/choose-profiles.ts), e.g.
   * a claude.ai upload. Empty: every skill is checked for its own format only.
   */
  extraProfiles: z.array(profileIdSchema),
  /** Tokens the always-loaded skill catalog may take (docs/agent-view.md §5); absent: the default. */
  contextBudget: z.number().int().min(100).max(1_000_000).optional(),
  /** Tab moves the focus out of the text editor (true, the default) or types a tab (false). */
  tabMovesFocus: z.boolean().optional(),
});

/** Remembered settings. */
export type AppSettings = z.infer<typeof settingsSchema>;

const skillSummarySchema = z.object({
  /** Absolute path of the SKILL.md. */
  path: z.string(),
  /** The skill folder relative to the library root, `/` separated. */
  relativeDir: z.string(),
  /** The library root it was found under. */
  root: z.string(),
  /** `name` from the frontmatter, or the folder name when it has none. */
  name: z.string(),
  /** First line of the description ('' when none). */
  description: z.string(),
  /** Findings for the skill's own format and the extra targets (disk checks included). */
  counts: countsSchema,
  /** The profiles the core suggests for this skill's format. */
  suggestedProfiles: z.array(profileIdSchema),
  /** Its checks are still running (a large library's first listing): `counts` are not known yet; `library.changed` follows. */
  pending: z.boolean().optional(),
  /**
   * The skill folder is a link (SECURITY.md, "Linked skill folders"): `followed` when the link
   * policy lists it as the skill it points to (`target`, its real folder), else `broken` or
   * `refused` with the reason, and nothing of it is read.
   */
  linked: z
    .object({
      target: z.string(),
      state: z.enum(['followed', 'broken', 'refused']),
      reason: z.string().optional(),
    })
    .optional(),
});

const budgetSchema = z.object({
  total: z.number(),
  limit: z.number(),
  over: z.boolean(),
  shares: z.array(z.object({ name: z.string(), characters: z.number(), share: z.number() })),
  warning: z.string().optional(),
});

const libraryFindingSchema = z.object({
  ruleId: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  detail: z.string().optional(),
  skills: z.array(z.string()).optional(),
});

const fileEntrySchema = z.object({
  path: z.string(),
  kind: z.enum(['file', 'directory', 'symlink']),
  size: z.number(),
  view: z.enum(['text', 'image', 'binary']),
  /** Set when the file stays in the folder but is withheld whenever the skill is shared: why. */
  withheld: z.string().optional(),
});

const fileViewSchema = z.object({
  folderName: z.string(),
  relativePath: z.string().optional(),
  fileName: z.string().optional(),
  entries: z.array(
    z.object({
      path: z.string(),
      kind: z.enum(['file', 'directory', 'symlink']),
      size: z.number(),
      escapes: z.boolean().optional(),
      target: z.string().optional(),
      withheld: z.string().optional(),
    }),
  ),
  texts: z.record(z.string(), z.string()).optional(),
  takenNames: z.array(z.string()).optional(),
});
const _fileViewMatchesCore: Same<z.infer<typeof fileViewSchema>, FileView> = true;
void _fileViewMatchesCore;

const draftSchema = z.object({
  path: z.string(),
  text: z.string(),
  baseVersion: z.string().nullable(),
  savedAt: z.string(),
});

const serverStatusSchema = z.object({
  state: z.enum(['stopped', 'starting', 'running', 'stopping', 'failed']),
  roots: z.array(z.string()),
  url: z.string().optional(),
  host: z.string().optional(),
  port: z.number().optional(),
  token: z.string().optional(),
  sessions: z.number(),
  features: z.object({
    legacy: z.boolean(),
    personalMcp: z.boolean(),
    tools: z.boolean(),
    prompts: z.boolean(),
  }),
  error: z.string().optional(),
});

const requestLogEntrySchema = z.object({
  time: z.number(),
  transport: z.enum(['stdio', 'http']),
  session: z.string().optional(),
  method: z.string(),
  uri: z.string().optional(),
  status: z.union([z.literal('ok'), z.number()]),
  ms: z.number(),
  message: z.string().optional(),
});

const serverCatalogSchema = z.object({
  version: z.number(),
  builtAt: z.number(),
  buildMs: z.number(),
  served: z.array(
    z.object({
      uri: z.string(),
      skillPath: z.string(),
      name: z.string(),
      description: z.string(),
      root: z.string(),
      dir: z.string(),
      files: z.number(),
      bytes: z.number(),
      warnings: z.array(z.string()),
    }),
  ),
  excluded: z.array(
    z.object({
      root: z.string(),
      dir: z.string(),
      relativeDir: z.string(),
      name: z.string().optional(),
      reasons: z.array(z.string()),
    }),
  ),
});

/** The clients whose own config file the Server tab can write its setup into. */
export type McpClientId = 'claude-desktop' | 'cursor';

/** What "Add to …" did to a client's config file, or why it did nothing. */
export type AddToClientOutcome =
  | {
      status: 'added' | 'replaced';
      client: string;
      path: string;
      /** Where the version of the file before this one was kept (absent when there was none). */
      previous?: string;
    }
  | { status: 'already'; client: string; path: string }
  | { status: 'conflict'; client: string; path: string; name: string }
  | { status: 'refused'; client: string; path: string; message: string };

/** Everything the embedded-server panel shows. */
export const serverPanelSchema = z.object({
  status: serverStatusSchema,
  catalog: serverCatalogSchema.nullable(),
  requests: z.array(requestLogEntrySchema),
  clientSetup: z.array(
    z.object({
      id: z.string(),
      client: z.string(),
      transport: z.enum(['stdio', 'http']),
      where: z.string(),
      language: z.enum(['json', 'toml', 'shell']),
      text: z.string(),
      /** The client's own config file, which "Add to …" writes this setup into. */
      addTo: z
        .object({ client: z.enum(['claude-desktop', 'cursor']), path: z.string() })
        .optional(),
    }),
  ),
  /** Whether the token survives a restart (encrypted with the OS keychain in the desktop app). */
  tokenStored: z.boolean(),
});

/**
 * Outputs that main builds from the pure types in shared/ are typed, not re-validated at run time:
 * they never come from outside. Inputs, which do, are always parsed (docs/conventions.md §2).
 */
function built<T>() {
  return z.custom<T>(() => true);
}

/** "Trust anyway" at a point of trust: the user's reason and how many days it holds (docs/safety-review.md). */
const trustSchema = z.object({
  reason: z.string().trim().min(3).max(2000),
  days: z.number().int().min(1).max(365),
});

/** Where skills are installed: the user's folders (global) or one project's. */
const scopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('global') }),
  z.object({ kind: z.literal('project'), dir: z.string().min(1).max(4096) }),
]);

const targetIdSchema = z.enum([
  'claude-ai',
  'skill',
  'claude-api',
  'archive-tgz',
  'archive-zip',
  'claude-code',
  'folder',
] as [TargetId, ...TargetId[]]);

const exportOptionsSchema = z.object({
  skillDir: z.string().min(1),
  target: targetIdSchema,
  /** Paths the user keeps despite a warning (a secret-looking file, a link inside the skill). */
  keep: z.array(z.string()).optional(),
  /** Archive and folder targets: project the frontmatter as for an upload. */
  project: z.boolean().optional(),
  /** Archives: the file to write; folder copy: the folder that receives `<name>/`. */
  out: z.string().optional(),
  /** Claude Code install: the user's skills folder or a project's. */
  claudeCode: z
    .union([
      z.object({ scope: z.literal('user') }),
      z.object({ scope: z.literal('project'), project: z.string().min(1) }),
    ])
    .optional(),
  sha256File: z.boolean().optional(),
});

/** Which new-skill template to start from. */
export const templateIdSchema = z.enum([
  'blank',
  'references',
  'scripts',
  'x-personal-mcp',
  'universal-tool',
  'claude-code-command',
]);

/** A skill as the library list shows it. */
export type SkillSummary = z.infer<typeof skillSummarySchema>;

const directoryEntrySchema = z.object({ name: z.string(), path: z.string() });

// ---- inspector ---------------------------------------------------------------------

/** Names of HTTP headers and environment variables: printable, no separators (RFC 9110 token, POSIX name). */
const headerNameSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Not a valid header name.');
const envNameSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Not a valid variable name.');

/** A connection as the user types it (secrets included: they go to main once and never come back). */
export const connectionInputSchema = z
  .object({
    label: z.string().trim().min(1).max(100),
    kind: z.enum(['http', 'sse', 'stdio']),
    url: z.string().max(4096).optional(),
    headers: z
      .array(
        z.object({
          name: headerNameSchema,
          value: z.string().max(8192),
          secret: z.boolean().optional(),
        }),
      )
      .max(50)
      .optional(),
    bearerToken: z.string().max(8192).optional(),
    oauth: z.boolean().optional(),
    command: z.string().max(4096).optional(),
    args: z.array(z.string().max(8192)).max(200).optional(),
    env: z
      .array(
        z.object({
          name: envNameSchema,
          value: z.string().max(8192),
          secret: z.boolean().optional(),
        }),
      )
      .max(200)
      .optional(),
    cwd: z.string().max(4096).optional(),
  })
  .superRefine((c, ctx) => {
    // Why http(s) only: the inspector speaks MCP over HTTP or a program it starts; any other scheme
    // (file:, javascript:, ...) is refused before main sees it.
    if (c.kind !== 'stdio' && !/^https?:\/\/[^\s]+$/i.test(c.url ?? ''))
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'Type the server address, starting with http:// or https://.',
      });
    if (c.kind === 'stdio' && !c.command?.trim())
      ctx.addIssue({
        code: 'custom',
        path: ['command'],
        message: 'Type the program that starts the server.',
      });
  });
const _connectionInputMatches: Same<z.infer<typeof connectionInputSchema>, ConnectionInput> = true;
void _connectionInputMatches;

/** A skill key: `<server label>\n<SKILL.md uri>` (skills are keyed by server and URI, SEP-2640 §5). */
const skillKeySchema = z.string().min(3).max(8192);
const uriSchema = z.string().min(1).max(4096);
const connectionLabelSchema = z.string().trim().min(1).max(100);

const logFilterSchema = z.object({
  server: z.string().max(100).optional(),
  direction: z.enum(['out', 'in']).optional(),
  kind: z.enum(['request', 'response', 'error', 'notification']).optional(),
  method: z.string().max(200).optional(),
  text: z.string().max(1000).optional(),
  sinceSeq: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(5000).optional(),
});

/** A protocol log entry as events carry it: without the message (fetch it with `inspector.log` and `seq`). */
export type ProtocolLogSummary = Omit<ProtocolLogEntry, 'message'>;

/** An agent's own list of the skills on disk, as it writes it, and the skills not in it with why. */
export interface AgentListView {
  section: string;
  left: { location: string; why: string }[];
}

/** What the agent sees (docs/agent-view.md): the catalog as the window shows it. */
export interface AgentCatalogView {
  xml: string;
  /** Listed skills without their bodies (the footprint says how large each is). */
  skills: Omit<CatalogEntry, 'body'>[];
  collisions: Collision[];
  /** Skills left out of the block because only the user may start them (without their bodies). */
  userOnly: Omit<UserOnlySkill, 'body'>[];
  footprint: Catalog['footprint'];
  /**
   * Claude Code's skill list of the skills on disk, the section of its system prompt as it writes
   * it (shared/agent-view/claude-code-list.ts; docs/claude-code-listing.md); '' with no skill on
   * disk.
   */
  claudeCode: string;
  /**
   * What Codex makes of the skills on disk (shared/agent-view/codex-list.ts;
   * docs/codex-listing.md): the skill roots and lines of its list as it writes them ('' with none
   * listed), and the skills it leaves out of the list or skips, each with why.
   */
  codex: AgentListView;
  /**
   * What Gemini CLI makes of the skills on disk (shared/agent-view/gemini-list.ts;
   * docs/gemini-cli-listing.md): its `<available_skills>` list as it writes it ('' with none
   * listed), and the skills it leaves out or does not load, each with why.
   */
  gemini: AgentListView;
  /** Folders or files that could not be read, and skills listed from a SKILL.md not read as meant. */
  problems: { path: string; message: string }[];
  /** The always-loaded block against the user's budget, in tokens. */
  budget: { limit: number; used: number; over: boolean };
}

/** The channels: input and output schemas of each request the renderer can make. */
export const channels = {
  /** Which shell we run in and what it can do. */
  'app.info': {
    input: z.object({}),
    output: z.object({
      shell: z.enum(['electron', 'browser']),
      version: z.string(),
      platform: z.string(),
      homeDir: z.string(),
      /** True where a native folder dialog exists (Electron). */
      nativeDialogs: z.boolean(),
    }),
  },
  /** Ask the user for a folder with the native dialog (Electron only; the browser shell uses fs.browse). */
  'dialog.pickFolder': {
    input: z.object({ title: z.string().optional() }),
    output: z.object({ path: z.string().nullable() }),
  },
  /** List the sub-folders of a folder, for the browser shell's folder picker. */
  'fs.browse': {
    input: z.object({ path: z.string().optional() }),
    output: z.object({
      path: z.string(),
      parent: z.string().nullable(),
      folders: z.array(directoryEntrySchema),
      /** True when the folder itself contains a SKILL.md. */
      isSkill: z.boolean(),
    }),
  },
  /** The remembered settings. */
  'settings.get': { input: z.object({}), output: settingsSchema },
  /** Change the extra targets or the last open skill. */
  'settings.update': {
    input: z.object({
      extraProfiles: z.array(profileIdSchema).optional(),
      lastOpenSkill: z.string().nullable().optional(),
      contextBudget: z.number().int().min(100).max(1_000_000).optional(),
      tabMovesFocus: z.boolean().optional(),
    }),
    output: settingsSchema,
  },
  /** The usual skill folders that exist on this machine (~/.claude/skills, ~/.agents/skills, ...). */
  'library.suggestions': {
    input: z.object({ projectDir: z.string().optional() }),
    output: z.object({ places: z.array(z.object({ label: z.string(), path: z.string() })) }),
  },
  /** Add a folder as a library root (remembered) and scan it for skills. */
  'library.open': {
    input: z.object({ path: z.string().min(1) }),
    output: z.object({ root: z.string(), skills: z.array(skillSummarySchema) }),
  },
  /** Forget a library root (nothing on disk changes). */
  'library.close': {
    input: z.object({ root: z.string().min(1) }),
    output: z.object({ roots: z.array(z.string()) }),
  },
  /** Every skill under the remembered roots, validated for its own format and the extra targets, plus library-wide findings. */
  'library.list': {
    input: z.object({}),
    output: z.object({
      roots: z.array(z.string()),
      skills: z.array(skillSummarySchema),
      findings: z.array(libraryFindingSchema),
      budget: budgetSchema,
      /** Roots that could not be read, with the reason. */
      problems: z.array(z.object({ root: z.string(), message: z.string() })),
    }),
  },
  /** Read a SKILL.md (or any text file inside an open library). */
  'skill.read': {
    input: z.object({ path: z.string().min(1) }),
    output: z.object({
      path: z.string(),
      text: z.string(),
      /** Fingerprint of the bytes read; pass it back to skill.save to detect outside edits. */
      version: z.string(),
    }),
  },
  /** Save text atomically. With `expectedVersion`, refuse when the file changed on disk meanwhile. */
  'skill.save': {
    input: z.object({
      path: z.string().min(1),
      text: z.string(),
      expectedVersion: z.string().optional(),
    }),
    output: z.object({ path: z.string(), version: z.string() }),
  },
  /** Rename a skill's folder to a sibling name (the name/folder fix); never replaces anything. */
  'skill.renameFolder': {
    input: z.object({ path: z.string().min(1), newName: z.string().min(1) }),
    /** The SKILL.md's new path. */
    output: z.object({ path: z.string() }),
  },
  /** Validate a saved SKILL.md with every disk check (links, references, package size, library). */
  'skill.validate': {
    input: z.object({ path: z.string().min(1), profiles: z.array(profileIdSchema).optional() }),
    output: z.object({
      diagnostics: z.array(diagnosticSchema),
      verdicts: verdictsSchema,
      counts: countsSchema,
    }),
  },
  /** The skill folder as the core's folder rules see it, so the editor validates instantly with the same rules. */
  'skill.fileView': {
    input: z.object({ path: z.string().min(1) }),
    output: fileViewSchema,
  },
  /** Create a new skill folder from a template (the wizard). Refuses if the folder exists. */
  'skill.create': {
    input: z.object({
      root: z.string().min(1),
      name: z.string().min(1),
      description: z.string(),
      template: templateIdSchema,
    }),
    output: z.object({ path: z.string(), dir: z.string() }),
  },
  /** The files and folders of a skill. */
  'skill.files': {
    input: z.object({ skillDir: z.string().min(1) }),
    output: z.object({ entries: z.array(fileEntrySchema) }),
  },
  /** Create a file or folder inside a skill (never replaces). */
  'file.create': {
    input: z.object({
      skillDir: z.string().min(1),
      path: z.string().min(1),
      kind: z.enum(['file', 'directory']),
      text: z.string().optional(),
    }),
    output: z.object({ path: z.string() }),
  },
  /** Rename or move a file or folder inside a skill (never replaces). */
  'file.rename': {
    input: z.object({
      skillDir: z.string().min(1),
      from: z.string().min(1),
      to: z.string().min(1),
    }),
    output: z.object({ path: z.string() }),
  },
  /** Move a file or folder to Skillbench's trash; the token undoes it. */
  'file.delete': {
    input: z.object({ skillDir: z.string().min(1), path: z.string().min(1) }),
    output: z.object({ undoToken: z.string() }),
  },
  /** Undo a delete. */
  'file.restore': {
    input: z.object({ undoToken: z.string().min(1) }),
    output: z.object({ path: z.string() }),
  },
  /** Add a dropped file to a skill (base64 bytes; never replaces). */
  'file.import': {
    input: z.object({ skillDir: z.string().min(1), path: z.string().min(1), base64: z.string() }),
    output: z.object({ path: z.string() }),
  },
  /** Show a file: text, an image, or only its size. */
  'file.preview': {
    input: z.object({ skillDir: z.string().min(1), path: z.string().min(1) }),
    output: z.object({
      path: z.string(),
      view: z.enum(['text', 'image', 'binary']),
      size: z.number(),
      text: z.string().optional(),
      dataUrl: z.string().optional(),
    }),
  },
  /** Keep an unsaved buffer so a crash loses nothing. */
  'drafts.put': {
    input: z.object({
      path: z.string().min(1),
      text: z.string(),
      baseVersion: z.string().nullable(),
    }),
    output: z.object({}),
  },
  /** Unsaved buffers left from an earlier session. */
  'drafts.list': { input: z.object({}), output: z.object({ drafts: z.array(draftSchema) }) },
  /** Forget an unsaved buffer. */
  'drafts.discard': { input: z.object({ path: z.string().min(1) }), output: z.object({}) },
  /** Plan an export without writing: projected SKILL.md, every file with why it is in or out, checks. */
  'export.plan': {
    input: exportOptionsSchema,
    output: z.object({
      plan: built<ExportPlan>(),
      diff: z.array(z.object({ kind: z.enum(['same', 'added', 'removed']), text: z.string() })),
      defaultOut: z.string(),
    }),
  },
  /** Export. Blocked on errors (folder copies may pass `force`); an existing copy is shown as a diff until `overwrite`. */
  'export.run': {
    input: exportOptionsSchema.extend({
      overwrite: z.boolean().optional(),
      force: z.boolean().optional(),
      /** Export a skill the safety review calls "Don't trust" anyway, for this reason and this long. */
      trust: trustSchema.optional(),
    }),
    output: built<ExportResult>(),
  },
  /** Show a written file or folder in the system's file manager (Electron only). */
  'export.reveal': {
    input: z.object({ path: z.string().min(1) }),
    output: z.object({ shown: z.boolean() }),
  },
  /** Check an archive, folder or SKILL.md for import; nothing is written. */
  'import.preview': {
    input: z.object({ source: z.string().min(1), pick: z.string().optional() }),
    output: built<ImportPreview>(),
  },
  /** Import into a library root: refused, a choice of skills, a name conflict, or imported. */
  'import.run': {
    input: z.object({
      source: z.string().min(1),
      into: z.string().min(1),
      pick: z.string().optional(),
      onConflict: z.enum(['rename', 'replace']).optional(),
      /** Import a skill the safety review calls "Don't trust" anyway, for this reason and this long. */
      trust: trustSchema.optional(),
    }),
    output: built<ImportResult>(),
  },
  /** Hand main the bytes of a file dropped on the window (browser windows cannot see its path); returns a path for import. */
  'import.upload': {
    input: z.object({ name: z.string().min(1).max(255), base64: z.string() }),
    output: z.object({ source: z.string() }),
  },
  /** Saved inspector connections (secrets shown only as `hasSecret`) and whether secrets can be kept. */
  'inspector.connections': {
    input: z.object({}),
    output: z.object({ connections: built<SavedConnection[]>(), secretsStored: z.boolean() }),
  },
  /** Save or update a connection; secrets are sealed with the OS keychain or refused. */
  'inspector.saveConnection': {
    input: z.object({
      connection: connectionInputSchema,
      id: z.string().min(1).max(200).optional(),
    }),
    output: built<SavedConnection>(),
  },
  /** Delete a saved connection. */
  'inspector.removeConnection': {
    input: z.object({ id: z.string().min(1).max(200) }),
    output: z.object({ removed: z.boolean() }),
  },
  /** Connect to a remote skill server: a saved connection (by id) or a one-off one. */
  'inspector.connect': {
    input: z.object({
      target: z.union([
        z.object({ savedId: z.string().min(1).max(200), label: connectionLabelSchema.optional() }),
        connectionInputSchema,
      ]),
    }),
    output: built<ConnectionStatus>(),
  },
  /** Connect again with the same settings. */
  'inspector.reconnect': {
    input: z.object({ label: connectionLabelSchema }),
    output: built<ConnectionStatus>(),
  },
  /** Cancel a connection attempt or whatever is in flight on a connection. */
  'inspector.cancel': { input: z.object({ label: connectionLabelSchema }), output: z.object({}) },
  /** Close a connection and forget its skills. */
  'inspector.disconnect': {
    input: z.object({ label: connectionLabelSchema }),
    output: z.object({}),
  },
  /** The status of every connection. */
  'inspector.status': {
    input: z.object({}),
    output: z.object({ connections: built<ConnectionStatus[]>() }),
  },
  /** Discover a server's skills with fallbacks; the route taken and every step tried. */
  'inspector.discover': {
    input: z.object({
      label: connectionLabelSchema,
      templateUris: z.array(uriSchema).max(50).optional(),
      allRoutes: z.boolean().optional(),
    }),
    output: built<DiscoveryResult>(),
  },
  /** Every discovered skill (all servers or one). */
  'inspector.skills': {
    input: z.object({ server: z.string().max(100).optional() }),
    output: z.object({ skills: built<InspectedSkill[]>() }),
  },
  /** A skill's screen: verified SKILL.md, frontmatter, validation under a profile, file tree. */
  'inspector.view': {
    input: z.object({ key: skillKeySchema, profile: profileIdSchema.optional() }),
    output: built<SkillViewData>(),
  },
  /** The file tree from the manifest with each file's status so far. */
  'inspector.tree': { input: z.object({ key: skillKeySchema }), output: built<FileTreeNode>() },
  /** Read and verify one file; content only when it may be used. */
  'inspector.readFile': {
    input: z.object({ key: skillKeySchema, uri: uriSchema }),
    output: built<FileRead>(),
  },
  /** One page of a live folder listing (servers that declared `directoryRead`). */
  'inspector.readDirectory': {
    input: z.object({
      key: skillKeySchema,
      uri: uriSchema,
      cursor: z.string().max(4096).optional(),
    }),
    output: built<DirectoryPage>(),
  },
  /** Verify every file of a skill. */
  'inspector.verify': {
    input: z.object({ key: skillKeySchema, walk: z.boolean().optional() }),
    output: built<SkillVerification>(),
  },
  /** File statuses so far. */
  'inspector.fileStatuses': {
    input: z.object({ key: skillKeySchema }),
    output: z.object({ files: built<FileVerification[]>() }),
  },
  /** Fetch a skill's entry again through `skills/get`; earlier statuses are forgotten. */
  'inspector.refresh': {
    input: z.object({ key: skillKeySchema }),
    output: built<InspectedSkill>(),
  },
  /** Check a server against the Skills extension; the card plus its Markdown and JSON exports. */
  'inspector.report': {
    input: z.object({ label: connectionLabelSchema }),
    output: z.object({ report: built<ReportCard>(), markdown: z.string(), json: z.string() }),
  },
  /** Protocol log entries matching a filter; with `seq`, only that entry. */
  'inspector.log': {
    input: logFilterSchema.extend({ seq: z.number().int().min(1).optional() }),
    output: z.object({ entries: built<ProtocolLogEntry[]>() }),
  },
  /** The protocol log (filtered) as a JSON document. */
  'inspector.exportLog': { input: logFilterSchema, output: z.object({ json: z.string() }) },
  /**
   * Write a skill's verified files into an open library root; refused when any file fails
   * verification. A name already there answers `conflict` until `onConflict` says: keep both
   * (`rename`: saved as the suggested `name-N`) or `replace` (the old folder goes to the trash).
   */
  'inspector.saveToLibrary': {
    input: z.object({
      key: skillKeySchema,
      libraryRoot: z.string().min(1).max(4096),
      onConflict: z.enum(['rename', 'replace']).optional(),
      /** Save a skill the safety review calls "Don't trust" anyway, for this reason and this long. */
      trust: trustSchema.optional(),
    }),
    output: built<SaveResult>(),
  },
  /** The safety review of a remote skill's verified files (nothing is written). */
  'inspector.review': {
    input: z.object({ key: skillKeySchema }),
    output: built<SafetyReviewResult>(),
  },
  /** A verified copy of a skill in a new temp folder, for the exporter. */
  'inspector.exportForUpload': {
    input: z.object({ key: skillKeySchema }),
    output: built<SaveResult>(),
  },
  /** Where skills saved from servers came from. */
  'inspector.provenance': {
    input: z.object({}),
    output: z.object({ records: built<ProvenanceRecord[]>() }),
  },
  /** The <available_skills> block for the open library folders and the connected servers, with collisions and footprint. */
  'agentView.catalog': { input: z.object({}), output: built<AgentCatalogView>() },
  /** Run every listed library skill's evals/triggers.json against the catalog. */
  'agentView.evals': {
    input: z.object({ threshold: z.number().min(-1000).max(1000).optional() }),
    output: built<EvalReport>(),
  },
  /** The agents on this computer, their skills folders and every skill each loads, with its state. */
  'agents.overview': { input: z.object({}), output: built<AgentsOverview>() },
  /** Add a project folder whose agent skills folders the Agents view lists. */
  'agents.addProject': {
    input: z.object({ dir: z.string().min(1).max(4096) }),
    output: z.object({ projects: z.array(z.string()) }),
  },
  /** Forget a project folder (nothing in it is touched). */
  'agents.removeProject': {
    input: z.object({ dir: z.string().min(1).max(4096) }),
    output: z.object({ projects: z.array(z.string()) }),
  },
  /** Validate library skills for each chosen agent's reader, before installing. */
  'agents.check': {
    input: z.object({
      skills: z.array(z.string().min(1)).min(1),
      agents: z.array(z.string()).min(1),
    }),
    output: z.object({ checks: built<InstallCheck[]>() }),
  },
  /** Install library skills into agents (staged and atomic; a name conflict asks unless told). */
  'agents.install': {
    input: z.object({
      skills: z.array(z.string().min(1)).min(1),
      agents: z.array(z.string()).min(1),
      scope: scopeSchema,
      mode: z.enum(['link', 'copy']).optional(),
      onConflict: z.enum(['ask', 'rename', 'replace']).optional(),
      /** Install a skill the safety review calls "Don't trust" anyway, for this reason and this long. */
      trust: trustSchema.optional(),
    }),
    output: built<InstallReport>(),
  },
  /** Check a skill discovered in the inspector for each agent's reader; it is read and verified again first. */
  'agents.checkRemote': {
    input: z.object({ key: skillKeySchema, agents: z.array(z.string()).min(1) }),
    output: z.object({ checks: built<InstallCheck[]>(), refused: z.string().optional() }),
  },
  /** Install a skill discovered in the inspector, read and verified again: only a verified skill is installed. */
  'agents.installRemote': {
    input: z.object({
      key: skillKeySchema,
      agents: z.array(z.string()).min(1),
      scope: scopeSchema,
      mode: z.enum(['link', 'copy']).optional(),
      onConflict: z.enum(['ask', 'rename', 'replace']).optional(),
      /** Install a skill the safety review calls "Don't trust" anyway, for this reason and this long. */
      trust: trustSchema.optional(),
    }),
    output: built<InstallReport>(),
  },
  /** Remove a skill from agents (to the trash); the answer carries an undo token. */
  'agents.uninstall': {
    input: z.object({
      name: z.string().min(1),
      agents: z.array(z.string()).min(1),
      scope: scopeSchema,
    }),
    output: built<RemoveReport>(),
  },
  /** Put back what a removal moved to the trash. */
  'agents.restore': {
    input: z.object({ undoToken: z.string().min(1) }),
    output: z.object({ restored: z.array(z.string()), refused: z.array(z.string()) }),
  },
  /** Compare installed skills with their sources (with the SKILL.md diff). */
  'agents.outdated': {
    input: z.object({}),
    output: z.object({ entries: built<OutdatedEntry[]>() }),
  },
  /** Update skills; a copy edited since install needs a choice (keep mine, take theirs, merge). */
  'agents.update': {
    input: z.object({
      names: z.array(z.string()).optional(),
      choice: z.enum(['keep-local', 'take-theirs', 'merge']).optional(),
      resolved: z
        .object({
          name: z.string(),
          files: z
            .array(
              z.object({
                path: z.string().min(1).max(4096),
                text: z.string().optional(),
                keep: z.enum(['mine', 'theirs']).optional(),
              }),
            )
            .max(512),
        })
        .optional(),
      trust: trustSchema.optional(),
      /** Only this scope (one name can be installed globally and in a project, edited apart). */
      scope: scopeSchema.optional(),
    }),
    output: z.object({ outcomes: built<UpdateOutcome[]>() }),
  },
  /** The safety review of a skill folder in the library (docs/safety-review.md). */
  'safety.review': {
    input: z.object({ path: z.string().min(1).max(4096) }),
    output: built<SafetyReviewResult>(),
  },
  /** "Trust anyway": accept a skill's findings for this content (`hash`) with a reason, for `days`. */
  'safety.trust': {
    input: z
      .object({ path: z.string().min(1).max(4096), hash: z.string().regex(/^[0-9a-f]{64}$/) })
      .extend(trustSchema.shape),
    output: built<SafetyReviewResult>(),
  },
  /** Stop trusting: remove the acceptance of this content. */
  'safety.untrust': {
    input: z.object({
      path: z.string().min(1).max(4096),
      hash: z.string().regex(/^[0-9a-f]{64}$/),
    }),
    output: built<SafetyReviewResult>(),
  },
  /** Every library skill's verdict, for the badges in the list. */
  'safety.library': {
    input: z.object({}),
    output: z.object({ skills: built<SafetyBadge[]>() }),
  },
  /**
   * The verdict of every skill the agents load (the real folder of each, links followed), for the
   * badges in the Agents view: a skill another tool installed is reviewed too.
   */
  'safety.agents': {
    input: z.object({}),
    output: z.object({ skills: built<SafetyBadge[]>() }),
  },
  /** The embedded MCP server: status, catalog, request log and client setup. */
  'server.panel': { input: z.object({}), output: serverPanelSchema },
  /** Start serving the library on 127.0.0.1 (bearer token required). */
  'server.start': { input: z.object({}), output: serverPanelSchema },
  /** Stop serving. */
  'server.stop': { input: z.object({}), output: serverPanelSchema },
  /** Replace the token; clients with the old one are disconnected. */
  'server.regenerateToken': { input: z.object({}), output: serverPanelSchema },
  /**
   * Write the stdio setup into a client's own config file ("Add to Claude Desktop"); `replace`
   * when the user chose to replace a different server of the same name.
   */
  'server.addToClient': {
    input: z.object({
      client: z.enum(['claude-desktop', 'cursor']),
      replace: z.boolean().optional(),
    }),
    output: built<AddToClientOutcome>(),
  },
} as const;

/** Events main pushes to the renderer. Names are past tense (docs/conventions.md §5). */
export const events = {
  /** A skill file was written by Skillbench or changed on disk. */
  'skill.changed': z.object({ path: z.string(), version: z.string().nullable() }),
  /** Something changed under a library root (on disk, or a first listing's checks finished): list again. */
  'library.changed': z.object({ root: z.string() }),
  /** The embedded server's state, catalog or token changed. */
  'server.changed': z.object({}),
  /** The embedded server answered or refused a request. */
  'server.requested': requestLogEntrySchema,
  /** An inspector connection changed state (connecting, connected, failed, ...). */
  'inspector.changed': built<ConnectionStatus>(),
  /** A protocol message went to or came from a remote server (summary without the message). */
  'inspector.logged': built<ProtocolLogSummary>(),
  /** Discovery on a server finished. */
  'inspector.discovered': built<DiscoveryResult>(),
  /** One file of an inspected skill was read and checked. */
  'inspector.fileChecked': built<{ key: string; verification: FileVerification }>(),
  /** A whole skill was verified. */
  'inspector.verified': built<SkillVerification>(),
} as const;

/** Prefix of the Electron IPC channel names (`skillbench:skill.save`, `skillbench:event`). */
export const IPC_PREFIX = 'skillbench:';

/** A channel name. */
export type ChannelName = keyof typeof channels;
/** An event name. */
export type EventName = keyof typeof events;
/** What a channel takes. */
export type ChannelInput<K extends ChannelName> = z.infer<(typeof channels)[K]['input']>;
/** What a channel gives back on success. */
export type ChannelOutput<K extends ChannelName> = z.infer<(typeof channels)[K]['output']>;
/** An event's payload. */
export type EventPayload<K extends EventName> = z.infer<(typeof events)[K]>;

/** Every channel name, for the derived shells. */
export const CHANNEL_NAMES = Object.keys(channels) as ChannelName[];
/** Every event name. */
export const EVENT_NAMES = Object.keys(events) as EventName[];

/** Is `name` one of our channels? (Untrusted strings come from the wire.) */
export function isChannelName(name: string): name is ChannelName {
  return Object.prototype.hasOwnProperty.call(channels, name);
}

/** One async function per channel, mapped from `channels`, so a new channel must be handled everywhere. */
type ApiShape = {
  [K in ChannelName]: (input: ChannelInput<K>) => Promise<Result<ChannelOutput<K>>>;
};

/** The client-side shape: the renderer's `api` has this type. */
export type ApiClient = ApiShape;

/**
 * The main-side shape: one handler per channel, given a parsed input. A missing handler is a
 * compile error wherever an `ApiHandlers` is built (see main/api/handlers.test.ts).
 */
export type ApiHandlers = ApiShape;

/** Build a success result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** Build an error result. */
export function fail<T = never>(code: string, message: string, detail?: string): Result<T> {
  return { ok: false, error: detail === undefined ? { code, message } : { code, message, detail } };
}

/**
 * Parse an untrusted input for `name`. Returns the typed input or an error result with a plain
 * message (docs/conventions.md §2: validate at the boundary, once).
 */
export function parseChannelInput<K extends ChannelName>(
  name: K,
  raw: unknown,
): { ok: true; value: ChannelInput<K> } | { ok: false; error: ApiError } {
  const parsed = channels[name].input.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as ChannelInput<K> };
  return {
    ok: false,
    error: {
      code: 'invalid-input',
      message: 'Skillbench received a request it could not understand.',
      detail: parsed.error.issues
        .map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`)
        .join('; '),
    },
  };
}
