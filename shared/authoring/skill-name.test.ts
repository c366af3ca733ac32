import { describe, expect, it } from 'vitest';
import { checkSkillName, suggestSkillName } from './skill-name';

describe('checkSkillName: the new-skill wizard', () => {
  it('accepts portable lowercase names', () => {
    for (const name of ['meeting-notes', 'pdf2', 'con-tools', 'console'])
      expect(checkSkillName(name)).toBeNull();
  });

  it('refuses names that pass the lowercase rules but cannot be a folder (Windows device names)', () => {
    for (const name of ['con', 'prn', 'aux', 'nul', 'com1', 'lpt9'])
      expect([name, checkSkillName(name)]).toEqual([
        name,
        expect.stringMatching(/cannot be one: it is a device name on Windows/),
      ]);
  });

  it('still explains the lowercase rules first', () => {
    expect(checkSkillName('.git')).toBe('Use only lowercase letters a–z, digits and hyphens.');
    expect(suggestSkillName('Meeting Notes!')).toBe('meeting-notes');
  });
});
