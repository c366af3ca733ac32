import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_DESCRIPTION, templateTextIn } from './template-text';

describe('template text in a description', () => {
  it.each([
    [PLACEHOLDER_DESCRIPTION, 'the placeholder that skillbench new writes'],
    [`  ${PLACEHOLDER_DESCRIPTION}\n`, 'the placeholder that skillbench new writes'],
    ['TODO: Describe when this skill should be used', 'a TODO note'],
    ['[TODO: Complete and informative explanation of what the skill does]', 'a TODO note'],
    ['FIXME - write this', 'a FIXME note'],
    ['TBD', 'a TBD note'],
    ['{{description}}', 'the unfilled slot {{description}}'],
    ['{{ skill.description }}', 'the unfilled slot {{ skill.description }}'],
  ])('%j is %s', (text, what) => {
    expect(templateTextIn(text)).toBe(what);
  });

  it.each([
    'Todo lists: adds, sorts and closes items. Use when the user manages tasks.',
    'TODOs in code: finds every TODO comment. Use when the user asks what is left.',
    'Fills {{name}} slots in mail templates. Use when the user writes a mail merge.',
    'Describe what this skill does: a meta skill. Use when reviewing skill descriptions.',
    'Turns meeting notes into action items. Use when the user pastes notes.',
  ])('%j is a real description', (text) => {
    expect(templateTextIn(text)).toBeNull();
  });
});
