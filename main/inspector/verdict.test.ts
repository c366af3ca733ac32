import { describe, expect, it } from 'vitest';
import { inspectionVerdict } from './verdict';
import type {
  DiscoveryResult,
  InspectedSkill,
  ReportCard,
  ReportCheck,
  SkillVerification,
} from './types';

function skill(uri: string, problems: string[] = []): InspectedSkill {
  return {
    key: `s\n${uri}`,
    server: 's',
    uri,
    name: 'x',
    rootUri: uri.replace(/\/SKILL\.md$/, ''),
    route: 'extension',
    sameNameAs: [],
    problems,
  };
}

function discovery(extra: Partial<DiscoveryResult> = {}): DiscoveryResult {
  return {
    server: 's',
    route: 'extension',
    steps: [{ route: 'extension', outcome: 'used', detail: 'skills/list: 1 skill.' }],
    skills: [skill('skill://a/SKILL.md')],
    templates: [],
    partial: false,
    problems: [],
    durationMs: 1,
    ...extra,
  };
}

function verified(uri: string, verdict: SkillVerification['verdict']): SkillVerification {
  return { key: uri, uri, verdict, files: [], problems: [], bytesRead: 0, durationMs: 0 };
}

function card(checks: Pick<ReportCheck, 'title' | 'status' | 'summary'>[]): ReportCard {
  const full = checks.map((c, i) => ({ ...c, id: `c${i}`, evidence: [], source: '' }));
  const count = (s: ReportCheck['status']): number => full.filter((c) => c.status === s).length;
  return {
    server: 's',
    target: 'http://127.0.0.1:1/mcp',
    generatedAt: '',
    durationMs: 0,
    skills: 1,
    files: 2,
    bytesRead: 10,
    verdict: count('fail') > 0 ? 'fail' : 'pass',
    counts: { pass: count('pass'), fail: count('fail'), warn: count('warn'), skip: count('skip') },
    checks: full,
  };
}

describe('the verdict of an inspection', () => {
  it('with a report card: a failed check is a reason, and a passing card is not called "no file was read"', () => {
    const failed = inspectionVerdict({
      discovery: discovery(),
      report: card([
        { title: 'Entry shape', status: 'pass', summary: 'ok' },
        { title: 'Digests and sizes', status: 'fail', summary: '1 problem found.' },
      ]),
    });
    expect(failed).toEqual({
      ok: false,
      headline: 'The server fails the report card.',
      reasons: [
        {
          plain: 'The report card failed 1 check.',
          detail: ['Digests and sizes: 1 problem found.'],
        },
      ],
    });
    const passed = inspectionVerdict({
      discovery: discovery(),
      report: card([{ title: 'Digests and sizes', status: 'pass', summary: 'ok' }]),
    });
    expect(passed).toEqual({
      ok: true,
      headline: 'The whole listing was read and the report card passes.',
      reasons: [],
    });
  });

  it('is a yes only for a clean, complete listing whose every skill verified', () => {
    const v = inspectionVerdict({
      discovery: discovery(),
      verifications: [verified('skill://a/SKILL.md', 'verified')],
      unreadable: { count: 0, samples: [] },
    });
    expect(v).toEqual({
      ok: true,
      headline: 'Verified: every listed skill and file matches what the server listed.',
      reasons: [],
    });
  });

  it('a skill that could not be verified is a no, like one that failed', () => {
    const v = inspectionVerdict({
      discovery: discovery(),
      verifications: [
        verified('skill://a/SKILL.md', 'unverifiable'),
        verified('skill://b/SKILL.md', 'failed'),
      ],
    });
    expect(v.ok).toBe(false);
    expect(v.headline).toBe('Not verified.');
    expect(v.reasons.map((r) => [r.plain.split(':')[0], r.detail])).toEqual([
      ['1 skill failed verification', ['skill://b/SKILL.md']],
      ['1 skill could not be verified', ['skill://a/SKILL.md']],
    ]);
  });

  it('a partial listing, a failed listing step and output that is not MCP are each a no, even with every skill verified', () => {
    const ok = [verified('skill://a/SKILL.md', 'verified')];
    const partial = inspectionVerdict({
      discovery: discovery({ partial: true, problems: ['Stopped after 5 pages.'] }),
      verifications: ok,
    });
    expect(partial.reasons).toEqual([
      {
        plain:
          "The server's list of skills could not be read to the end, so skills may be missing.",
        detail: ['Stopped after 5 pages.'],
      },
    ]);
    const failedStep = inspectionVerdict({
      discovery: discovery({
        steps: [{ route: 'extension', outcome: 'failed', detail: 'closed the connection' }],
      }),
      verifications: ok,
    });
    expect(failedStep.reasons[0]?.plain).toBe(
      'Listing the skills failed, so skills may be missing.',
    );
    const garbage = inspectionVerdict({
      discovery: discovery(),
      verifications: ok,
      unreadable: { count: 3, samples: ['Unexpected token'] },
    });
    expect(garbage.ok).toBe(false);
    expect(garbage.reasons[0]?.plain).toBe(
      'The server wrote 3 lines on its output that are not MCP messages, so its answers cannot be trusted.',
    );
  });

  it('listing only: judges the listing and the entries, claims nothing about files', () => {
    expect(inspectionVerdict({ discovery: discovery() })).toMatchObject({
      ok: true,
      headline: 'The whole listing was read. No file was read or verified (add --verify for that).',
    });
    const faulty = inspectionVerdict({
      discovery: discovery({ skills: [skill('skill://a/SKILL.md', ['name differs'])] }),
    });
    expect(faulty).toMatchObject({
      ok: false,
      headline: 'The listing is not complete or not clean.',
      reasons: [{ detail: ['skill://a/SKILL.md: name differs'] }],
    });
  });

  it('no skills and nothing wrong: nothing to verify, which is not a failure', () => {
    const v = inspectionVerdict({ discovery: discovery({ skills: [] }), verifications: [] });
    expect(v).toMatchObject({
      ok: true,
      headline: 'The server lists no skills, so there was nothing to verify.',
    });
  });

  it('keeps at most ten detail lines per reason', () => {
    const many = Array.from({ length: 14 }, (_, i) => verified(`skill://s${i}/SKILL.md`, 'failed'));
    const v = inspectionVerdict({ discovery: discovery(), verifications: many });
    expect(v.reasons[0]?.detail).toHaveLength(11);
    expect(v.reasons[0]?.detail[10]).toBe('… and 4 more.');
  });
});
