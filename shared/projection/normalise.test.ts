import { describe, expect, it } from 'vitest';
import { skillFolderNameProblem } from './normalise';

describe('skillFolderNameProblem: is a name safe as the folder of a skill', () => {
  it('accepts ordinary names, Unicode letters included', () => {
    for (const name of ['notes', 'meeting-notes', 'pdf_2', 'café', 'con-tools', 'auxiliary', 'a.b'])
      expect([name, skillFolderNameProblem(name)]).toEqual([name, undefined]);
  });

  it('refuses dot-names, separators, Windows device names, trailing dots and spaces, controls and invisible characters', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['.', /starts with a dot/],
      ['..', /starts with a dot/],
      ['.git', /starts with a dot/],
      ['.claude', /starts with a dot/],
      ['a/b', /path of several folders/],
      ['a\\b', /path of several folders/],
      ['CON', /device name/],
      ['con', /device name/],
      ['Nul.txt', /device name/],
      ['aux.tar.gz', /device name/],
      ['COM1', /device name/],
      ['lpt9.md', /device name/],
      ['PRN', /device name/],
      ['notes.', /ends with a dot or a space/],
      ['notes ', /ends with a dot or a space/],
      ['a\u0000b', /control character/],
      ['a\u001b[31mb', /control character/],
      ['a\u007fb', /control character/],
      ['a\u009bb', /invisible/],
      ['\u202egnp.exe', /invisible/],
      ['a\u200bb', /invisible/],
      ['a:b', /Windows does not allow/],
      ['x'.repeat(256), /longer than 255 bytes/],
    ];
    for (const [name, why] of cases)
      expect([name, skillFolderNameProblem(name)]).toEqual([name, expect.stringMatching(why)]);
  });
});
