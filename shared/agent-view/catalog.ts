/**
 * What the agent sees: the `<available_skills>` block of a host that merges skills from folders
 * on disk and from connected MCP servers into one list (seed 002; docs/agent-view.md §1). Each
 * `<skill>` has `<name>`, `<description>`, `<location>` (the SKILL.md) and `<directory>` (its
 * folder): paths for skills on disk, the resource URIs for skills from a server. When two skills
 * share a name, one is listed: a skill on disk beats a server's; otherwise the source given first
 * wins. Every collision is reported with the copy that won and why. A skill only the user may start
 * (`disable-model-invocation: true`) keeps its name but is left out of the block, with why.
 */
import { byClaudeCodeOrder } from './claude-code-list';
import { byCodexOrder, type CodexReading } from './codex-list';
import type { GeminiReading } from './gemini-list';
import { byOpenCodeOrder, type OpenCodeReading } from './opencode-list';
import { claudeCodeListing, CLAUDE_CODE_LISTING_MAX } from '../validation/listing';
import { grouped } from '../text/words';
import { addMeasures, measure, xmlText, type Measure } from './text';

/** Where a skill came from. */
export type CatalogSource =
  { kind: 'library'; root: string } | { kind: 'server'; server: string; target?: string };

/** A skill offered to the catalog by one source. */
export interface CatalogCandidate {
  name: string;
  description: string;
  /** Skills on disk: the SKILL.md path; from a server: the SKILL.md URI. */
  location: string;
  /** Skills on disk: the folder path; from a server: the skill folder's URI. */
  directory: string;
  source: CatalogSource;
  /** The frontmatter as plain data (triggers, tools); undefined when the source did not give it. */
  frontmatter?: Record<string, unknown>;
  /** The instructions (the body after the frontmatter) when known: what loads on selection. */
  body?: string;
  /**
   * A library skill that readers following the Agent Skills specification leave out, and that
   * `skillbench serve` does not serve: the first reason, in the server's own words (with its
   * rule id). Hosts that read folders leniently still list it, so the block shows it.
   */
  notServed?: string;
  /**
   * A library skill hosts list but `skillbench serve` holds back: the safety review says "Don't
   * trust" and the user has not chosen "Trust anyway". The server's own words, with the rule id.
   * A host that reads the folder itself still shows it to the model.
   */
  heldBack?: string;
  /**
   * A skill on disk: its line in Claude Code's skill list, read from its SKILL.md as Claude Code
   * reads it (shared/agent-view/claude-code-list.ts).
   */
  claudeCode?: string;
  /**
   * A skill on disk: how Codex reads its SKILL.md, its line or why it skips it
   * (shared/agent-view/codex-list.ts).
   */
  codex?: CodexReading;
  /**
   * A skill on disk: how Gemini CLI reads its SKILL.md, what it lists or why it does not load it
   * (shared/agent-view/gemini-list.ts).
   */
  gemini?: GeminiReading;
  /**
   * A skill on disk: how OpenCode reads its SKILL.md, what it lists or why it does not load it
   * (shared/agent-view/opencode-list.ts).
   */
  opencode?: OpenCodeReading;
}

/** One skill of the merged catalog, with its footprint. */
export interface CatalogEntry extends CatalogCandidate {
  /** The `<skill>` element exactly as it appears in the block. */
  xml: string;
  footprint: {
    /** Name + description: always in context. */
    metadata: Measure;
    /** The whole `<skill>` element: always in context. */
    entry: Measure;
    /** The body, loaded when the skill is selected; undefined when unknown (a server skill). */
    body?: Measure;
  };
  /**
   * Set when Claude Code's skill list would cut what the model reads of this skill: its
   * description and `when_to_use` together are over 1,536 characters (the block shows all of it).
   */
  listingCut?: string;
  /**
   * The skill's line in Claude Code's skill list, `- LABEL: TEXT`: for a skill on disk as Claude
   * Code reads its SKILL.md (`claudeCode`), else its name, description and `when_to_use`
   * (shared/validation/listing.ts).
   */
  claudeCodeLine: string;
}

/** One skill in Codex's reading of the skills on disk. */
export type CodexCatalogEntry =
  | { location: string; line: string; root?: string; file?: string }
  | { location: string; unlisted: string }
  | { location: string; skipped: string; why: string };

/**
 * One skill in the reading of an agent that keeps one skill per name (Gemini CLI, OpenCode): the
 * name and description it shows (no description: OpenCode loads the skill but shows it no model),
 * what it reads otherwise than written, and `oneOf` when other skills here share the name (it
 * keeps one of them, which one is not certain); or why it does not load the skill.
 */
export type OnePerNameCatalogEntry =
  | {
      location: string;
      name: string;
      description?: string;
      otherwise?: string[];
      oneOf?: string;
    }
  | { location: string; skipped: string };

/** One skill in Gemini CLI's reading of the skills on disk (it always has a description). */
export type GeminiCatalogEntry = OnePerNameCatalogEntry;
/** One skill in OpenCode's reading of the skills on disk. */
export type OpenCodeCatalogEntry = OnePerNameCatalogEntry;

/** A skill the host knows (the user can start it by name) but does not show the model. */
export interface UserOnlySkill extends CatalogCandidate {
  /** Why it is not in the block, in a sentence. */
  why: string;
}

/** A name shared by several skills: the one listed and the ones left out. */
export interface Collision {
  name: string;
  winner: { location: string; source: CatalogSource };
  hidden: { location: string; source: CatalogSource; why: string }[];
}

/** The merged catalog. */
export interface Catalog {
  /** The `<available_skills>` block, exactly as the model receives it. */
  xml: string;
  /** Listed skills, in block order. */
  skills: CatalogEntry[];
  collisions: Collision[];
  /**
   * Skills that won their name but are left out of the block because only the user may start
   * them (`disable-model-invocation: true`), in source order.
   */
  userOnly: UserOnlySkill[];
  /**
   * Claude Code's skill list of the skills on disk, were their folder its skills folder: every
   * skill it lists (a name shared by several does not leave any out; only the user-only ones),
   * by SKILL.md path, in Claude Code's order (docs/claude-code-listing.md).
   */
  claudeCode: { location: string; line: string }[];
  /**
   * What Codex makes of the skills on disk, were their folder one of its skills folders
   * (docs/codex-listing.md): the lines of its list in its order (the line without its
   * `(file: …)` part), then the skills it loads but keeps out of the list, then the ones it skips
   * with its message and the reason in plain words. Unlike Claude Code, Codex lists a skill with
   * `disable-model-invocation`, and two skills sharing a name both.
   */
  codex: CodexCatalogEntry[];
  /**
   * What Gemini CLI makes of the skills on disk, were their folder its skills folder
   * (docs/gemini-cli-listing.md): the skills it loads, by folder name (Gemini CLI lists one
   * folder's skills in the order its file search finds them, which is not modelled), with what it
   * reads otherwise than written, and for skills that share a name that it lists only one of them;
   * then the ones it does not load, with why.
   */
  gemini: GeminiCatalogEntry[];
  /**
   * What OpenCode makes of the skills on disk, were their folder its skills folder
   * (docs/opencode-listing.md): the skills it loads in its order (by name), each with what it
   * reads otherwise than written, and for skills that share a name that it keeps one of them;
   * then the ones it does not load, with why.
   */
  opencode: OpenCodeCatalogEntry[];
  footprint: {
    /** The whole block: always in context. */
    block: Measure;
    /** Names + descriptions of every listed skill. */
    metadata: Measure;
    /** Bodies of the listed skills whose body is known (what selecting all of them would load). */
    bodies: Measure;
    /** Listed skills whose body is not known (server skills not read). */
    bodiesUnknown: number;
  };
}

/**
 * The default budget, in tokens, for what is always in context (the block). Why 2,000: the
 * library's description budget is 8,000 characters (docs/skill-format.md §2,
 * `library/description-budget`), about 2,000 tokens at four characters a token.
 */
export const DEFAULT_CONTEXT_BUDGET = 2000;

/** How names are compared for a collision: NFKC, as the library's duplicate-name check does. */
export function nameKey(name: string): string {
  return name.normalize('NFKC');
}

/** Values Claude Code reads as true for its boolean fields (docs/skill-format.md §2.3). */
const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);

/**
 * Whether only the user may start a skill: Claude Code's `disable-model-invocation` or
 * agentskills-mcp's `disableModelInvocation` is true (Claude Code also reads `yes`, `on`, `1`).
 * Such a skill's description is not put in the model's context, so the model never picks it.
 */
export function modelInvocationDisabled(frontmatter: unknown): boolean {
  if (frontmatter === null || typeof frontmatter !== 'object') return false;
  const fm = frontmatter as Record<string, unknown>;
  return [fm['disable-model-invocation'], fm['disableModelInvocation']].some(
    (v) =>
      v === true || v === 1 || (typeof v === 'string' && TRUE_WORDS.has(v.trim().toLowerCase())),
  );
}

/** The skills a prompt can select: those in the block, then those only the user starts by name. */
export function selectableSkills<A, B>(catalog: {
  skills: readonly A[];
  userOnly: readonly B[];
}): (A | B)[] {
  return [...catalog.skills, ...catalog.userOnly];
}

/** Why a user-only skill is not in the block. */
function userOnlyWhy(c: CatalogCandidate): string {
  return `Only the user can start it: its frontmatter sets disable-model-invocation, so a host that honours it (Claude Code) leaves it out of the list the model sees. Naming it (/${c.name}) starts it.`;
}

/**
 * Why Claude Code's skill list shows the model less of this skill than the block does, or
 * undefined: its line (the description and a text `when_to_use`) over 1,536 characters.
 */
export function listingCutNote(
  c: Pick<CatalogCandidate, 'description' | 'frontmatter'>,
): string | undefined {
  const whenToUse = listedWhenToUse(c);
  const { total, cut } = claudeCodeListing(c.description, whenToUse);
  if (cut === 0) return undefined;
  const what =
    whenToUse === ''
      ? 'description'
      : 'description and when_to_use, joined with " - " between them,';
  return `Claude Code shows the model the first ${grouped(CLAUDE_CODE_LISTING_MAX - 1)} characters of the ${what} and "…": this one has ${grouped(total)}, so the last ${grouped(cut)} are not seen. Put what decides when to use the skill first, or shorten it. [description/listing-truncated]`;
}

/** Codex's reading of the skills on disk: listed in its order, then unlisted, then skipped. */
function codexEntries(candidates: readonly CatalogCandidate[]): CodexCatalogEntry[] {
  const read = candidates.flatMap((c) =>
    c.codex ? [{ location: c.location, reading: c.codex, source: c.source }] : [],
  );
  const listed = read.flatMap(({ location, reading, source }) =>
    reading.loads && reading.inList
      ? [{ location, name: reading.name, line: reading.line, ...inRoot(location, source) }]
      : [],
  );
  listed.sort((a, b) =>
    byCodexOrder({ name: a.name, path: a.location }, { name: b.name, path: b.location }),
  );
  return [
    ...listed.map(({ name: _name, ...entry }) => entry),
    ...read.flatMap(({ location, reading }) =>
      reading.loads && !reading.inList
        ? [
            {
              location,
              unlisted: `Codex loads it for the user to name ($${reading.name}) but keeps it out of the model's list: its agents/openai.yaml sets allow_implicit_invocation: false.`,
            },
          ]
        : [],
    ),
    ...read.flatMap(({ location, reading }) =>
      reading.loads ? [] : [{ location, skipped: reading.codex, why: reading.why }],
    ),
  ];
}

/** A reading by an agent that keeps one skill per name. */
type OnePerNameReading = GeminiReading | OpenCodeReading;

/**
 * The entries of an agent that keeps one skill per name, in the order of `read`: the skills it
 * loads, each skill that shares its name with others told `keeps` (the agent's rule), then the
 * ones it does not load.
 */
function onePerNameEntries(
  read: readonly { location: string; reading: OnePerNameReading }[],
  keeps: string,
): OnePerNameCatalogEntry[] {
  const sharing = new Map<string, number>();
  for (const { reading } of read)
    if (reading.loads) sharing.set(reading.name, (sharing.get(reading.name) ?? 0) + 1);
  return [
    ...read.flatMap(({ location, reading }): OnePerNameCatalogEntry[] => {
      if (!reading.loads) return [];
      const shared = sharing.get(reading.name) ?? 1;
      return [
        {
          location,
          name: reading.name,
          ...(reading.description !== undefined ? { description: reading.description } : {}),
          ...(reading.otherwise.length > 0 ? { otherwise: reading.otherwise } : {}),
          ...(shared > 1
            ? {
                oneOf: `${shared} skills here are named “${reading.name}”: ${keeps}, so only one of them.`,
              }
            : {}),
        },
      ];
    }),
    ...read.flatMap(({ location, reading }) =>
      reading.loads ? [] : [{ location, skipped: reading.why }],
    ),
  ];
}

/** Gemini CLI's reading of the skills on disk, by folder name (its own order is not modelled). */
function geminiEntries(candidates: readonly CatalogCandidate[]): GeminiCatalogEntry[] {
  const read = candidates
    .flatMap((c) =>
      c.gemini
        ? [{ location: c.location, folder: folderNameOf(c.directory), reading: c.gemini }]
        : [],
    )
    .sort((a, b) => byClaudeCodeOrder(a.folder, b.folder));
  return onePerNameEntries(
    read,
    'Gemini CLI lists one skill per name, the last its file search finds',
  );
}

/** OpenCode's reading of the skills on disk, in its order: by name. */
function openCodeEntries(candidates: readonly CatalogCandidate[]): OpenCodeCatalogEntry[] {
  const read = candidates
    .flatMap((c) => (c.opencode ? [{ location: c.location, reading: c.opencode }] : []))
    .sort(
      (a, b) =>
        byOpenCodeOrder(
          a.reading.loads ? a.reading.name : '',
          b.reading.loads ? b.reading.name : '',
        ) || (a.location < b.location ? -1 : a.location > b.location ? 1 : 0),
    );
  return onePerNameEntries(read, 'OpenCode keeps one skill per name, whichever it reads last');
}

/** A library skill's folder and its SKILL.md's path in it, with `/`, as Codex's list gives it. */
function inRoot(location: string, source: CatalogSource): { root?: string; file?: string } {
  if (source.kind !== 'library') return {};
  const root = source.root.replace(/[\\/]+$/, '');
  if (!location.startsWith(root) || !/^[\\/]/.test(location.slice(root.length))) return {};
  return { root, file: location.slice(root.length + 1).replace(/\\/g, '/') };
}

/** The last part of a folder path (either separator). */
function folderNameOf(dir: string): string {
  return dir.split(/[\\/]/).pop() ?? dir;
}

/** A text `when_to_use`, which Claude Code lists after the description ('' when there is none). */
function listedWhenToUse(c: Pick<CatalogCandidate, 'frontmatter'>): string {
  const w = c.frontmatter?.['when_to_use'];
  // Why numbers too: `when_to_use: 2024` is a number to YAML, and Claude Code lists it as text.
  return typeof w === 'string'
    ? w
    : typeof w === 'number' || typeof w === 'boolean'
      ? String(w)
      : '';
}

/** The `<skill>` element of one skill (two-space indents, one element per line). */
export function skillElement(
  c: Pick<CatalogCandidate, 'name' | 'description' | 'location' | 'directory'>,
): string {
  return [
    '  <skill>',
    `    <name>${xmlText(c.name)}</name>`,
    `    <description>${xmlText(c.description)}</description>`,
    `    <location>${xmlText(c.location)}</location>`,
    `    <directory>${xmlText(c.directory)}</directory>`,
    '  </skill>',
  ].join('\n');
}

function sourceText(s: CatalogSource): string {
  return s.kind === 'library' ? `the library folder ${s.root}` : `the server “${s.server}”`;
}

function whyHidden(winner: CatalogCandidate, loser: CatalogCandidate): string {
  const why = whyWinner(winner, loser);
  // Why said: the copy that keeps the name is not in the block either, so the model sees neither.
  return modelInvocationDisabled(winner.frontmatter)
    ? `${why} That copy is one only the user can start, so the model sees neither.`
    : why;
}

function whyWinner(winner: CatalogCandidate, loser: CatalogCandidate): string {
  if (winner.source.kind === 'library' && loser.source.kind === 'server')
    return `A skill on disk wins a name collision: ${winner.location} is listed, and this copy from ${sourceText(loser.source)} is left out.`;
  if (winner.source.kind === 'library' && loser.source.kind === 'library')
    return winner.source.root === loser.source.root
      ? `Both are in ${winner.source.root}; the first in folder order (${winner.directory}) is listed.`
      : `Both are on disk; the folder opened first (${winner.source.root}) wins.`;
  return winner.source.kind === 'server' &&
    loser.source.kind === 'server' &&
    winner.source.server === loser.source.server
    ? `The server “${winner.source.server}” offers two skills with this name; the first it listed (${winner.location}) is shown.`
    : `Both come from servers; the one connected first (${sourceText(winner.source)}) wins.`;
}

/**
 * Merge candidates into the catalog. `candidates` come in source order: library folders first in
 * the order they were opened (each in folder order), then servers in connection order (each in
 * the order it listed them). Listed skills keep that order.
 */
export function buildCatalog(candidates: readonly CatalogCandidate[]): Catalog {
  const rank = (c: CatalogCandidate) => (c.source.kind === 'library' ? 0 : 1);
  const groups = new Map<string, CatalogCandidate[]>();
  for (const c of candidates) {
    const key = nameKey(c.name);
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  }
  const winners = new Set<CatalogCandidate>();
  const collisions: Collision[] = [];
  for (const group of groups.values()) {
    // Why a stable sort on the kind alone: disk beats server, and within a kind the order given decides.
    const ordered = [...group].sort((a, b) => rank(a) - rank(b));
    const winner = ordered[0];
    if (!winner) continue;
    winners.add(winner);
    if (ordered.length > 1)
      collisions.push({
        name: winner.name,
        winner: { location: winner.location, source: winner.source },
        hidden: ordered.slice(1).map((l) => ({
          location: l.location,
          source: l.source,
          why: whyHidden(winner, l),
        })),
      });
  }
  const userOnly: UserOnlySkill[] = [];
  const listed = candidates.filter((c) => {
    if (!winners.has(c)) return false;
    if (!modelInvocationDisabled(c.frontmatter)) return true;
    userOnly.push({ ...c, why: userOnlyWhy(c) });
    return false;
  });
  const skills: CatalogEntry[] = listed.map((c) => {
    const xml = skillElement(c);
    const entry: CatalogEntry = {
      ...c,
      xml,
      footprint: { metadata: measure(c.name + c.description), entry: measure(xml) },
      claudeCodeLine:
        c.claudeCode ??
        `- ${c.name}: ${claudeCodeListing(c.description, listedWhenToUse(c)).shown}`,
    };
    if (c.body !== undefined) entry.footprint.body = measure(c.body);
    const cut = listingCutNote(c);
    if (cut !== undefined) entry.listingCut = cut;
    return entry;
  });
  const xml =
    skills.length === 0
      ? '<available_skills>\n</available_skills>'
      : `<available_skills>\n${skills.map((s) => s.xml).join('\n')}\n</available_skills>`;
  const known = skills.flatMap((s) => (s.footprint.body ? [s.footprint.body] : []));
  return {
    xml,
    skills,
    collisions,
    userOnly,
    claudeCode: candidates
      .flatMap((c) =>
        c.claudeCode !== undefined && !modelInvocationDisabled(c.frontmatter)
          ? [{ location: c.location, line: c.claudeCode, folder: folderNameOf(c.directory) }]
          : [],
      )
      .sort((a, b) => byClaudeCodeOrder(a.folder, b.folder))
      .map(({ location, line }) => ({ location, line })),
    codex: codexEntries(candidates),
    gemini: geminiEntries(candidates),
    opencode: openCodeEntries(candidates),
    footprint: {
      block: measure(xml),
      metadata: addMeasures(skills.map((s) => s.footprint.metadata)),
      bodies: addMeasures(known),
      bodiesUnknown: skills.length - known.length,
    },
  };
}
