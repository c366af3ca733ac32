import { count } from '../../shared/text/words';
import { relative, sep } from 'node:path';
import { sarifLog, type SarifLevel, type SarifResult } from '../platform/sarif';
import { RULES } from '../../shared/validation';
import { term } from '../security/terminal-text';
import type {
  DescriptionBudget,
  Diagnostic,
  QuickFix,
  Range,
  RuleInfo,
  Severity,
} from '../../shared/validation';
import { DISK_RULES } from './disk-rules';
import type { LibraryFinding } from './library-checks';
import type { FixOutcome, SeverityCounts, SkillValidation } from './service';

/** Version of the JSON output shape (main/validate/validate-output.schema.json); bump on incompatible changes. */
export const JSON_REPORT_VERSION = 1;

/** Every rule the CLI can report: the core's catalog, then the main-side disk and library rules. */
export const ALL_RULES: readonly RuleInfo[] = [...RULES, ...DISK_RULES];

/** What one `skillbench validate` run found, before formatting. */
export interface ValidateReportInput {
  skills: SkillValidation[];
  libraries: { root: string; findings: LibraryFinding[]; budget: DescriptionBudget }[];
  fixes: FixOutcome[];
  /** Paths that could not be validated at all, with a plain sentence. */
  inputErrors: { path: string; message: string }[];
}

/** One finding in the JSON output: the core's Diagnostic with paths relative to the cwd. */
export interface JsonDiagnostic {
  ruleId: string;
  severity: Severity;
  profile: string;
  message: string;
  detail?: string;
  /** The file `range` points into (cwd-relative); without a range, the file or folder the finding is about. */
  file: string;
  /** The file the finding is about when it is not `file` (a missing reference, tools.json, a symlink). */
  relatedFile?: string;
  range?: Range;
  field?: string;
  fixes?: QuickFix[];
}

/** The JSON document `--format json` prints (schema: main/validate/validate-output.schema.json). */
export interface JsonReport {
  version: number;
  tool: { name: 'skillbench'; version: string };
  summary: SeverityCounts & { skills: number; fixedFiles: number };
  skills: {
    file: string;
    folder: string;
    relativePath: string;
    name: string | null;
    profiles: string[];
    profilesSource: 'given' | 'suggested';
    verdicts: Record<string, string>;
    counts: SeverityCounts;
    size: { files: number; bytes: number };
    targets: SkillValidation['targets'];
    diagnostics: JsonDiagnostic[];
  }[];
  libraries: { root: string; findings: LibraryFinding[]; budget: DescriptionBudget }[];
  fixes: {
    file: string;
    changed: boolean;
    applied: FixOutcome['applied'];
    renamedFolder?: { from: string; to: string };
    skipped: FixOutcome['skipped'];
  }[];
  inputErrors: { path: string; message: string }[];
}

/** `path` relative to `cwd`, `/`-separated ('.' for the cwd itself). */
export function displayPath(cwd: string, path: string): string {
  // Why a fast path: the paths shown are absolute and normalized (resolve, join), most of them
  // under cwd, where the relative path is the tail; path.relative for every skill's file and
  // folder showed in the profile of a 1,000-skill run.
  if (
    cwd.length > 1 &&
    !cwd.endsWith(sep) &&
    path.startsWith(cwd + sep) &&
    isNormal(path, cwd.length)
  ) {
    const tail = path.slice(cwd.length + 1);
    return sep === '/' ? tail : tail.split(sep).join('/');
  }
  const rel = relative(cwd, path).split(sep).join('/');
  return rel === '' ? '.' : rel;
}

/** Whether `path` after `from` has no empty, `.` or `..` segment (what path.relative would normalize away). */
function isNormal(path: string, from: number): boolean {
  const tail = path.slice(from) + sep;
  return (
    !tail.includes(sep + sep) && !tail.includes(`${sep}.${sep}`) && !tail.includes(`${sep}..${sep}`)
  );
}

function join2(a: string, b: string): string {
  return a === '.' ? b : `${a}/${b}`;
}

/** Where a diagnostic points: ranges are always in SKILL.md; otherwise the file it is about. */
function locate(
  cwd: string,
  skill: SkillValidation,
  d: Diagnostic,
): { file: string; relatedFile?: string } {
  const skillFile = displayPath(cwd, skill.file);
  const folder = displayPath(cwd, skill.dir);
  const about = d.file !== undefined && d.file !== '' ? join2(folder, d.file) : undefined;
  if (d.range)
    return about !== undefined && about !== skillFile
      ? { file: skillFile, relatedFile: about }
      : { file: skillFile };
  return { file: about ?? skillFile };
}

function totals(input: ValidateReportInput): SeverityCounts {
  const c: SeverityCounts = { error: 0, warning: 0, info: 0 };
  const add = (s: Severity): void => {
    c[s]++;
  };
  for (const s of input.skills) for (const d of s.diagnostics) add(d.severity);
  for (const l of input.libraries) for (const f of l.findings) add(f.severity);
  return c;
}

/** The run's findings as the documented, stable JSON document. */
export function toJsonReport(input: ValidateReportInput, cwd: string, version: string): JsonReport {
  const counts = totals(input);
  return {
    version: JSON_REPORT_VERSION,
    tool: { name: 'skillbench', version },
    summary: {
      skills: input.skills.length,
      ...counts,
      fixedFiles: input.fixes.filter((f) => f.changed).length,
    },
    skills: input.skills.map((s) => ({
      file: displayPath(cwd, s.file),
      folder: displayPath(cwd, s.dir),
      relativePath: s.relativePath,
      name: s.name,
      profiles: s.profiles,
      profilesSource: s.profilesSource,
      verdicts: s.verdicts,
      counts: s.counts,
      size: s.size,
      targets: s.targets,
      diagnostics: s.diagnostics.map((d) => {
        const out: JsonDiagnostic = {
          ruleId: d.ruleId,
          severity: d.severity,
          profile: d.profile,
          message: d.message,
          ...locate(cwd, s, d),
        };
        if (d.detail !== undefined) out.detail = d.detail;
        if (d.range) out.range = d.range;
        if (d.field !== undefined) out.field = d.field;
        if (d.fixes && d.fixes.length > 0) out.fixes = d.fixes;
        return out;
      }),
    })),
    libraries: input.libraries.map((l) => ({
      root: displayPath(cwd, l.root),
      findings: l.findings,
      budget: l.budget,
    })),
    fixes: input.fixes.map((f) => {
      const out: JsonReport['fixes'][number] = {
        file: displayPath(cwd, f.file),
        changed: f.changed,
        applied: f.applied,
        skipped: f.skipped,
      };
      if (f.renamedFolder)
        out.renamedFolder = {
          from: displayPath(cwd, f.renamedFolder.from),
          to: displayPath(cwd, f.renamedFolder.to),
        };
      return out;
    }),
    inputErrors: input.inputErrors,
  };
}

/**
 * Plain text for people: `file:line:col: severity rule-id [profiles] sentence`, the technical
 * detail indented below, then a summary line. The same finding raised by several profiles is
 * printed once with every profile named. Every path, message and detail goes through `term`:
 * they quote the skill's own names, keys and values, which must not drive the terminal.
 */
export function toText(input: ValidateReportInput, cwd: string): string {
  const lines: string[] = [];
  for (const f of input.fixes) {
    if (!f.changed && f.skipped.length === 0) continue;
    const where = displayPath(cwd, f.file);
    const titles = [...new Set(f.applied.map((a) => `${a.title} (${a.ruleId})`))];
    if (titles.length > 0) lines.push(term`fixed ${where}: ${titles.join('; ')}`);
    if (f.renamedFolder)
      lines.push(
        term`renamed folder ${displayPath(cwd, f.renamedFolder.from)} to ${displayPath(cwd, f.renamedFolder.to)}`,
      );
    for (const s of f.skipped) lines.push(term`not fixed in ${where}: ${s.title}. ${s.reason}`);
  }
  if (lines.length > 0) lines.push('');
  for (const s of input.skills) {
    const groups = new Map<string, { d: Diagnostic; where: string; profiles: string[] }>();
    for (const d of s.diagnostics) {
      const loc = locate(cwd, s, d);
      const where = d.range
        ? `${loc.file}:${d.range.start.line}:${d.range.start.column}`
        : loc.file;
      const key = `${where}\0${d.ruleId}\0${d.severity}\0${d.message}`;
      const g = groups.get(key);
      if (g) g.profiles.push(d.profile);
      else groups.set(key, { d, where, profiles: [d.profile] });
    }
    for (const { d, where, profiles } of groups.values()) {
      lines.push(term`${where}: ${d.severity} ${d.ruleId} [${profiles.join(', ')}] ${d.message}`);
      if (d.detail) lines.push(term`    ${d.detail}`);
    }
  }
  for (const l of input.libraries) {
    for (const f of l.findings) {
      lines.push(
        term`${displayPath(cwd, l.root)}: ${f.severity} ${f.ruleId} [library] ${f.message}`,
      );
      if (f.detail) lines.push(term`    ${f.detail}`);
    }
  }
  const c = totals(input);
  const n = input.skills.length;
  if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
  if (c.error + c.warning + c.info === 0) lines.push(`No problems found in ${count(n, 'skill')}.`);
  else
    lines.push(
      `Checked ${count(n, 'skill')}: ${count(c.error, 'error')}, ${count(c.warning, 'warning')}, ${count(c.info, 'note')}.`,
    );
  return `${lines.join('\n')}\n`;
}

const SARIF_LEVEL: Record<Severity, SarifLevel> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

function defaultLevel(rule: RuleInfo): SarifLevel {
  const sev = Object.values(rule.severity);
  return sev.includes('error') ? 'error' : sev.includes('warning') ? 'warning' : 'note';
}

/**
 * SARIF 2.1.0 for code-scanning tools: rules from the catalog with their help text, results
 * with `ruleId`, `level`, `message.text` and a physical location relative to the cwd
 * (`%SRCROOT%`), regions in 1-based lines and UTF-16 columns (end exclusive, as SARIF defines).
 */
export function toSarif(
  input: ValidateReportInput,
  cwd: string,
  version: string,
): Record<string, unknown> {
  const results: SarifResult[] = [];
  const text = (f: { message: string; detail?: string }): string =>
    f.detail ? `${f.message} (${f.detail})` : f.message;
  for (const s of input.skills) {
    for (const d of s.diagnostics) {
      const loc = locate(cwd, s, d);
      const props: Record<string, unknown> = { profile: d.profile };
      if (d.field !== undefined) props['field'] = d.field;
      if (loc.relatedFile !== undefined) props['relatedFile'] = loc.relatedFile;
      const r = d.range;
      results.push({
        ruleId: d.ruleId,
        level: SARIF_LEVEL[d.severity],
        text: text(d),
        file: loc.file,
        ...(r
          ? {
              region: {
                startLine: r.start.line,
                startColumn: r.start.column,
                endLine: r.end.line,
                endColumn: r.end.column,
              },
            }
          : {}),
        properties: props,
      });
    }
  }
  for (const l of input.libraries) {
    const root = displayPath(cwd, l.root);
    for (const f of l.findings)
      results.push({
        ruleId: f.ruleId,
        level: SARIF_LEVEL[f.severity],
        text: text(f),
        file: root === '.' ? './' : `${root}/`,
        properties: { skills: f.skills ?? [] },
      });
  }
  const rules = ALL_RULES.map((r) => ({
    id: r.id,
    name: r.id.replace(/(^|[/-])([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase()),
    title: r.title,
    description: r.help,
    help: r.help,
    level: defaultLevel(r),
    properties: { severityByProfile: r.severity },
  }));
  return sarifLog({ name: 'skillbench', version, rules }, cwd, results);
}
