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
