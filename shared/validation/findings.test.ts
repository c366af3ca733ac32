import { describe, expect, it } from 'vitest';
import { countFindings, groupFindings } from './findings';
import { validateSkill } from './validate-skill';

const COLON = '---\nname: notes\ndescription: Use when: the user pastes notes\n---\n# Notes\n';

describe('groupFindings / countFindings', () => {
  it('counts a finding raised by several profiles once, at its most severe', () => {
    const { diagnostics } = validateSkill(COLON, { profiles: ['agentskills', 'claude-upload'] });
    const colon = diagnostics.filter((d) => d.ruleId === 'yaml/unquoted-colon');
    expect(colon).toHaveLength(2);
    expect(groupFindings(colon)).toHaveLength(1);
    expect(countFindings(colon)).toEqual({ error: 1, warning: 0, info: 0 });
  });

  it('keeps findings about different files apart', () => {
    const d = { ruleId: 'link/missing', severity: 'warning' as const, message: 'Missing.' };
    expect(
      countFindings([
        { ...d, file: 'a.md' },
        { ...d, file: 'b.md' },
      ]).warning,
    ).toBe(2);
  });
});
