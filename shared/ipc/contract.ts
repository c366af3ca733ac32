import { z } from 'zod';

/**
 * The one typed API between the renderer and main (CONVENTIONS 1). This is the only file
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
});

/** A skill as the library list shows it. */
export type SkillSummary = z.infer<typeof skillSummarySchema>;

const directoryEntrySchema = z.object({ name: z.string(), path: z.string() });

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
  /** Open a folder as a library: scan it for skills. */
  'library.open': {
    input: z.object({ path: z.string().min(1) }),
    output: z.object({ root: z.string(), skills: z.array(skillSummarySchema) }),
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
    input: z.object({ path: z.string().min(1), text: z.string(), expectedVersion: z.string().optional() }),
    output: z.object({ path: z.string(), version: z.string() }),
  },
} as const;

/** Events main pushes to the renderer. Names are past tense (CONVENTIONS 5). */
export const events = {
  /** A skill file was written by Skillbench or changed on disk. */
  'skill.changed': z.object({ path: z.string(), version: z.string().nullable() }),
  /** Skills appeared or disappeared under a library root. */
  'library.changed': z.object({ root: z.string() }),
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
 * message (CONVENTIONS 2: validate at the boundary, once).
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
      detail: parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; '),
    },
  };
}
