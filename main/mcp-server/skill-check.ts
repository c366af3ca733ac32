/**
 * Whether the embedded server may serve a skill: the validation core's `mcp-serve` profile
 * (docs/skill-format.md §2), run on the SKILL.md text with a file view of its folder, and then
 * what MCP hosts accept (docs/skills-over-mcp.md §3, "What is served"). The rules live in
 * shared/validation; this module turns the verdict into reasons and adds the hosts' view.
 *
 * Why the hosts' view as well: a host built on the official SDK v2 (`SkillsClient`) reads a
 * SKILL.md with its own reader, a YAML subset (no anchors, aliases or tags, no multi-line
 * quoted or flow values, text keys only, nesting up to 32), checks the entry (a name of 1–64
 * lowercase letters, digits and hyphens, a description of 1–1,024 characters, `metadata`
 * mapping text to text, `compatibility` text of 1–500 characters) and then compares its
 * reading of the file with the entry field by field. It refuses the skill, or the whole
 * listing, on any difference. The profile warns about some of these; a host refuses all of
 * them, so a skill it would refuse is not served. The reader asked is the SDK's own
 * (`skillEntry` of `@modelcontextprotocol/server/ext/skills`, the same code as the client's),
 * so the gate and the hosts cannot drift apart.
 */
import { skillEntry } from '@modelcontextprotocol/server/ext/skills';
import { parseSkill } from '../../shared/skill';
import type { ParsedSkill } from '../../shared/skill';
import type { FileView } from '../../shared/validation';
import type { SkillFolder } from '../skill-folder';
import { readAcceptances, type AcceptanceRecord } from '../safety/acceptances';
import { refusalMessage } from '../safety/gate';
import { reviewInputOfFolder, type KnownFile, type ParsedText } from '../safety/read-skill';
import {
  reviewRead,
  reviewSkillFolder,
  type ReviewedSkill,
  type ReviewMemo,
} from '../safety/service';
import type { InexactNumber } from './frontmatter-json';
import { count } from '../../shared/text/words';
import { isJsonObject } from '../../shared/json/values';

/** The verdict for one skill: served or not, with plain-sentence reasons and warnings. */
export interface SkillCheckResult {
  servable: boolean;
  /** Why it is not served (errors), in the validator's own words. */
  reasons: string[];
  /** Findings that do not block serving. */
  warnings: string[];
}

/** What a check is given about one skill. */
export interface SkillCheckInput {
  text: string;
  parsed: ParsedSkill;
  fileView: FileView;
  /** The skill's path in its library (`team/refunds`): the URI it is served under. */
  skillPath: string;
  /** The frontmatter as it would be served, and the numbers that had to go out as text. */
  frontmatter?: { value: Record<string, unknown>; inexact: InexactNumber[] };
  /** The skill folder (absolute), for checks that read more than SKILL.md. */
  dir?: string;
}

/** A servable-check: the default runs the `mcp-serve` profile and the hosts' view; tests and the app may pass their own. */
export type SkillCheck = ((
  input: SkillCheckInput,
) => SkillCheckResult | Promise<SkillCheckResult>) & {
  /**
   * Set when the answer depends on more than SKILL.md and the file view (every file's bytes, the
   * user's decisions): the catalog then never answers it from its memo.
   */
  readsWholeFolder?: boolean;
  /**
   * For a check made of a base and a gate on top ({@link withSafetyGate}): the base, whose answer
   * depends on SKILL.md and the file view only (the catalog's memo may answer it), and the gate,
   * run on the base's answer every time (it reads every file and the user's decisions).
   */
  stages?: {
    base: SkillCheck;
    gate: (
      dir: string | undefined,
      result: SkillCheckResult,
      seen?: GateInput,
    ) => Promise<SkillCheckResult>;
  };
};

/**
 * What the catalog gives a gate about a skill it has just read, so the gate does not read it
 * again: the folder as walked, the bytes read (and served), one object per build (what is read
 * once per build is kept on it), and the reviews kept from earlier builds and runs.
 */
export interface GateInput {
  folder: SkillFolder;
  /** The bytes the catalog read of a path of the skill, with their digest, if it read it. */
  bytes: (path: string) => KnownFile | undefined;
  build: object;
  reviews?: ReviewMemo;
  /** SKILL.md's text and parse, when the catalog parsed it in this build (not answered from its memo). */
  skillMd?: ParsedText;
}

/** The rule id the hosts' reasons carry, in the place of a profile rule's. */
export const HOST_RULE = 'mcp-serve/host-refuses';

let validation: Promise<typeof import('../../shared/validation')> | undefined;

/**
 * The rules, loaded when a skill is first checked. Why: a server that starts with every check
 * kept (the usual restart) never runs them, and loading them was part of every start.
 */
function loadValidation(): Promise<typeof import('../../shared/validation')> {
  validation ??= import('../../shared/validation');
  return validation;
}

/** The default check: the `mcp-serve` profile, then (when it finds no error) what hosts refuse. */
export const mcpServeCheck: SkillCheck = async (input) => {
  const { parsed, fileView } = input;
  const { validateSkill } = await loadValidation();
  const result = validateSkill(parsed, { profiles: ['mcp-serve'], fileView });
  const reasons: string[] = [];
  const warnings: string[] = [];
  for (const d of result.diagnostics) {
    const where = d.file && d.file !== 'SKILL.md' ? ` (${d.file})` : '';
    const line = `${d.message}${where} [${d.ruleId}]`;
    if (d.severity === 'error') reasons.push(line);
    else if (d.severity !== 'info') warnings.push(line);
  }
  // Why only then: the profile's own words come first; the hosts' are for what it lets through.
  if (reasons.length === 0) reasons.push(...(await hostRefusals(input)));
  return { servable: reasons.length === 0, reasons, warnings };
};

/**
 * The served check with the safety review's gate on top (docs/safety-review.md, "Points of
 * trust"): a skill the review calls "Don't trust" is not served unless the user accepted its
 * content ("Trust anyway", kept in `dataDir`); "Review before trusting" is served with a warning.
 * A folder the caller hands over as walked (GateInput) is reviewed from that walk; one it does not
 * is read and reviewed now. `ownReview`, when given, answers every folder instead: the app passes
 * its library's kept reviews, so the agent view and the badges come from one review.
 */
export function withSafetyGate(
  base: SkillCheck,
  dataDir: string,
  ownReview?: (dir: string) => Promise<ReviewedSkill>,
): SkillCheck {
  const reviewFolder = ownReview ?? ((dir: string) => reviewSkillFolder(dir, dataDir));
  // Why per build: the decisions are read once for all the skills of a build, not once per skill.
  const decisions = new WeakMap<object, Promise<AcceptanceRecord[]>>();
  const review = async (seen: GateInput): Promise<ReviewedSkill> => {
    const read = await reviewInputOfFolder(seen.folder, undefined, seen.bytes, seen.skillMd);
    let records = decisions.get(seen.build);
    if (!records) {
      records = readAcceptances(dataDir);
      decisions.set(seen.build, records);
    }
    return reviewRead(read, await records, seen.reviews);
  };
  const gate = async (dir: string | undefined, result: SkillCheckResult, seen?: GateInput) => {
    if (!result.servable || dir === undefined) return result;
    let reviewed;
    try {
      reviewed = seen && !ownReview ? await review(seen) : await reviewFolder(dir);
    } catch (error) {
      return {
        servable: false,
        reasons: [
          `The safety review could not read the skill (${error instanceof Error ? error.message : String(error)}).`,
        ],
        warnings: result.warnings,
      };
    }
    const verdict = reviewed.report.verdict;
    if (verdict === 'danger')
      return {
        servable: false,
        reasons: [...result.reasons, `${refusalMessage(reviewed, 'served')} [safety/dont-trust]`],
        warnings: result.warnings,
      };
    if (verdict === 'review')
      return {
        ...result,
        warnings: [
          ...result.warnings,
          `The safety review says "${reviewed.report.headline}": ${count(reviewed.report.findings.filter((f) => !f.accepted && f.severity !== 'low').length, 'finding')}. [safety/review]`,
        ],
      };
    return result;
  };
  const gated: SkillCheck = async (input) => gate(input.dir, await base(input));
  gated.readsWholeFolder = true;
  gated.stages = { base, gate };
  return gated;
}

/** Parse a SKILL.md through the shared parser (the only frontmatter reader in the project). */
export function parseSkillText(text: string): ParsedSkill {
  return parseSkill(text);
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null)
    return String(value);
  return Array.isArray(value) ? 'a list' : 'a group of fields';
}

/**
 * The fields where two frontmatters differ, compared as the SDK's `SkillsClient` compares an
 * entry with its reading of the SKILL.md: every key both ways, objects in any key order, lists
 * in order, leaves by `===` (numbers by value, no type coercion).
 */
export function frontmatterDifferences(
  served: unknown,
  read: unknown,
  path = '',
): { path: string; served: unknown; read: unknown }[] {
  if (Array.isArray(served) && Array.isArray(read) && served.length === read.length)
    return served.flatMap((item: unknown, i) =>
      frontmatterDifferences(item, read[i], `${path}[${i}]`),
    );
  if (isJsonObject(served) && isJsonObject(read)) {
    const keys = [...new Set([...Object.keys(served), ...Object.keys(read)])].sort();
    return keys.flatMap((k) =>
      frontmatterDifferences(served[k], read[k], path === '' ? k : `${path}.${k}`),
    );
  }
  return served === read ? [] : [{ path: path === '' ? '(frontmatter)' : path, served, read }];
}

/** The SDK's problems in plain words (the messages of its reader and entry check, 2.4). */
const PLAIN: [RegExp, (m: RegExpExecArray) => string][] = [
  [
    /^SKILL\.md frontmatter: line (\d+): anchors, aliases and tags are not supported$/,
    (m) =>
      `Line ${m[1]} uses a YAML anchor, alias or tag (&name, *name, !tag), which MCP clients cannot read. Write the value out in full.`,
  ],
  [
    /^frontmatter metadata must map strings to strings$/,
    () =>
      'Every value in "metadata" must be text: MCP clients refuse a skill whose metadata holds numbers, true/false, lists or groups. Put such values in quotes.',
  ],
  [
    /^frontmatter name "(.*)" must be 1-64 lowercase letters, digits and single hyphens$/,
    (m) =>
      `MCP clients accept a name of 1 to 64 lowercase letters, digits and single hyphens; "${m[1]}" is not one.`,
  ],
  [
    /^frontmatter description must be 1-1024 characters$/,
    () => 'MCP clients accept a description of 1 to 1,024 characters; shorten it.',
  ],
  [
    /^frontmatter compatibility must be a string of 1-500 characters$/,
    () =>
      'MCP clients accept "compatibility" only as text of 1 to 500 characters; put it in quotes or shorten it.',
  ],
  [
    /^SKILL\.md frontmatter must contain string "name" and "description"$/,
    () => 'MCP clients need "name" and "description" written as text.',
  ],
  [
    /^SKILL\.md frontmatter: line (\d+): (.*)$/,
    (m) => `MCP clients cannot read line ${m[1]} of the frontmatter: ${m[2]}.`,
  ],
  [/^SKILL\.md frontmatter: (.*)$/, (m) => `MCP clients cannot read the frontmatter: ${m[1]}.`],
];

function plain(message: string): string {
  for (const [pattern, say] of PLAIN) {
    const m = pattern.exec(message);
    if (m) return `${say(m)} [${HOST_RULE}]`;
  }
  return `MCP clients would refuse this skill: ${message}. [${HOST_RULE}]`;
}

/**
 * Why a host built on the official SDK would refuse the skill, in plain words; empty when it
 * would accept it. Only SKILL.md matters here: the URIs of the other files are ours and always
 * well formed (shared/sep/skill-uri.ts).
 */
export async function hostRefusals(input: SkillCheckInput): Promise<string[]> {
  let read: Record<string, unknown>;
  try {
    read = (await skillEntry(input.skillPath, { 'SKILL.md': input.text })).frontmatter;
  } catch (e) {
    const problems = (e as { problems?: { message?: unknown }[] }).problems;
    if (Array.isArray(problems) && problems.length > 0)
      return problems.map((p) => plain(String(p.message)));
    return [plain(e instanceof Error ? e.message : String(e))];
  }
  const served = input.frontmatter;
  if (!served) return [];
  // Why through JSON: the host compares what arrives on the wire.
  const wire = JSON.parse(JSON.stringify(served.value)) as unknown;
  const inexact = new Map(served.inexact.map((n) => [n.path, n]));
  return frontmatterDifferences(wire, read).map((d) => {
    const number = inexact.get(d.path);
    if (number)
      return `"${d.path}" is the number ${number.text}, which MCP clients cannot hold exactly: they would read ${String(number.read)}. Put it in quotes to serve it as text. [${HOST_RULE}]`;
    return `MCP clients read "${d.path}" as ${show(d.read)}, but it is served as ${show(d.served)}; a host refuses a skill whose file and entry disagree. Write the value more plainly (in quotes, on one line). [${HOST_RULE}]`;
  });
}
