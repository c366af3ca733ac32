import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '../fixtures';

const SLIDES =
  '---\nname: Slide-Maker\ndescription: Makes slide decks from notes. Use when the user asks for slides.\n---\n# Slides\n';

test('the name fix renames the skill and its folder together; the editor and the list follow', async ({
  app,
  library,
}) => {
  await library.addSkill('Slide-Maker', SLIDES);
  await app.openFolder(library.dir);
  await app.openSkill('Slide-Maker');
  await app
    .problem('name/uppercase')
    .getByRole('button', { name: "Rename the skill and its folder to 'slide-maker'" })
    .click();
  await expect(app.status).toContainText('Renamed the folder to "slide-maker"');
  await expect(app.problems.getByRole('heading')).toContainText('(0 errors, 0 warnings)');
  await expect(app.skill('slide-maker').getByLabel('No problems')).toBeVisible();
  await expect(app.skill('Slide-Maker')).toHaveCount(0);
  await expect(app.editor).toHaveAttribute('data-dirty', 'false');
  expect(await readFile(join(library.dir, 'slide-maker', 'SKILL.md'), 'utf8')).toBe(
    SLIDES.replace('name: Slide-Maker', 'name: slide-maker'),
  );
  await expect(access(join(library.dir, 'Slide-Maker'))).rejects.toThrow();
});

test('the fix is not offered when a folder of that name is already beside it, and the problem says so', async ({
  app,
  library,
}) => {
  await library.addSkill('Slide-Maker', SLIDES);
  await library.addFile('slide-maker/notes.txt', 'mine');
  await library.addSkill('slides', SLIDES.replace('name: Slide-Maker', 'name: slide-maker'));
  await app.openFolder(library.dir);
  await app.openSkill('Slide-Maker');
  await expect(app.problem('name/uppercase')).toBeVisible();
  // The message is a button that shows its place; no fix button sits beside it.
  await expect(app.problem('name/uppercase').locator('.problem-fixes button')).toHaveCount(0);
  await app.openSkill('slide-maker');
  const mismatch = app.problem('name/folder-mismatch');
  await expect(mismatch).toContainText(
    'Another folder beside this one is already called "slide-maker", so change the name, or rename or move that other folder first.',
  );
  await expect(mismatch.locator('.problem-fixes button')).toHaveText([
    "Change the name to 'slides'",
  ]);
  expect(await readFile(join(library.dir, 'Slide-Maker', 'SKILL.md'), 'utf8')).toBe(SLIDES);
  expect(await readFile(join(library.dir, 'slide-maker', 'notes.txt'), 'utf8')).toBe('mine');
});
