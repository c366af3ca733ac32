import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinWalked } from '../platform/paths';
import { displayPath } from './report-format';

/** What displayPath gave before its fast path: path.relative, `/`-separated, '.' for the same folder. */
function byRelative(cwd: string, path: string): string {
  const rel = relative(cwd, path).split(sep).join('/');
  return rel === '' ? '.' : rel;
}

describe('displayPath', () => {
  const cwd = join(sep, 'work', 'project');
  const cases = [
    join(cwd, 'lib', 'skill-a', 'SKILL.md'),
    join(cwd, 'lib'),
    cwd,
    join(sep, 'work', 'project-b', 'x'),
    join(sep, 'work', 'other', 'SKILL.md'),
    join(sep, 'work'),
    sep,
    `${cwd}${sep}lib${sep}..${sep}x`,
    `${cwd}${sep}.${sep}x`,
    `${cwd}${sep}${sep}x`,
    `${cwd}${sep}`,
    `${cwd}${sep}a${sep}..`,
  ];
  it.each(cases)('gives what path.relative gives for %s', (path) => {
    expect(displayPath(cwd, path)).toBe(byRelative(cwd, path));
  });
  it('gives what path.relative gives from the root folder and from a cwd with a trailing separator', () => {
    for (const from of [sep, `${cwd}${sep}`, join(cwd, 'lib')])
      for (const path of cases) expect(displayPath(from, path)).toBe(byRelative(from, path));
  });
});

describe('joinWalked', () => {
  it('gives what path.join gives for the names a walk reads', () => {
    const roots = [join(sep, 'lib'), sep, join(sep, 'a b', 'c')];
    const rels = ['', 'skill', 'skill/references', 'skill/references/guide.md', '.hidden/x'];
    for (const root of roots)
      for (const rel of rels)
        expect(joinWalked(root, rel)).toBe(rel === '' ? root : join(root, ...rel.split('/')));
  });
});
