import { isScalar, isSeq } from 'yaml';
import { nameKey } from '../../shared/agent-view/catalog';
import type { ParsedSkill } from '../../shared/skill';
import { describeBudget } from '../../shared/validation';
import type {
  DescriptionBudget,
  Diagnostic,
  ProfileId,
  Range,
  Severity,
} from '../../shared/validation';
import { diskDiagnostic } from './disk-rules';

/** A `depends_on` item with where it is written. */
export interface DependencyFact {
  profile: ProfileId;
  value: string;
  /** Field path for messages (`x-personal-mcp.depends_on[1]`) and JSON pointer. */
  path: string;
  pointer: string;
  range?: Range;
}

/**
 * The little the library checks need from a skill's frontmatter, taken right after it is
 * validated. Why not keep the parsed document: a thousand YAML documents held until the
 * library checks run cost more in garbage collection than the checks themselves (bench/validate).
 */
export interface MemberFacts {
  name: string | null;
  nameRange?: Range;
  description?: string;
  /** `x-personal-mcp.id`, when it is text. */
  alias?: string;
  dependencies: DependencyFact[];
}

/** What the library checks need to know about one validated skill. */
export interface LibraryMember {
  /** Path of the skill folder relative to the library root, `/` separated. */
  relativePath: string;
  /** SKILL.md path relative to the library root, for messages. */
  filePath: string;
  facts: MemberFacts;
  profiles: readonly ProfileId[];
  /** Findings are appended here. */
  diagnostics: Diagnostic[];
}

/** A finding about the library as a whole rather than one skill. */
export interface LibraryFinding {
  ruleId: string;
  severity: Severity;
  message: string;
  detail?: string;
  /** Relative paths of the skills concerned. */
  skills?: string[];
}

/** Characters of description shown per skill in the budget message (the JSON output has them all). */
const BUDGET_MESSAGE_TOP = 10;

function dataOf(parsed: ParsedSkill): Record<string, unknown> | null {
  const d = parsed.data;
  return d !== null && typeof d === 'object' && !Array.isArray(d)
    ? (d as Record<string, unknown>)
    : null;
}

/** The skill's `name` as the library knows it (NFKC, as docs/skill-format.md §2 compares names), or null. */
export function skillName(parsed: ParsedSkill): string | null {
  const name = dataOf(parsed)?.['name'];
  return typeof name === 'string' && name.trim() !== '' ? nameKey(name) : null;
}

function spanRange(parsed: ParsedSkill, node: unknown): Range | undefined {
  const span = parsed.nodeSpan(node);
  return span ? parsed.rangeAt(span.start, span.end) : undefined;
}

/** Where `depends_on` lives per profile (docs/skill-format.md §2 x-personal-mcp: in the block; universal-2.1: top level). */
const DEPENDENCY_SOURCES: readonly { profile: ProfileId; path: string[]; pointer: string }[] = [
  {
    profile: 'x-personal-mcp',
    path: ['x-personal-mcp', 'depends_on'],
    pointer: '/x-personal-mcp/depends_on',
  },
  { profile: 'universal-2.1', path: ['depends_on'], pointer: '/depends_on' },
];

/** Take what the library checks need from a parsed skill checked against `profiles`. */
export function memberFacts(parsed: ParsedSkill, profiles: readonly ProfileId[]): MemberFacts {
  const data = dataOf(parsed);
  const doc = parsed.document;
  const facts: MemberFacts = { name: skillName(parsed), dependencies: [] };
  if (facts.name !== null && doc) {
    const range = spanRange(parsed, doc.get('name', true));
    if (range) facts.nameRange = range;
  }
  const description = data?.['description'];
  if (typeof description === 'string') facts.description = description;
  const block = data?.['x-personal-mcp'];
  const id =
    block && typeof block === 'object' ? (block as Record<string, unknown>)['id'] : undefined;
  if (typeof id === 'string') facts.alias = id.normalize('NFKC');
  if (!doc) return facts;
  for (const src of DEPENDENCY_SOURCES) {
    if (!profiles.includes(src.profile)) continue;
    const seq = doc.getIn(src.path, true);
    if (!isSeq(seq)) continue;
    seq.items.forEach((item, i) => {
      if (!isScalar(item) || typeof item.value !== 'string') return;
      const dep: DependencyFact = {
        profile: src.profile,
        value: item.value,
        path: `${src.path.join('.')}[${i}]`,
        pointer: `${src.pointer}/${i}`,
      };
      const range = spanRange(parsed, item);
      if (range) dep.range = range;
      facts.dependencies.push(dep);
    });
  }
  return facts;
}

/**
 * Two skills listed under the same name: each is told where the others are. A skill without a
 * `name` is listed under its folder's name, as hosts that read folders list it (and as the
 * catalog of "What the agent sees" does), so it collides there too.
 */
function duplicateNames(members: readonly LibraryMember[]): void {
  const byName = new Map<string, LibraryMember[]>();
  for (const m of members) {
    const folder = m.relativePath.split('/').pop() ?? '';
    const name = m.facts.name ?? (folder === '' ? null : nameKey(folder));
    if (name === null) continue;
    const list = byName.get(name);
    if (list) list.push(m);
    else byName.set(name, [m]);
  }
  for (const [name, group] of byName) {
    if (group.length < 2) continue;
    const allNamed = group.every((m) => m.facts.name !== null);
    for (const m of group) {
      const others = group.filter((o) => o !== m).map((o) => o.filePath);
      const range = m.facts.nameRange;
      const message =
        m.facts.name === null
          ? `This skill has no name, so agents list it under its folder's name "${name}", which ${others.join(', ')} also ${others.length === 1 ? 'goes' : 'go'} by. One of them will be hidden. Give each skill its own name.`
          : `Another skill in this library is also ${allNamed ? 'named' : 'listed as'} "${name}": ${others.join(', ')}. Agents tell skills apart by name, so one of them will be hidden. Give each skill its own name.`;
      for (const profile of m.profiles) {
        const d = diskDiagnostic('library/duplicate-name', profile, {
          // Why its own words: `skillbench serve` serves both, each under its path (SEP-2640 URIs).
          message:
            profile === 'mcp-serve'
              ? `${message.replace(/ Give each skill its own name\.$/, '')} skillbench serve serves both, each by its path, but a host that lists skills by name shows one of them. Give each skill its own name.`
              : message,
          detail: `duplicate name ${JSON.stringify(name)} in ${[m.filePath, ...others].join(' and ')}`,
          ...(range ? { range } : {}),
          field: '/name',
        });
        if (d) m.diagnostics.push(d);
      }
    }
  }
}

/** `depends_on` of x-personal-mcp (block) and Universal 2.1 (top level) must name skills of the library (docs/skill-format.md §2). */
function dependencies(members: readonly LibraryMember[]): void {
  const known = new Set<string>();
  for (const m of members) {
    if (m.facts.name !== null) known.add(m.facts.name);
    if (m.facts.alias !== undefined) known.add(m.facts.alias);
  }
  for (const m of members) {
    for (const dep of m.facts.dependencies) {
      if (known.has(dep.value.normalize('NFKC'))) continue;
      const d = diskDiagnostic('library/depends-on-missing', dep.profile, {
        message: `This skill depends on "${dep.value}", but no skill of that name is in the library. Add that skill or remove it from depends_on.`,
        detail: `${m.relativePath}: ${dep.path} = ${JSON.stringify(dep.value)} does not resolve`,
        ...(dep.range ? { range: dep.range } : {}),
        field: dep.pointer,
      });
      if (d) m.diagnostics.push(d);
    }
  }
}

/** The library's description budget (core `describeBudget`) and, past the limit, a finding naming the biggest shares. */
function budget(members: readonly LibraryMember[]): {
  budget: DescriptionBudget;
  finding?: LibraryFinding;
} {
  const entries: { name: string; description: string }[] = [];
  for (const m of members) {
    if (m.facts.description === undefined) continue;
    entries.push({ name: m.facts.name ?? m.relativePath, description: m.facts.description });
  }
  const b = describeBudget(entries);
  if (!b.over) return { budget: b };
  const top = [...b.shares]
    .sort((x, y) => y.characters - x.characters)
    .slice(0, BUDGET_MESSAGE_TOP);
  const list = top
    .map((s) => `${s.name} ${s.characters} (${(s.share * 100).toFixed(1)}%)`)
    .join(', ');
  const more = b.shares.length > top.length ? `, and ${b.shares.length - top.length} more` : '';
  return {
    budget: b,
    finding: {
      ruleId: 'library/description-budget',
      severity: 'warning',
      message:
        b.warning ??
        `All skill descriptions together have ${b.total} characters, more than ${b.limit}.`,
      detail: `description characters: total ${b.total} > ${b.limit}; largest shares: ${list}${more}`,
      skills: members.filter((m) => m.facts.description !== undefined).map((m) => m.relativePath),
    },
  };
}

/**
 * Library-wide checks: duplicate names and unresolved `depends_on` are added to
 * the skills' diagnostics; the description budget is returned with its finding when over.
 */
export function checkLibrary(
  members: readonly LibraryMember[],
  options: { dependencies?: boolean } = {},
): { budget: DescriptionBudget; findings: LibraryFinding[] } {
  duplicateNames(members);
  if (options.dependencies !== false) dependencies(members);
  const b = budget(members);
  return { budget: b.budget, findings: b.finding ? [b.finding] : [] };
}
