import type { ProfileId } from './types';

/** What a profile knows about top-level frontmatter keys (docs/skill-format.md §2). */
export interface ProfileSpec {
  id: ProfileId;
  title: string;
  /** Keys the profile knows. */
  keys: ReadonlySet<string>;
  /** Top-level keys whose values must be text (for `yaml/ambiguous-scalar`). */
  stringKeys: ReadonlySet<string>;
}

/** The six keys of the Agent Skills specification (docs/skill-format.md §2 `agentskills`). */
export const AGENT_SKILLS_KEYS = [
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
] as const;

/** Claude Code's typed frontmatter fields (docs/skill-format.md §2 `claude-code`). */
export const CLAUDE_CODE_KEYS = [
  'name',
  'description',
  'when_to_use',
  'argument-hint',
  'arguments',
  'disable-model-invocation',
  'user-invocable',
  'background',
  'allowed-tools',
  'disallowed-tools',
  'model',
  'effort',
  'context',
  'agent',
  'hooks',
  'paths',
  'shell',
  'metadata',
  'license',
  'compatibility',
] as const;

/** The camelCase extensions of the agentskills-mcp format (docs/skill-format.md §2 `agentskills-mcp`). */
export const AGENTSKILLS_MCP_EXTRA_KEYS = [
  'allowedTools',
  'disableModelInvocation',
  'userInvocable',
  'argumentHint',
  'context',
  'agent',
  'model',
  'hooks',
  'requiresMcpServers',
] as const;

/** The top-level keys of Universal Agent Skill 2.1 (docs/skill-format.md §2 `universal-2.1`, Appendix A of the seed). */
export const UNIVERSAL_KEYS = [
  'spec_version',
  'name',
  'description',
  'version',
  'tags',
  'when_to_use',
  'permissions',
  'safety',
  'secrets',
  'tools',
  'host_overrides',
  'evaluation',
  'provenance',
  'depends_on',
  'extensions',
] as const;

const TEXT_BASE = ['name', 'description', 'license', 'compatibility'];

function spec(
  id: ProfileId,
  title: string,
  keys: readonly string[],
  stringKeys: readonly string[],
): ProfileSpec {
  return { id, title, keys: new Set(keys), stringKeys: new Set(stringKeys) };
}

/** Every profile's key spec. */
export const PROFILES: Readonly<Record<ProfileId, ProfileSpec>> = {
  agentskills: spec('agentskills', 'Agent Skills (portable specification)', AGENT_SKILLS_KEYS, [
    ...TEXT_BASE,
    'allowed-tools',
  ]),
  'claude-upload': spec(
    'claude-upload',
    'Claude upload (claude.ai, Desktop, API)',
    AGENT_SKILLS_KEYS,
    [...TEXT_BASE, 'allowed-tools'],
  ),
  'claude-code': spec('claude-code', 'Claude Code', CLAUDE_CODE_KEYS, [
    ...TEXT_BASE,
    'when_to_use',
    'argument-hint',
    'model',
    'agent',
  ]),
  'agentskills-mcp': spec(
    'agentskills-mcp',
    'agentskills-mcp server',
    [...AGENT_SKILLS_KEYS, ...AGENTSKILLS_MCP_EXTRA_KEYS],
    [...TEXT_BASE, 'argumentHint', 'agent', 'model'],
  ),
  'x-personal-mcp': spec(
    'x-personal-mcp',
    'x-personal-mcp repository contract',
    [...new Set([...AGENT_SKILLS_KEYS, ...CLAUDE_CODE_KEYS, 'x-personal-mcp'])],
    [...TEXT_BASE, 'when_to_use', 'argument-hint', 'model', 'agent'],
  ),
  'universal-2.1': spec('universal-2.1', 'Universal Agent Skill 2.1', UNIVERSAL_KEYS, [
    'name',
    'description',
    'version',
    'spec_version',
  ]),
  'mcp-serve': spec('mcp-serve', 'Skillbench embedded server', AGENT_SKILLS_KEYS, [
    ...TEXT_BASE,
    'allowed-tools',
  ]),
};
