/**
 * Agents as data: every agent whose skills Skillbench can list, install, link, update and
 * remove, one row each. The ids, folders and detection folders are the ones the `skills` CLI
 * (npm `skills`) uses, so a skill either tool installs is found by the other (docs/agents.md
 * explains each column). Adding an agent is adding one row.
 *
 * Paths are templates, expanded by main/agents/paths.ts: `~` is the home folder,
 * `$XDG_CONFIG_HOME` the configuration folder (`~/.config` when unset), and
 * `${VAR:-default}` a folder an environment variable may move (Claude Code's
 * `CLAUDE_CONFIG_DIR`, Codex's `CODEX_HOME`, …).
 */
import { didYouMean } from '../text/edit-distance';
import type { ProfileId } from '../validation/types';
import type { ScopeRef } from './types';

/** Frontmatter features beyond name and description that some agents act on. */
export type AgentFeature =
  'allowed-tools' | 'context-fork' | 'hooks' | 'model' | 'disable-model-invocation' | 'arguments';

/** One agent: where it loads skills from, how it is found on this computer, what it honours. */
export interface AgentSpec {
  /** The id the `skills` CLI uses (`--agent claude-code`). */
  id: string;
  /** The agent's name for people. */
  name: string;
  /** Folder of project skills, relative to the project (`.claude/skills`). */
  projectDir: string;
  /** Folder of the user's skills (a template, see above); null when the agent has none. */
  globalDir: string | null;
  /** Folders whose presence means the agent is installed here (templates; `./` = the project). */
  detect: readonly string[];
  /**
   * Whether the agent loads a skill folder that is a symbolic link. Why a column: some agents
   * skip linked skill folders, so Skillbench copies by default for them.
   */
  followsLinks: boolean;
  /** Frontmatter features the agent acts on beyond `name` and `description`. */
  features: readonly AgentFeature[];
  /** The validation profile that judges a skill the way this agent's reader does. */
  profile: ProfileId;
  /**
   * Folders the agent also loads skills from, beside its own (templates as above; project ones
   * relative to the project). Listed in the Agents view, never installed into.
   */
  alsoReads?: { project: readonly string[]; global: readonly string[] };
  /** What a person should know about when the agent loads a project's skills, in a sentence. */
  projectNote?: string;
}

/** Everything an Agent Skills reader needs (docs/skill-format.md §2 `agentskills`). */
const CORE: readonly AgentFeature[] = [];
/** Claude Code acts on its own keys (docs/skill-format.md §2 `claude-code`). */
const CLAUDE_FEATURES: readonly AgentFeature[] = [
  'allowed-tools',
  'context-fork',
  'hooks',
  'model',
  'disable-model-invocation',
  'arguments',
];

/** A row with the usual defaults: follows links, the Agent Skills reader, no extra features. */
function agent(
  id: string,
  name: string,
  projectDir: string,
  globalDir: string | null,
  detect: readonly string[],
  more: Partial<
    Pick<AgentSpec, 'followsLinks' | 'features' | 'profile' | 'alsoReads' | 'projectNote'>
  > = {},
): AgentSpec {
  return {
    id,
    name,
    projectDir,
    globalDir,
    detect,
    followsLinks: more.followsLinks ?? true,
    features: more.features ?? CORE,
    profile: more.profile ?? 'agentskills',
    ...(more.alsoReads ? { alsoReads: more.alsoReads } : {}),
    ...(more.projectNote ? { projectNote: more.projectNote } : {}),
  };
}

/** The folder every agent that reads `.agents/skills` shares in a project. */
export const SHARED_PROJECT_DIR = '.agents/skills';
/** The shared folder of the user's skills, and the canonical copy of linked installs. */
export const SHARED_GLOBAL_DIR = '~/.agents/skills';

/** Every agent, in the `skills` CLI's order. */
export const AGENTS: readonly AgentSpec[] = [
  agent('aider-desk', 'AiderDesk', '.aider-desk/skills', '~/.aider-desk/skills', ['~/.aider-desk']),
  agent('amp', 'Amp', '.agents/skills', '$XDG_CONFIG_HOME/agents/skills', ['$XDG_CONFIG_HOME/amp']),
  agent('antigravity', 'Antigravity', '.agents/skills', '~/.gemini/antigravity/skills', [
    '~/.gemini/antigravity',
  ]),
  agent(
    'antigravity-cli',
    'Antigravity CLI',
    '.agents/skills',
    '~/.gemini/antigravity-cli/skills',
    ['~/.gemini/antigravity-cli'],
  ),
  agent('astrbot', 'AstrBot', 'data/skills', '~/.astrbot/data/skills', ['~/.astrbot']),
  agent(
    'autohand-code',
    'Autohand Code CLI',
    '.autohand/skills',
    '${AUTOHAND_HOME:-~/.autohand}/skills',
    ['${AUTOHAND_HOME:-~/.autohand}'],
  ),
  agent('augment', 'Augment', '.augment/skills', '~/.augment/skills', ['~/.augment']),
  agent('bob', 'IBM Bob', '.bob/skills', '~/.bob/skills', ['~/.bob']),
  agent(
    'claude-code',
    'Claude Code',
    '.claude/skills',
    '${CLAUDE_CONFIG_DIR:-~/.claude}/skills',
    ['${CLAUDE_CONFIG_DIR:-~/.claude}'],
    { features: CLAUDE_FEATURES, profile: 'claude-code' },
  ),
  agent('openclaw', 'OpenClaw', 'skills', '~/.openclaw/skills', [
    '~/.openclaw',
    '~/.clawdbot',
    '~/.moltbot',
  ]),
  agent('cline', 'Cline', '.agents/skills', '~/.agents/skills', ['~/.cline']),
  agent('codearts-agent', 'CodeArts Agent', '.codeartsdoer/skills', '~/.codeartsdoer/skills', [
    '~/.codeartsdoer',
  ]),
  agent('codebuddy', 'CodeBuddy', '.codebuddy/skills', '~/.codebuddy/skills', ['~/.codebuddy']),
  agent('codemaker', 'Codemaker', '.codemaker/skills', '~/.codemaker/skills', ['~/.codemaker']),
  agent('codestudio', 'Code Studio', '.codestudio/skills', '~/.codestudio/skills', [
    '~/.codestudio',
  ]),
  // Codex 0.171.0 loads a skill folder that is a symbolic link (a SKILL.md that is itself a link
  // it does not; docs/codex-listing.md), so it follows links like the rest. Its reading of the
  // SKILL.md is its own, not the profile's alone (shared/agent-view/readers.ts). It also loads
  // the skills in a project's .codex/skills and in $CODEX_HOME/skills.
  agent('codex', 'Codex', '.agents/skills', '~/.agents/skills', ['${CODEX_HOME:-~/.codex}'], {
    alsoReads: { project: ['.codex/skills'], global: ['${CODEX_HOME:-~/.codex}/skills'] },
  }),
  agent('command-code', 'Command Code', '.commandcode/skills', '~/.commandcode/skills', [
    '~/.commandcode',
  ]),
  agent('continue', 'Continue', '.continue/skills', '~/.continue/skills', ['~/.continue']),
  agent('cortex', 'Cortex Code', '.cortex/skills', '~/.snowflake/cortex/skills', [
    '~/.snowflake/cortex',
  ]),
  agent('crush', 'Crush', '.crush/skills', '~/.config/crush/skills', ['~/.config/crush']),
  agent('cursor', 'Cursor', '.agents/skills', '~/.cursor/skills', ['~/.cursor']),
  agent('deepagents', 'Deep Agents', '.agents/skills', '~/.deepagents/agent/skills', [
    '~/.deepagents',
  ]),
  agent('devin', 'Devin for Terminal', '.devin/skills', '$XDG_CONFIG_HOME/devin/skills', [
    '$XDG_CONFIG_HOME/devin',
  ]),
  agent('dexto', 'Dexto', '.agents/skills', '~/.agents/skills', ['~/.dexto']),
  agent('droid', 'Droid', '.agents/skills', '~/.factory/skills', ['~/.factory']),
  agent('eve', 'Eve', 'agent/skills', null, ['./agent']),
  agent('firebender', 'Firebender', '.agents/skills', '~/.firebender/skills', ['~/.firebender']),
  agent('forgecode', 'ForgeCode', '.forge/skills', '~/.forge/skills', ['~/.forge']),
  agent('fx', 'fx', '.agents/skills', '~/.agents/skills', ['~/.fx']),
  // Gemini CLI 0.61.0 loads the skills in ~/.gemini/skills and ~/.agents/skills, and in a
  // trusted project's .gemini/skills and .agents/skills (docs/gemini-cli-listing.md). A name in
  // two of them makes it warn of a conflict at every start, so Skillbench installs into the
  // shared ~/.agents/skills only (the skills CLI puts it in ~/.gemini/skills, and links from
  // there to the shared copy: two of them) and lists ~/.gemini/skills. GEMINI_CLI_HOME moves the
  // home folder it reads both from; a link to the shared copy then goes there.
  agent(
    'gemini-cli',
    'Gemini CLI',
    '.agents/skills',
    '${GEMINI_CLI_HOME:-~}/.agents/skills',
    ['${GEMINI_CLI_HOME:-~}/.gemini'],
    {
      alsoReads: { project: ['.gemini/skills'], global: ['${GEMINI_CLI_HOME:-~}/.gemini/skills'] },
      projectNote:
        'Gemini CLI loads a project’s skills only once you trust the project folder (it asks the first time you start it there).',
    },
  ),
  agent('github-copilot', 'GitHub Copilot', '.agents/skills', '~/.copilot/skills', ['~/.copilot']),
  agent('goose', 'Goose', '.goose/skills', '$XDG_CONFIG_HOME/goose/skills', [
    '$XDG_CONFIG_HOME/goose',
  ]),
  agent('grok', 'Grok Build', '.grok/skills', '${GROK_HOME:-~/.grok}/skills', [
    '${GROK_HOME:-~/.grok}',
  ]),
  agent('hermes-agent', 'Hermes Agent', '.hermes/skills', '${HERMES_HOME:-~/.hermes}/skills', [
    '${HERMES_HOME:-~/.hermes}',
  ]),
  agent('inference-sh', 'inference.sh', '.inferencesh/skills', '~/.inferencesh/skills', [
    '~/.inferencesh',
  ]),
  agent('jazz', 'Jazz', '.jazz/skills', '~/.jazz/skills', ['~/.jazz']),
  agent('junie', 'Junie', '.junie/skills', '~/.junie/skills', ['~/.junie']),
  agent('iflow-cli', 'iFlow CLI', '.iflow/skills', '~/.iflow/skills', ['~/.iflow']),
  agent('kilo', 'Kilo Code', '.agents/skills', '~/.kilo/skills', ['~/.kilo', '~/.kilocode']),
  agent('kimchi', 'Kimchi', '.kimchi/skills', '~/.config/kimchi/harness/skills', [
    '~/.config/kimchi',
  ]),
  agent('kimi-code-cli', 'Kimi Code CLI', '.agents/skills', '~/.agents/skills', [
    '~/.kimi-code',
    '~/.kimi',
  ]),
  agent('kiro-cli', 'Kiro CLI', '.kiro/skills', '~/.kiro/skills', ['~/.kiro']),
  agent('kode', 'Kode', '.kode/skills', '~/.kode/skills', ['~/.kode']),
  agent('lingma', 'Lingma', '.lingma/skills', '~/.lingma/skills', ['~/.lingma']),
  agent('loaf', 'Loaf', '.agents/skills', '~/.agents/skills', ['~/.loaf']),
  agent('mcpjam', 'MCPJam', '.mcpjam/skills', '~/.mcpjam/skills', ['~/.mcpjam']),
  agent('minimax-code', 'MiniMax Code', '.minimax/skills', '~/.minimax/skills', ['~/.minimax']),
  agent('mistral-vibe', 'Mistral Vibe', '.vibe/skills', '${VIBE_HOME:-~/.vibe}/skills', [
    '${VIBE_HOME:-~/.vibe}',
  ]),
  agent('moxby', 'Moxby', '.moxby/skills', '~/.moxby/skills', ['~/.moxby']),
  agent('mux', 'Mux', '.mux/skills', '~/.mux/skills', ['~/.mux']),
  // OpenCode 1.18.33 also loads Claude Code's folders and the shared ~/.agents/skills, and its
  // own `skill` folders, at any depth (docs/opencode-listing.md; seen with `opencode debug skill`).
  agent(
    'opencode',
    'OpenCode',
    '.agents/skills',
    '$XDG_CONFIG_HOME/opencode/skills',
    ['$XDG_CONFIG_HOME/opencode'],
    {
      alsoReads: {
        project: ['.claude/skills', '.opencode/skills', '.opencode/skill'],
        global: ['~/.agents/skills', '~/.claude/skills', '$XDG_CONFIG_HOME/opencode/skill'],
      },
    },
  ),
  agent('openhands', 'OpenHands', '.openhands/skills', '~/.openhands/skills', ['~/.openhands']),
  agent('ona', 'Ona', '.ona/skills', '~/.ona/skills', ['~/.ona']),
  agent('pi', 'Pi', '.agents/skills', '~/.agents/skills', ['~/.pi/agent']),
  agent(
    'posit-assistant',
    'Posit Assistant',
    '.posit/assistant/skills',
    '~/.posit/assistant/skills',
    ['~/.posit/assistant', '~/.positai'],
  ),
  agent('qoder', 'Qoder', '.qoder/skills', '~/.qoder/skills', ['~/.qoder']),
  agent('qoder-cn', 'Qoder CN', '.qoder/skills', '~/.qoder-cn/skills', ['~/.qoder-cn']),
  agent('qwen-code', 'Qwen Code', '.qwen/skills', '~/.qwen/skills', ['~/.qwen']),
  agent('replit', 'Replit', '.agents/skills', '$XDG_CONFIG_HOME/agents/skills', ['./.replit']),
  agent('reasonix', 'Reasonix', '.reasonix/skills', '~/.reasonix/skills', ['~/.reasonix']),
  agent('rovodev', 'Rovo Dev', '.rovodev/skills', '~/.rovodev/skills', ['~/.rovodev']),
  agent('roo', 'Roo Code', '.roo/skills', '~/.roo/skills', ['~/.roo']),
  agent('sarvam-code', 'Sarvam Code', '.agents/skills', '~/.agents/skills', [
    '${SARVAM_HOME:-~/.sarvam}',
  ]),
  agent('tabnine-cli', 'Tabnine CLI', '.tabnine/agent/skills', '~/.tabnine/agent/skills', [
    '~/.tabnine',
  ]),
  agent('terramind', 'Terramind', '.terramind/skills', '~/.terramind/skills', ['~/.terramind']),
  agent('tinycloud', 'Tinycloud', '.tinycloud/skills', '~/.tinycloud/skills', ['~/.tinycloud']),
  agent('trae', 'Trae', '.trae/skills', '~/.trae/skills', ['~/.trae']),
  agent('trae-cn', 'Trae CN', '.trae/skills', '~/.trae-cn/skills', ['~/.trae-cn']),
  agent('warp', 'Warp', '.agents/skills', '~/.agents/skills', ['~/.warp']),
  agent('windsurf', 'Windsurf', '.windsurf/skills', '~/.codeium/windsurf/skills', [
    '~/.codeium/windsurf',
  ]),
  agent('zed', 'Zed', '.agents/skills', '~/.agents/skills', ['$XDG_CONFIG_HOME/zed']),
  agent('zcode', 'ZCode', '.zcode/skills', '~/.zcode/skills', ['~/.zcode']),
  agent('zencoder', 'Zencoder', '.zencoder/skills', '~/.zencoder/skills', ['~/.zencoder']),
  agent('zenflow', 'Zenflow', '.zencoder/skills', '~/.zencoder/skills', ['~/.zencoder']),
  agent('neovate', 'Neovate', '.neovate/skills', '~/.neovate/skills', ['~/.neovate']),
  agent('pochi', 'Pochi', '.pochi/skills', '~/.pochi/skills', ['~/.pochi']),
  agent('promptscript', 'PromptScript', '.agents/skills', null, [
    './.promptscript',
    './promptscript.yaml',
  ]),
  agent('adal', 'AdaL', '.adal/skills', '~/.adal/skills', ['~/.adal']),
  agent('universal', 'Universal', '.agents/skills', '$XDG_CONFIG_HOME/agents/skills', []),
];

const BY_ID = new Map(AGENTS.map((a) => [a.id, a]));

/** The agent with this id, or undefined. */
export function agentById(id: string): AgentSpec | undefined {
  return BY_ID.get(id);
}

/** Every agent id, for messages that list the choices. */
export const AGENT_IDS: readonly string[] = AGENTS.map((a) => a.id);

/**
 * What to say about an agent id nobody knows, the same in the app and on the command line: the
 * likely one when it looks like a typo, and where the whole list is (there are dozens of agents).
 */
export function unknownAgentSentence(id: string): string {
  const guess = didYouMean(id, AGENT_IDS);
  return `There is no agent "${id}".${guess ? ` Did you mean ${guess}?` : ''} Run skillbench agents --all for the list.`;
}

/** Whether the agent reads the project folder every `.agents/skills` agent shares. */
export function sharesProjectDir(spec: AgentSpec): boolean {
  return spec.projectDir === SHARED_PROJECT_DIR;
}

/** Plain words for a feature, for the Agents view and the CLI. */
export const FEATURE_LABELS: Readonly<Record<AgentFeature, string>> = {
  'allowed-tools': 'allowed-tools',
  'context-fork': 'context: fork',
  hooks: 'hooks',
  model: 'model',
  'disable-model-invocation': 'disable-model-invocation',
  arguments: 'arguments',
};

/**
 * Expand a path template (see the file comment) with the given environment. Pure: the caller
 * passes the home folder and the variables; `/` joins, which every platform's file calls accept.
 * Returns null for a template that needs a project (`./…`) when none is given.
 */
export function expandAgentPath(
  template: string,
  env: { home: string; vars: Readonly<Record<string, string | undefined>>; project?: string },
): string | null {
  const home = env.home.replace(/[\\/]+$/, '');
  const tilde = (p: string): string =>
    p === '~' ? home : p.startsWith('~/') ? home + p.slice(1) : p;
  let path = template;
  const withVar = /^\$\{([A-Z_]+):-([^}]*)\}/.exec(path);
  if (withVar) {
    const value = env.vars[withVar[1] ?? '']?.trim();
    path = (value ? value : tilde(withVar[2] ?? '')) + path.slice(withVar[0].length);
  } else if (path.startsWith('$XDG_CONFIG_HOME')) {
    const config = env.vars.XDG_CONFIG_HOME?.trim() || `${home}/.config`;
    path = config + path.slice('$XDG_CONFIG_HOME'.length);
  } else if (path.startsWith('./')) {
    if (env.project === undefined) return null;
    path = env.project.replace(/[\\/]+$/, '') + path.slice(1);
  }
  return tilde(path);
}

/** A template as people read it: the default of a variable, `~` kept. */
export function displayAgentPath(template: string): string {
  return template
    .replace(/^\$\{[A-Z_]+:-([^}]*)\}/, '$1')
    .replace(/^\$XDG_CONFIG_HOME/, '~/.config');
}

/** What {@link alsoLoadedBy} reports: the shared folder and the agents not chosen that load it. */
export interface SharedFolderNote {
  /** The shared folder as people read it (`~/.agents/skills`, `.agents/skills` in a project). */
  folder: string;
  /** The names of the agents not chosen that load it. */
  agents: string[];
  /** Whether "copy into each agent" keeps the skill from them (false when a chosen agent reads that folder itself). */
  avoidable: boolean;
  /** The sentence for people. */
  sentence: string;
}

/**
 * Which other agents will load a skill installed for `chosen`, because it lands in the folder
 * they share (`~/.agents/skills`, or `.agents/skills` in a project): a link keeps its one copy
 * there (as the `skills` CLI does), and an agent that reads that folder itself is installed into
 * it. Why: a person who ticks only Claude Code would otherwise find the skill in Codex too, with
 * nothing having said so. `among` are the agents to name (those on this computer); undefined when
 * none of them is touched.
 */
export function alsoLoadedBy(
  among: readonly Pick<
    AgentSpec,
    'id' | 'name' | 'projectDir' | 'globalDir' | 'followsLinks' | 'alsoReads'
  >[],
  chosen: readonly string[],
  scope: 'global' | 'project',
  mode: 'auto' | 'link' | 'copy',
): SharedFolderNote | undefined {
  const template = scope === 'global' ? SHARED_GLOBAL_DIR : SHARED_PROJECT_DIR;
  // Why as people read it: Gemini CLI's `${GEMINI_CLI_HOME:-~}/.agents/skills` is the shared
  // folder unless that variable moves it.
  const readsShared = (a: (typeof among)[number]): boolean => {
    const dir = scope === 'global' ? a.globalDir : a.projectDir;
    return dir !== null && displayAgentPath(dir) === template;
  };
  const chosenRows = among.filter((a) => chosen.includes(a.id));
  const direct = chosenRows.filter(readsShared);
  const linking = chosenRows.some(
    (a) => !readsShared(a) && (mode === 'link' || (mode === 'auto' && a.followsLinks)),
  );
  if (direct.length === 0 && !linking) return undefined;
  // Why the folders an agent also reads too: OpenCode loads ~/.agents/skills besides its own.
  const loadsShared = (a: (typeof among)[number]): boolean =>
    readsShared(a) ||
    (a.alsoReads?.[scope === 'global' ? 'global' : 'project'] ?? []).some(
      (dir) => displayAgentPath(dir) === template,
    );
  const others = among.filter((a) => loadsShared(a) && !chosen.includes(a.id)).map((a) => a.name);
  if (others.length === 0) return undefined;
  const folder = scope === 'global' ? template : `${template} in the project`;
  const they =
    others.length === 1
      ? `${others[0]} also loads`
      : others.length <= 3
        ? `${others.slice(0, -1).join(', ')} and ${others.at(-1)} also load`
        : `${others.slice(0, 3).join(', ')} and ${others.length - 3} other agent${others.length === 4 ? '' : 's'} also load`;
  const why =
    direct.length > 0
      ? `${direct.map((a) => a.name).join(' and ')} ${direct.length === 1 ? 'reads' : 'read'} its skills from there`
      : 'a link keeps its one shared copy there';
  const sentence =
    `${they} the skills in ${folder}, and ${why}, so ${others.length === 1 ? 'it' : 'they'} will load these skills too.` +
    (direct.length === 0 ? ' To install only for the agents you chose, copy into each agent.' : '');
  return { folder, agents: others, avoidable: direct.length === 0, sentence };
}

/**
 * The sentence for a folder of skills that no listed agent reads (AgentsOverview.unlisted), the
 * same in the app and on the command line: where it is, what it holds, who would load it.
 */
export function unlistedFolderSentence(folder: {
  path: string;
  skills: readonly string[];
  readers: readonly string[];
}): string {
  const names = folder.readers.map((id) => agentById(id)?.name ?? id);
  const readers =
    names.length <= 3
      ? names.length === 1
        ? names[0]
        : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
      : `${names.slice(0, 3).join(', ')} and ${names.length - 3} other agent${names.length === 4 ? '' : 's'}`;
  const shown = folder.skills.slice(0, 5).join(', ');
  const more = folder.skills.length > 5 ? ` and ${folder.skills.length - 5} more` : '';
  const count = `${folder.skills.length} skill${folder.skills.length === 1 ? '' : 's'}`;
  return `${folder.path} holds ${count} (${shown}${more}) that ${readers} load${names.length === 1 ? 's' : ''}, and ${names.length === 1 ? 'it was' : 'none of them was'} found on this computer.`;
}

/**
 * Whether two scopes are one: both global, or the same project folder as the manager names it
 * (its scopes carry the folder as listed, so the same folder is the same text).
 */
export function sameScope(a: ScopeRef, b: ScopeRef): boolean {
  return a.kind === 'global' || b.kind === 'global' ? a.kind === b.kind : a.dir === b.dir;
}
