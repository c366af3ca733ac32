import type { TargetDefinition, TargetId } from './types';

/** 1 MiB. */
const MIB = 1024 * 1024;

/**
 * Why 30,000,000 bytes and not 30 MiB: claude.ai only says "30MB"; we take the smaller reading
 * so that nothing we hand over is refused (docs/skill-format.md §2 claude-upload).
 */
export const UPLOAD_MAX_BYTES = 30_000_000;

/** Why 200: claude.ai's "Zip contains too many files (maximum 200)" (docs/skill-format.md §2 claude-upload). */
export const UPLOAD_MAX_FILES = 200;

/** Why 512 files / 16 MiB: the Agent Skills archive and mcp-serve limits (docs/skill-format.md §2 mcp-serve, §3). */
export const ARCHIVE_MAX_FILES = 512;

/** See {@link ARCHIVE_MAX_FILES}. */
export const ARCHIVE_MAX_BYTES = 16 * MIB;

/**
 * The largest file Skillbench copies into a skill folder (an agent's, or any folder): the same
 * bound whether the copy is made by an install or by a folder export, so the two never disagree
 * about one skill. Why a bound: the file is read into memory, checked and written whole; why
 * 16 MiB: what an import and the skill server take in all (a skill holding one file larger is
 * refused by both).
 */
export const COPY_MAX_FILE_BYTES = 16 * MIB;

/** Every export target, in the order the export dialog lists them (docs/skill-format.md §3). */
export const TARGETS: readonly TargetDefinition[] = [
  {
    id: 'claude-ai',
    label: 'claude.ai / Claude Desktop upload',
    description:
      'A .zip to upload in Settings › Capabilities › Skills on claude.ai or in Claude Desktop.',
    output: 'zip',
    extension: '.zip',
    layout: 'wrapped',
    frontmatter: 'upload',
    profiles: ['claude-upload'],
    packageProfile: 'claude-upload',
    limits: { maxFiles: UPLOAD_MAX_FILES, maxBytes: UPLOAD_MAX_BYTES },
    overrideAllowed: false,
    writesToolsJson: true,
    strictPackage: true,
  },
  {
    id: 'skill',
    label: 'skill-creator package (.skill)',
    description: "A .skill file (a zip) as produced by Anthropic's skill-creator package_skill.py.",
    output: 'zip',
    extension: '.skill',
    layout: 'wrapped',
    frontmatter: 'upload',
    profiles: ['claude-upload'],
    packageProfile: 'claude-upload',
    limits: { maxFiles: UPLOAD_MAX_FILES, maxBytes: UPLOAD_MAX_BYTES },
    overrideAllowed: false,
    writesToolsJson: true,
    strictPackage: true,
  },
  {
    id: 'claude-api',
    label: 'Claude API upload (/v1/skills)',
    description:
      'A .zip with one top folder for the Claude API, plus the files[] paths for a multipart upload.',
    output: 'zip',
    extension: '.zip',
    layout: 'wrapped',
    frontmatter: 'upload',
    profiles: ['claude-upload'],
    packageProfile: 'claude-upload',
    // Why no file cap: the API documents only the 30 MB size limit (docs/skill-format.md §3).
    limits: { maxBytes: UPLOAD_MAX_BYTES },
    overrideAllowed: false,
    writesToolsJson: true,
    strictPackage: true,
  },
  {
    id: 'archive-tgz',
    label: 'Agent Skills archive (.tar.gz)',
    description:
      'A .tar.gz with SKILL.md at the archive root, as skills-over-MCP servers publish them.',
    output: 'tar.gz',
    extension: '.tar.gz',
    layout: 'root',
    frontmatter: 'unchanged',
    profiles: ['agentskills'],
    packageProfile: 'agentskills',
    limits: { maxFiles: ARCHIVE_MAX_FILES, maxBytes: ARCHIVE_MAX_BYTES },
    overrideAllowed: false,
    writesToolsJson: true,
    strictPackage: true,
  },
  {
    id: 'archive-zip',
    label: 'Agent Skills archive (.zip)',
    description:
      'A .zip with SKILL.md at the archive root, as skills-over-MCP servers publish them.',
    output: 'zip',
    extension: '.zip',
    layout: 'root',
    frontmatter: 'unchanged',
    profiles: ['agentskills'],
    packageProfile: 'agentskills',
    limits: { maxFiles: ARCHIVE_MAX_FILES, maxBytes: ARCHIVE_MAX_BYTES },
    overrideAllowed: false,
    writesToolsJson: true,
    strictPackage: true,
  },
  {
    id: 'claude-code',
    label: 'Claude Code install',
    description: "A copy in ~/.claude/skills/<name>/ or in a project's .claude/skills/<name>/.",
    output: 'folder',
    layout: 'folder',
    frontmatter: 'unchanged',
    profiles: ['claude-code'],
    packageProfile: 'claude-code',
    limits: { maxFileBytes: COPY_MAX_FILE_BYTES },
    overrideAllowed: true,
    writesToolsJson: false,
    strictPackage: false,
  },
  {
    id: 'folder',
    label: 'Folder copy',
    description: 'A copy of the skill folder anywhere you choose.',
    output: 'folder',
    layout: 'folder',
    frontmatter: 'unchanged',
    profiles: ['agentskills'],
    packageProfile: 'agentskills',
    limits: { maxFileBytes: COPY_MAX_FILE_BYTES },
    overrideAllowed: true,
    writesToolsJson: false,
    strictPackage: false,
  },
];

/** Every target id, in dialog order. */
export const TARGET_IDS: readonly TargetId[] = TARGETS.map((t) => t.id);

/** The definition of a target id; throws on an unknown id (a programming error). */
export function getTarget(id: TargetId): TargetDefinition {
  const found = TARGETS.find((t) => t.id === id);
  if (!found) throw new Error(`Unknown export target: ${String(id)}`);
  return found;
}

/** True when `value` is a known target id (for CLI and contract input). */
export function isTargetId(value: string): value is TargetId {
  return (TARGET_IDS as readonly string[]).includes(value);
}

/** The tool-definition targets of `skillbench pack` (docs/agent-view.md §4). */
export type ToolTargetId = 'tools-mcp' | 'tools-openai' | 'tools-claude';

/** A tool-definition target: a skill's frontmatter `tools` written in one host's format. */
export interface ToolTargetDefinition {
  id: ToolTargetId;
  label: string;
  /** The host format (shared/agent-view/tools.ts). */
  format: 'mcp' | 'openai' | 'claude';
  description: string;
}

/** Every tool-definition target. */
export const TOOL_TARGETS: readonly ToolTargetDefinition[] = [
  {
    id: 'tools-mcp',
    label: 'MCP tools/list entries',
    format: 'mcp',
    description: 'The tools as an MCP server lists them (inputSchema).',
  },
  {
    id: 'tools-openai',
    label: 'OpenAI function tools (strict)',
    format: 'openai',
    description:
      'Function tools with strict: true; refused when strict mode would refuse a schema.',
  },
  {
    id: 'tools-claude',
    label: 'Claude API tools',
    format: 'claude',
    description: 'The tools array of a Messages API request (input_schema).',
  },
];

/** True when `value` names a tool-definition target. */
export function isToolTargetId(value: string): value is ToolTargetId {
  return TOOL_TARGETS.some((t) => t.id === value);
}
