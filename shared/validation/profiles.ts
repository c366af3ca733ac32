import type { YamlTyping } from '../skill/yaml-typing';
import type { RuleId } from './rule-catalog';
import type { ProfileId } from './types';

/**
 * How the reader a profile stands for reads a SKILL.md, where that changes a verdict
 * (docs/skill-format.md §2, "How each reader reads the file").
 */
export interface ReaderModel {
  /** Who the reader is, in a few words (for messages). */
  who: string;
  /** How it types unquoted values. */
  typing: YamlTyping;
  /**
   * How it reads `name` before checking it: trimmed and Unicode NFKC-normalised (the Agent Skills
   * reference validator), trimmed only (skill-creator), or exactly as the YAML gives it
   * (agentskills-mcp, whose JSON Schema and folder check see the raw value).
   */
  name: 'nfkc' | 'trim' | 'raw';
  /**
   * Top-level text fields where the reader refuses a value its YAML typed as something else
   * (`name: 123` read as a number), with the rule that reports it. Elsewhere such a value is
   * only the portability warning `yaml/ambiguous-scalar`.
   */
  typedText: Readonly<Partial<Record<string, RuleId>>>;
  /** Whether the values under `hooks` must be text as well (agentskills-mcp's schema). */
  hookValuesText?: boolean;
  /** Fields the reader checks only when their value is truthy in Python (skill-creator's `if compatibility:`). */
  truthyOnly?: ReadonlySet<string>;
}

/** What a profile knows about top-level frontmatter keys (docs/skill-format.md §2). */
export interface ProfileSpec {
  id: ProfileId;
  title: string;
  /** Keys the profile knows. */
  keys: ReadonlySet<string>;
  /** Top-level keys whose values must be text (for `yaml/ambiguous-scalar`). */
  stringKeys: ReadonlySet<string>;
  /** The reader it models. */
  reader: ReaderModel;
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

/**
 * The extension keys agentskills-mcp reads besides the six standard ones (docs/skill-format.md §2.4):
 * its loader maps exactly these and ignores every other key.
 */
export const AGENTSKILLS_MCP_EXTRA_KEYS = [
  'disable-model-invocation',
  'user-invocable',
  'argument-hint',
  'context',
  'agent',
  'model',
  'hooks',
  'labels',
  'requires-mcp-servers',
] as const;

/**
 * The camelCase spelling of the agentskills-mcp format's first description (docs/skill-format.md
 * §2.4), with the key the loader reads today: it ignores the camelCase keys, so they are reported
 * with a rename.
 */
export const AGENTSKILLS_MCP_CAMEL_KEYS: Readonly<Record<string, string>> = {
  allowedTools: 'allowed-tools',
  disableModelInvocation: 'disable-model-invocation',
  userInvocable: 'user-invocable',
  argumentHint: 'argument-hint',
  requiresMcpServers: 'requires-mcp-servers',
};

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
  reader: ReaderModel,
): ProfileSpec {
  return { id, title, keys: new Set(keys), stringKeys: new Set(stringKeys), reader };
}

/** Readers that parse with YAML 1.2 and whose handling of typed text is not known: warn only. */
function yaml12(who: string): ReaderModel {
  return { who, typing: 'yaml-1.2', name: 'nfkc', typedText: {} };
}

/** The Agent Skills reference validator: strictyaml reads every value as text. */
const REFERENCE: ReaderModel = {
  who: 'the Agent Skills reference validator',
  typing: 'strictyaml',
  name: 'nfkc',
  typedText: {},
};

/** skill-creator's quick_validate.py (PyYAML, YAML 1.1), which packaging and upload follow. */
const SKILL_CREATOR: ReaderModel = {
  who: "Claude upload (skill-creator's checks)",
  typing: 'pyyaml',
  name: 'trim',
  typedText: {
    name: 'name/type',
    description: 'description/type',
    compatibility: 'compatibility/type',
  },
  truthyOnly: new Set(['compatibility']),
};

/** agentskills-mcp: gray-matter (js-yaml 3), then its JSON Schema on the raw values. */
const AGENTSKILLS_MCP: ReaderModel = {
  who: 'agentskills-mcp',
  typing: 'js-yaml-3',
  name: 'raw',
  typedText: {
    name: 'name/type',
    description: 'description/type',
    compatibility: 'compatibility/type',
    'allowed-tools': 'allowed-tools/type',
    license: 'schema/invalid',
    'argument-hint': 'schema/invalid',
    context: 'schema/invalid',
    agent: 'schema/invalid',
    model: 'schema/invalid',
  },
  hookValuesText: true,
};

/** Every profile's key spec. */
export const PROFILES: Readonly<Record<ProfileId, ProfileSpec>> = {
  agentskills: spec(
    'agentskills',
    'Agent Skills (portable specification)',
    AGENT_SKILLS_KEYS,
    [...TEXT_BASE, 'allowed-tools'],
    REFERENCE,
  ),
  'claude-upload': spec(
    'claude-upload',
    'Claude upload (claude.ai, Desktop, API)',
    AGENT_SKILLS_KEYS,
    [...TEXT_BASE, 'allowed-tools'],
    SKILL_CREATOR,
  ),
  'claude-code': spec(
    'claude-code',
    'Claude Code',
    CLAUDE_CODE_KEYS,
    [...TEXT_BASE, 'when_to_use', 'argument-hint', 'model', 'agent'],
    yaml12('Claude Code'),
  ),
  'agentskills-mcp': spec(
    'agentskills-mcp',
    'agentskills-mcp server',
    [...AGENT_SKILLS_KEYS, ...AGENTSKILLS_MCP_EXTRA_KEYS],
    [...TEXT_BASE, 'allowed-tools', 'argument-hint', 'context', 'agent', 'model'],
    AGENTSKILLS_MCP,
  ),
  'x-personal-mcp': spec(
    'x-personal-mcp',
    'x-personal-mcp repository contract',
    [...new Set([...AGENT_SKILLS_KEYS, ...CLAUDE_CODE_KEYS, 'x-personal-mcp'])],
    [...TEXT_BASE, 'when_to_use', 'argument-hint', 'model', 'agent'],
    yaml12('the x-personal-mcp repository contract'),
  ),
  'universal-2.1': spec(
    'universal-2.1',
    'Universal Agent Skill 2.1',
    UNIVERSAL_KEYS,
    ['name', 'description', 'version', 'spec_version'],
    yaml12('Universal Agent Skill 2.1'),
  ),
  'mcp-serve': spec(
    'mcp-serve',
    'Skillbench embedded server',
    AGENT_SKILLS_KEYS,
    [...TEXT_BASE, 'allowed-tools'],
    yaml12("Skillbench's embedded server"),
  ),
};
