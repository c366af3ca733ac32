import { describe, expect, it } from 'vitest';
import { classifyLinkTarget, findFileMentions, findMarkdownLinks } from './markdown-links';

const targets = (md: string): string[] => findMarkdownLinks(md).map((l) => l.target);

describe('findMarkdownLinks', () => {
  it('finds inline links, images, angle-bracket and parenthesised destinations with exact offsets', () => {
    const md =
      'A [x](a.md "t") ![i](img/p.png) [y](<my file.md>) [z](f(1).md)\r\n[r]: refs/r.md\r\n';
    const links = findMarkdownLinks(md, 100);
    expect(links.map((l) => [l.target, l.image])).toEqual([
      ['a.md', false],
      ['img/p.png', true],
      ['my file.md', false],
      ['f(1).md', false],
      ['refs/r.md', false],
    ]);
    for (const l of links) expect(md.slice(l.start - 100, l.end - 100)).toBe(l.target);
  });

  it('ignores links in fenced blocks (``` and ~~~), unclosed fences, indented code and code spans', () => {
    const md = [
      '[a](1.md)',
      '~~~',
      '[b](2.md)',
      '~~~',
      '    [c](3.md)',
      'x `[d](4.md)` [e](5.md)',
      '```js',
      '[f](6.md)',
    ].join('\n');
    expect(targets(md)).toEqual(['1.md', '5.md']);
  });
});

describe('classifyLinkTarget', () => {
  it('separates external, absolute, outside and relative targets', () => {
    expect(classifyLinkTarget('https://x.org/a')).toEqual({ kind: 'external' });
    expect(classifyLinkTarget('mailto:a@b.c')).toEqual({ kind: 'external' });
    expect(classifyLinkTarget('#usage')).toEqual({ kind: 'external' });
    expect(classifyLinkTarget('/etc/passwd')).toEqual({ kind: 'absolute', path: '/etc/passwd' });
    expect(classifyLinkTarget('../x.md')).toEqual({ kind: 'outside', path: '../x.md' });
    expect(classifyLinkTarget('a/../../x.md')).toEqual({ kind: 'outside', path: 'a/../../x.md' });
    expect(classifyLinkTarget('./a/./b/../c%20d.md#sec')).toEqual({
      kind: 'relative',
      path: 'a/c d.md',
    });
    expect(classifyLinkTarget('${CLAUDE_SKILL_DIR}/scripts/run.sh')).toEqual({
      kind: 'relative',
      path: 'scripts/run.sh',
    });
  });
});

describe('findFileMentions', () => {
  it('finds paths into the skill folders with their prefixes and exact offsets, in text order', () => {
    const md =
      'Run ${CLAUDE_SKILL_DIR}/scripts/a.py, then ./assets/b.png.\n`references/scripts/c.md` and (scripts/d.sh).';
    const found = findFileMentions(md, 10);
    expect(found.map((m) => m.path)).toEqual([
      'scripts/a.py',
      'assets/b.png',
      'references/scripts/c.md',
      'scripts/d.sh',
    ]);
    expect(found.map((m) => md.slice(m.start - 10, m.end - 10))).toEqual([
      '${CLAUDE_SKILL_DIR}/scripts/a.py',
      './assets/b.png',
      'references/scripts/c.md',
      'scripts/d.sh',
    ]);
  });

  it('leaves out paths inside other paths or words, patterns, folders and link destinations', () => {
    const md =
      'myassets/x.png lib/scripts/y.py scripts/*.py scripts/{n}.py scripts/ references/notes [g](scripts/z.py)';
    expect(findFileMentions(md)).toEqual([]);
  });
});
