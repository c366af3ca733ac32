import { describe, expect, it } from 'vitest';
import { parseSkill } from '../skill';
import { chooseProfiles } from './choose-profiles';
import { validateSkill } from './validate-skill';

const X_PERSONAL =
  '---\nname: notes\ndescription: Takes notes. Use when asked.\nx-personal-mcp:\n  id: notes\n  version: 1.0.0\n---\n# Notes\n';

describe('chooseProfiles', () => {
  it('checks a skill for its own format, then the extra targets', () => {
    const choice = chooseProfiles(parseSkill(X_PERSONAL), undefined, ['claude-upload']);
    expect(choice).toEqual({
      profiles: ['x-personal-mcp', 'claude-upload'],
      own: ['x-personal-mcp'],
      source: 'suggested',
    });
  });

  it('takes the profiles the caller names instead (the command line --profile)', () => {
    const choice = chooseProfiles(parseSkill(X_PERSONAL), ['agentskills'], ['claude-upload']);
    expect(choice).toEqual({ profiles: ['agentskills'], own: ['agentskills'], source: 'given' });
  });

  it('checks a plain skill for the Agent Skills format', () => {
    const plain = '---\nname: a\ndescription: b\n---\n';
    expect(chooseProfiles(parseSkill(plain)).profiles).toEqual(['agentskills']);
  });
});

describe('fixes of extra targets', () => {
  it('never offers to move a field of the skill own format into metadata', () => {
    const choice = chooseProfiles(parseSkill(X_PERSONAL), undefined, ['agentskills']);
    const result = validateSkill(X_PERSONAL, {
      profiles: choice.profiles,
      ownProfiles: choice.own,
    });
    const unexpected = result.diagnostics.filter(
      (d) => d.ruleId === 'keys/unexpected' && d.field === '/x-personal-mcp',
    );
    expect(unexpected.map((d) => d.profile)).toEqual(['agentskills']);
    expect(unexpected[0]?.fixes).toBeUndefined();
    expect(unexpected[0]?.message).toContain("part of this skill's own format");
    expect(unexpected[0]?.message).not.toContain('move it into metadata');
    // Without knowing the own format, the same finding offers the move.
    const bare = validateSkill(X_PERSONAL, { profiles: ['agentskills'] });
    expect(bare.diagnostics.find((d) => d.field === '/x-personal-mcp')?.fixes?.[0]?.title).toMatch(
      /metadata/i,
    );
  });
});
