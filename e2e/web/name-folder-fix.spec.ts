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

test('the folder is not renamed over one that exists, and nothing changes', async ({
  app,
  library,
}) => {
  await library.addSkill('Slide-Maker', SLIDES);
  await library.addFile('slide-maker/notes.txt', 'mine');
  await app.openFolder(library.dir);
  await app.openSkill('Slide-Maker');
  await app
    .problem('name/uppercase')
    .getByRole('button', { name: "Rename the skill and its folder to 'slide-maker'" })
    .click();
  await expect(
    app.alert.filter({ hasText: 'A folder named "slide-maker" already exists' }),
  ).toBeVisible();
  expect(await readFile(join(library.dir, 'Slide-Maker', 'SKILL.md'), 'utf8')).toBe(SLIDES);
  expect(await readFile(join(library.dir, 'slide-maker', 'notes.txt'), 'utf8')).toBe('mine');
  await expect(app.editor).toHaveAttribute('data-dirty', 'false');
});
