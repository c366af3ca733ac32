import type { ChannelOutput, SkillSummary } from '../../../shared/ipc/contract';

/** A list row for a skill under /lib. */
export function summary(name: string, patch: Partial<SkillSummary> = {}): SkillSummary {
  return {
    path: `/lib/${name}/SKILL.md`,
    relativeDir: name,
    root: '/lib',
    name,
    description: `The ${name} skill.`,
    counts: { error: 0, warning: 0, info: 0 },
    suggestedProfiles: ['agentskills'],
    ...patch,
  };
}

/** A library listing of these skills under /lib. */
export function listing(skills: SkillSummary[], roots = ['/lib']): ChannelOutput<'library.list'> {
  return {
    roots,
    skills,
    findings: [],
    budget: { total: 0, limit: 8000, over: false, shares: [] },
    problems: [],
  };
}

/** A safety review as main answers it: no finding ("clear"), or one critical finding ("danger"). */
export function reviewed(
  path: string,
  verdict: 'clear' | 'danger' = 'clear',
): ChannelOutput<'safety.review'> {
  const danger = verdict === 'danger';
  return {
    path,
    name: path.split('/').at(-1) ?? '',
    hash: 'a'.repeat(64),
    report: {
      verdict,
      headline: danger ? "Don't trust" : 'No known risks found',
      summary: danger
        ? 'Runs commands: scripts/setup.sh; contacts 1 web address.'
        : 'Instructions only: runs no commands and contacts no web addresses.',
      capabilities: {
        runs: danger ? ['scripts/setup.sh'] : [],
        contacts: [],
        reads: [],
        changes: [],
      },
      findings: danger
        ? [
            {
              rule: 'scripts/download-execute',
              severity: 'critical',
              category: 'scripts',
              file: 'scripts/setup.sh',
              line: 2,
              title: 'Downloads a program and runs it',
              detail: 'curl … | sh',
              why: 'Whatever the address serves runs with your permissions.',
              action: 'Do not trust this skill unless you know the address.',
            },
          ]
        : [],
      notExamined: [],
    },
  };
}
