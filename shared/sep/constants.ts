/**
 * Wire constants of the MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`).
 * Source: docs/skills-over-mcp.md §2–§4.
 */

/** The extension id a server declares under `capabilities.extensions`. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** Enumerates a server's skills (paginated). */
export const SKILLS_LIST_METHOD = 'skills/list';

/** One skill's entry by its `SKILL.md` URI. */
export const SKILLS_GET_METHOD = 'skills/get';

/** Direct children of a directory resource (gated by `directoryRead`). */
export const DIRECTORY_READ_METHOD = 'resources/directory/read';

/** Mime type of directory resources (SEP-2640 §1). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** Mime type of `SKILL.md` resources (SEP-2640 §1). */
export const SKILL_MD_MIME_TYPE = 'text/markdown';

/** The skill file's fixed name; always explicit in URIs (SEP-2640 §1). */
export const SKILL_MD = 'SKILL.md';

/** The URI scheme Skillbench serves skills under. */
export const SKILL_SCHEME = 'skill:';

/** Limits a host must accept per skill; a server should not exceed them (SEP-2640 §3). */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** Prefix reserved in `frontmatter.metadata` keys (SEP-2640 §3). */
export const RESERVED_METADATA_PREFIX = 'io.modelcontextprotocol/';

/** Prefix for extra skill data in a SKILL.md resource's `_meta` (SEP-2640 §1). */
export const SKILL_META_PREFIX = 'io.modelcontextprotocol.skills/';

/** JSON-RPC "Invalid params": the answer for unknown skills, non-directories and unsafe URIs (SEP-2640 §3–§4). */
export const INVALID_PARAMS = -32602;

/** URI of the legacy discovery index (docs/skills-over-mcp.md §6 A/B). */
export const LEGACY_INDEX_URI = 'skill://index.json';
