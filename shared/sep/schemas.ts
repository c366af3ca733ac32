/**
 * zod schemas for SEP-2640 requests and results (docs/skills-over-mcp.md §3–§4). Results are
 * `loose` (unknown fields kept) because a newer peer may add fields; requests are what the
 * embedded server registers with `Server.setRequestHandler`.
 */
import { z } from 'zod';
import { DIGEST_PATTERN } from './digest';
import { DIRECTORY_READ_METHOD, SKILLS_GET_METHOD, SKILLS_LIST_METHOD } from './constants';

/** One file of a skill: URI, digest of its raw bytes, byte length (SEP-2640 §3). */
export const SkillResourceEntrySchema = z.looseObject({
  uri: z.string().min(1),
  digest: z.string().regex(DIGEST_PATTERN),
  size: z.number().int().nonnegative(),
});

/** The frontmatter as JSON: `name` and `description` are always there, every other field verbatim. */
export const SkillFrontmatterSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().min(1),
});

/** A complete manifest, or `"dynamic"` for generated skills (SEP-2640 §3). */
export const SkillResourcesSchema = z.union([
  z.array(SkillResourceEntrySchema),
  z.literal('dynamic'),
]);

/** One skill entry as `skills/list` and `skills/get` carry it. */
export const SkillEntrySchema = z.looseObject({
  uri: z.string().min(1),
  frontmatter: SkillFrontmatterSchema,
  resources: SkillResourcesSchema,
  _meta: z.record(z.string(), z.unknown()).optional(),
});

/** Result of `skills/list`. */
export const ListSkillsResultSchema = z.looseObject({
  skills: z.array(SkillEntrySchema),
  nextCursor: z.string().optional(),
});

/** Result of `skills/get`. */
export const GetSkillResultSchema = z.looseObject({ skill: SkillEntrySchema });

/** A child of a directory resource: a file with its usual metadata, or a folder as `inode/directory`. */
export const DirectoryResourceSchema = z.looseObject({
  uri: z.string().min(1),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
});

/** Result of `resources/directory/read`. */
export const ReadDirectoryResultSchema = z.looseObject({
  resources: z.array(DirectoryResourceSchema),
  nextCursor: z.string().optional(),
});

/** The capability value under `extensions["io.modelcontextprotocol/skills"]`. */
export const SkillsCapabilitySchema = z.looseObject({ directoryRead: z.boolean().optional() });

const RequestMeta = z.looseObject({}).optional();

/** `skills/list` request (params `{cursor?}`). */
export const ListSkillsRequestSchema = z.object({
  method: z.literal(SKILLS_LIST_METHOD),
  params: z.looseObject({ cursor: z.string().optional(), _meta: RequestMeta }).optional(),
});

/** `skills/get` request (params `{uri}`). The URI is checked by the handler, so a bad one gets a clear -32602. */
export const GetSkillRequestSchema = z.object({
  method: z.literal(SKILLS_GET_METHOD),
  params: z.looseObject({ uri: z.string(), _meta: RequestMeta }),
});

/** `resources/directory/read` request (params `{uri, cursor?}`). */
export const ReadDirectoryRequestSchema = z.object({
  method: z.literal(DIRECTORY_READ_METHOD),
  params: z.looseObject({ uri: z.string(), cursor: z.string().optional(), _meta: RequestMeta }),
});

/** A skill file entry. */
export type SkillResourceEntry = z.infer<typeof SkillResourceEntrySchema>;
/** A skill entry. */
export type SkillEntry = z.infer<typeof SkillEntrySchema>;
/** A `skills/list` result. */
export type ListSkillsResult = z.infer<typeof ListSkillsResultSchema>;
/** A `skills/get` result. */
export type GetSkillResult = z.infer<typeof GetSkillResultSchema>;
/** A child listed by `resources/directory/read`. */
export type DirectoryResource = z.infer<typeof DirectoryResourceSchema>;
/** A `resources/directory/read` result. */
export type ReadDirectoryResult = z.infer<typeof ReadDirectoryResultSchema>;
