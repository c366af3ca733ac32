import { describe, expect, it } from 'vitest';
import { term, terminalText } from './terminal-text';

describe('terminalText: file-derived text never drives the terminal', () => {
  it('shows C0 controls, DEL and C1 controls as \\xHH escapes', () => {
    expect(terminalText('a\u001b[2Jb\u0007c\u0000d\u007fe\u009bf\u0085')).toBe(
      'a\\x1b[2Jb\\x07c\\x00d\\x7fe\\x9bf\\x85',
    );
  });

  it('shows bidi, zero-width and other invisible format characters as \\uXXXX escapes', () => {
    expect(terminalText('\u202egnp.exe \u200b\u200d\u2066x\u2069\ufeff\u00ad\u2028')).toBe(
      '\\u202egnp.exe \\u200b\\u200d\\u2066x\\u2069\\ufeff\\xad\\u2028',
    );
  });

  it('escapes newlines, returns and tabs inside a value, and keeps \\n and \\t for whole outputs', () => {
    expect(terminalText('one\ntwo\r\tthree')).toBe('one\\ntwo\\r\\tthree');
    expect(terminalText('one\ntwo\r\tthree', { lineBreaks: 'keep' })).toBe('one\ntwo\\r\tthree');
  });

  it('leaves printable text alone (accents, CJK, emoji, backslashes) and changes nothing on a second pass', () => {
    const plain = 'café 日本語 🚀 C:\\Users\\me "quoted" \\x1b';
    expect(terminalText(plain)).toBe(plain);
    const hostile = 'name\u001b]0;owned\u0007\n\u202e';
    expect(terminalText(terminalText(hostile))).toBe(terminalText(hostile));
  });

  it('term escapes every value, newlines included, and keeps the literal parts', () => {
    const name = 'evil\nImported fake into /etc\u001b[0m';
    expect(term`Skill ${name}: ${3} files\n`).toBe(
      'Skill evil\\nImported fake into /etc\\x1b[0m: 3 files\n',
    );
  });
});
