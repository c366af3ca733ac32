/**
 * The safety review's output for the command line: text for people, the JSON document
 * `skillbench scan --format json` promises, and SARIF 2.1.0. Accepted findings stay in all
 * three: marked "(accepted …)" in text and JSON, as SARIF suppressions.
 */
import { relative, sep } from 'node:path';
import { SAFETY_RULES, type SafetyFinding, type SafetySeverity } from '../../shared/safety';
import { sarifLog, type SarifLevel, type SarifResult } from '../platform/sarif';
import { term } from '../security/terminal-text';
import type { ReviewedSkill } from './service';
import { count } from '../../shared/text/words';

/** The JSON document of `scan --format json` (docs/safety-review.md, "Output"). */
export interface ScanJson {
  skills: {
    path: string;
    name: string;
    verdict: 'clear' | 'review' | 'danger';
    findings: {
      rule: string;
      severity: SafetySeverity;
      file: string;
      line: number;
      title: string;
      detail: string;
    }[];
    notExamined: { path: string; reason: string }[];
  }[];
}

function shown(cwd: string, path: string): string {
  // Why: a skill read from a server (inspect --scan) is named by its URI, which is no file path
  // (taken as one, skill://pdf/SKILL.md came out as skill:/pdf/SKILL.md).
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return path;
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel.split(sep).join('/');
}

/** The detail with what a person added: the hidden text decoded, the acceptance. */
function fullDetail(f: SafetyFinding): string {
  let d = f.detail;
  if (f.hidden !== undefined) d += ` | hidden text: ${f.hidden}`;
  if (f.accepted) d += ` | accepted until ${f.accepted.expires.slice(0, 10)}: ${f.accepted.reason}`;
  return d;
}

/** The JSON document (exactly the shape docs/safety-review.md gives). */
export function toScanJson(skills: readonly ReviewedSkill[], cwd: string): ScanJson {
  return {
    skills: skills.map((s) => ({
      path: shown(cwd, s.path),
      name: s.name,
      verdict: s.report.verdict,
      findings: s.report.findings.map((f) => ({
        rule: f.rule,
        severity: f.severity,
        file: f.file,
        line: f.line,
        title: f.title,
        detail: fullDetail(f),
      })),
      notExamined: s.report.notExamined.map((n) => ({ path: n.path, reason: n.reason })),
    })),
  };
}

const MARK: Record<string, string> = { clear: '✓', review: '!', danger: '✗' };

/** Text for people: the verdict, what the skill can do, each finding with where, why and what to do. */
export function toScanText(skills: readonly ReviewedSkill[], cwd: string): string {
  const out: string[] = [];
  for (const s of skills) {
    const r = s.report;
    out.push(term`${MARK[r.verdict] ?? ''} ${s.name} (${shown(cwd, s.path)}): ${r.headline}`);
    out.push(term`  What it can do: ${r.summary}`);
    if (s.accepted)
      out.push(
        term`  You chose to trust it until ${s.accepted.expires.slice(0, 10)}: ${s.accepted.reason}`,
      );
    for (const f of r.findings) {
      const where = f.line > 0 ? `${f.file}:${f.line}${f.column ? `:${f.column}` : ''}` : f.file;
      out.push(
        term`  ${f.severity.toUpperCase()} ${where} ${f.title}${f.accepted ? ' (accepted)' : ''} [${f.rule}]`,
      );
      if (f.excerpt) out.push(term`      line: ${f.excerpt}`);
      if (f.hidden !== undefined) out.push(term`      hidden text: ${f.hidden}`);
      out.push(term`      detail: ${f.detail}`);
      out.push(term`      why: ${f.why}`);
      out.push(term`      what to do: ${f.action}`);
    }
    for (const n of r.notExamined) out.push(term`  NOT EXAMINED ${n.path}: ${n.reason}`);
    out.push('');
  }
  const trusted = (s: ReviewedSkill): boolean =>
    s.accepted !== undefined && s.report.findings.some((f) => f.severity !== 'low');
  const withVerdict = (v: string): number =>
    skills.filter((s) => s.report.verdict === v && !trusted(s)).length;
  const byYou = skills.filter(trusted).length;
  out.push(
    `${count(skills.length, 'skill')}: ${withVerdict('danger')} don't trust, ${withVerdict('review')} review before trusting, ${withVerdict('clear')} no known risks found${byYou > 0 ? `, ${byYou} trusted by you` : ''}.`,
  );
  return `${out.join('\n')}\n`;
}

const SARIF_LEVEL: Record<SafetySeverity, SarifLevel> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
};

/** SARIF 2.1.0: the review's rules, one result per finding, accepted ones as external suppressions. */
export function toScanSarif(
  skills: readonly ReviewedSkill[],
  cwd: string,
  version: string,
): Record<string, unknown> {
  const results: SarifResult[] = [];
  for (const s of skills) {
    const base = shown(cwd, s.path);
    for (const f of s.report.findings)
      results.push({
        ruleId: f.rule,
        level: SARIF_LEVEL[f.severity],
        text: `${f.title}: ${f.detail}${f.hidden !== undefined ? ` (hidden text: ${f.hidden})` : ''}`,
        file: base === '.' ? f.file : `${base}/${f.file}`,
        ...(f.line > 0
          ? {
              region: {
                startLine: f.line,
                ...(f.column !== undefined
                  ? { startColumn: f.column, endColumn: f.endColumn ?? f.column + 1 }
                  : {}),
              },
            }
          : {}),
        properties: {
          severity: f.severity,
          skill: s.name,
          verdict: s.report.verdict,
          why: f.why,
          action: f.action,
        },
        ...(f.accepted
          ? { acceptedBecause: `${f.accepted.reason} (until ${f.accepted.expires})` }
          : {}),
      });
  }
  const rules = SAFETY_RULES.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.why,
    help: r.action,
    level: SARIF_LEVEL[r.severity],
    properties: { category: r.category, severity: r.severity },
  }));
  return sarifLog({ name: 'skillbench-scan', version, rules }, cwd, results);
}
