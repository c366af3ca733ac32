import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliCaptured as run } from '../../testing/cli-run';
import { skillMd, tempDir, writeTree } from '../../testing/skill-library';

type Dir = Awaited<ReturnType<typeof tempDir>>;

describe('skillbench select, run in process on a temp library', () => {
  let dir: Dir;

  beforeEach(async () => {
    dir = await tempDir('skillbench-cli-select-order-');
    await writeTree(dir.path, {
      'lib/pdf-forms/SKILL.md': skillMd(
        'name: pdf-forms\ndescription: Fill in PDF forms.\nwhen_to_use:\n  file_types: [.pdf]',
      ),
    });
  });

  afterEach(async () => {
    await dir?.remove();
  });

  it('says the prompt comes first when the folder was given first, instead of selecting nothing', async () => {
    const r = await run(['select', 'lib', 'fill in this form'], dir.path);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(
      'The prompt comes first, then the library folders: "lib" is a folder and "fill in this form" is not. Did you mean skillbench select "fill in this form" "lib"?',
    );
    const right = await run(['select', 'fill in this form', '--file', 'a.pdf', 'lib'], dir.path);
    expect(right.code).toBe(0);
    expect(right.out).toContain('1. pdf-forms  score 3');
  });

  it('--eval shows a rate with nothing to divide as "–", as the window does', async () => {
    await writeTree(dir.path, {
      'lib/pdf-forms/evals/triggers.json': JSON.stringify({ should_not_select: ['hello'] }),
    });
    const r = await run(['select', '--eval', 'lib'], dir.path);
    expect(r.code).toBe(0);
    expect(r.out).toContain('pdf-forms: precision –, recall –');
    expect(r.out).toContain('Library: precision –, recall –');
  });

  it('prints what in when_to_use was not read, so the author sees why a trigger never matches', async () => {
    await writeTree(dir.path, {
      'lib/notes/SKILL.md': skillMd(
        'name: notes\ndescription: Keep notes.\nwhen_to_use:\n  file_types: md\n  mentions: [notes]',
      ),
    });
    const r = await run(['select', 'my notes', '--file', 'a.md', 'lib'], dir.path);
    expect(r.out).toContain(
      '! when_to_use.file_types is written as text, not a list, so it is not read. Write file_types: [md].',
    );
  });

  it('--eval says when examples are not run because their skill is hidden by a name collision', async () => {
    await writeTree(dir.path, {
      'other/pdf-forms/SKILL.md': skillMd('name: pdf-forms\ndescription: Another copy.'),
      'other/pdf-forms/evals/triggers.json': JSON.stringify({ should_select: ['/pdf-forms'] }),
    });
    const r = await run(['select', '--eval', 'lib', 'other'], dir.path);
    expect(r.out).toContain(
      `Not run: the examples of pdf-forms (${dir.path}/other/pdf-forms/evals/triggers.json). Its skill ${dir.path}/other/pdf-forms/SKILL.md is hidden by a name collision, so the agent never sees it. Both are on disk; the folder opened first (${dir.path}/lib) wins.`,
    );
    const json = await run(['select', '--eval', '--format', 'json', 'lib', 'other'], dir.path);
    expect((JSON.parse(json.out) as { notRun: { name: string }[] }).notRun).toEqual([
      expect.objectContaining({ name: 'pdf-forms' }),
    ]);
  });
});
