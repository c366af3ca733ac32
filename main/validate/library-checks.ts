import { isScalar, isSeq } from 'yaml';
import type { ParsedSkill } from '../../shared/skill';
import { describeBudget } from '../../shared/validation';
import type { DescriptionBudget, Diagnostic, ProfileId, Severity } from '../../shared/validation';
import { diskDiagnostic } from './disk-rules';

/** What the library checks need to know about one validated skill. */
export interface LibraryMember {
  /** Path of the skill folder relative to the library root, `/` separated. */
  relativePath: string;
  /** SKILL.md path relative to the library root, for messages. */
  filePath: string;
  parsed: ParsedSkill;
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
  return d !== null && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : null;
}

/** The skill's `name` as the library knows it (NFKC, as spec §2 compares names), or null. */
export function skillName(parsed: ParsedSkill): string | null {
  const name = dataOf(parsed)?.['name'];
  return typeof name === 'string' && name.trim() !== '' ? name.normalize('NFKC') : null;
}

function spanRange(parsed: ParsedSkill, path: (string | number)[]): Diagnostic['range'] {
  const node = parsed.document?.getIn(path, true);
  const span = parsed.nodeSpan(node);
  return span ? parsed.rangeAt(span.start, span.end) : undefined;
}

/** Two skills with the same `name`: each is told where the others are (issue 3 §5). */
function duplicateNames(members: readonly LibraryMember[]): void {
  const byName = new Map<string, LibraryMember[]>();
  for (const m of members) {
    const name = skillName(m.parsed);
    if (name === null) continue;
    const list = byName.get(name);
    if (list) list.push(m);
    else byName.set(name, [m]);
  }
  for (const [name, group] of byName) {
    if (group.length < 2) continue;
    for (const m of group) {
      const others = group.filter((o) => o !== m).map((o) => o.filePath);
      const range = spanRange(m.parsed, ['name']);
      for (const profile of m.profiles) {
        const d = diskDiagnostic('library/duplicate-name', profile, {
          message: `Another skill in this library is also named "${name}": ${others.join(', ')}. Agents tell skills apart by name, so one of them will be hidden. Give each skill its own name.`,
          detail: `duplicate name ${JSON.stringify(name)} in ${[m.filePath, ...others].join(' and ')}`,
          ...(range ? { range } : {}),
          field: '/name',
        });
        if (d) m.diagnostics.push(d);
      }
    }
  }
}

/** `depends_on` of x-personal-mcp (block) and Universal 2.1 (top level) must name skills of the library (spec §2). */
function dependencies(members: readonly LibraryMember[]): void {
  const known = new Set<string>();
  for (const m of members) {
    const name = skillName(m.parsed);
    if (name !== null) known.add(name);
    const block = dataOf(m.parsed)?.['x-personal-mcp'];
    const id = block && typeof block === 'object' ? (block as Record<string, unknown>)['id'] : undefined;
    if (typeof id === 'string') known.add(id.normalize('NFKC'));
  }
  const sources: { profile: ProfileId; path: string[]; pointer: string }[] = [
    { profile: 'x-personal-mcp', path: ['x-personal-mcp', 'depends_on'], pointer: '/x-personal-mcp/depends_on' },
    { profile: 'universal-2.1', path: ['depends_on'], pointer: '/depends_on' },
  ];
  for (const m of members) {
    const doc = m.parsed.document;
    if (!doc) continue;
    for (const src of sources) {
      if (!m.profiles.includes(src.profile)) continue;
      const seq = doc.getIn(src.path, true);
      if (!isSeq(seq)) continue;
      seq.items.forEach((item, i) => {
        if (!isScalar(item) || typeof item.value !== 'string') return;
        const dep = item.value;
        if (known.has(dep.normalize('NFKC'))) return;
        const span = m.parsed.nodeSpan(item);
        const d = diskDiagnostic('library/depends-on-missing', src.profile, {
          message: `This skill depends on "${dep}", but no skill of that name is in the library. Add that skill or remove it from depends_on.`,
          detail: `${m.relativePath}: ${src.path.join('.')}[${i}] = ${JSON.stringify(dep)} does not resolve`,
          ...(span ? { range: m.parsed.rangeAt(span.start, span.end) } : {}),
          field: `${src.pointer}/${i}`,
        });
        if (d) m.diagnostics.push(d);
      });
    }
  }
}

/** The library's description budget (core `describeBudget`) and, past the limit, a finding naming the biggest shares. */
function budget(members: readonly LibraryMember[]): { budget: DescriptionBudget; finding?: LibraryFinding } {
  const entries: { name: string; description: string }[] = [];
  for (const m of members) {
    const description = dataOf(m.parsed)?.['description'];
    if (typeof description !== 'string') continue;
    entries.push({ name: skillName(m.parsed) ?? m.relativePath, description });
  }
  const b = describeBudget(entries);
  if (!b.over) return { budget: b };
  const top = [...b.shares].sort((x, y) => y.characters - x.characters).slice(0, BUDGET_MESSAGE_TOP);
  const list = top.map((s) => `${s.name} ${s.characters} (${(s.share * 100).toFixed(1)}%)`).join(', ');
  const more = b.shares.length > top.length ? `, and ${b.shares.length - top.length} more` : '';
  return {
    budget: b,
    finding: {
      ruleId: 'library/description-budget',
      severity: 'warning',
      message: b.warning ?? `All skill descriptions together have ${b.total} characters, more than ${b.limit}.`,
      detail: `description characters: total ${b.total} > ${b.limit}; largest shares: ${list}${more}`,
      skills: members.filter((m) => typeof dataOf(m.parsed)?.['description'] === 'string').map((m) => m.relativePath),
    },
  };
}

/**
 * Library-wide checks (issue 3 §5): duplicate names and unresolved `depends_on` are added to
 * the skills' diagnostics; the description budget is returned with its finding when over.
 */
export function checkLibrary(members: readonly LibraryMember[], options: { dependencies?: boolean } = {}): { budget: DescriptionBudget; findings: LibraryFinding[] } {
  duplicateNames(members);
  if (options.dependencies !== false) dependencies(members);
  const b = budget(members);
  return { budget: b.budget, findings: b.finding ? [b.finding] : [] };
}
