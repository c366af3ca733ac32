import { renderTemplate } from '../../shared/authoring/templates';
import { join } from 'node:path';
import { expect, test } from '../fixtures';

const SHOTS = join(import.meta.dirname, '..', '..', 'out', 'screenshots');

const DESCRIPTION = 'Turns meeting notes into action items. Use when the user pastes notes.';

test('with default settings each skill is checked for its own format; extra targets come on top and refresh the open skill', async ({
  app,
  library,
}) => {
  for (const [id, name] of [
    ['x-personal-mcp', 'personal-notes'],
    ['universal-tool', 'universal-notes'],
  ] as const) {
    for (const [path, text] of Object.entries(renderTemplate(id, name, DESCRIPTION)))
      await library.addFile(`${name}/${path}`, text);
  }
  await app.openFolder(library.dir);
  await expect(app.skill('personal-notes').getByLabel('No problems')).toBeVisible();
  await expect(app.skill('universal-notes').getByLabel('No problems')).toBeVisible();
  await expect(app.page.getByRole('button', { name: /^Check for:/ })).toHaveText(
    'Check for: own format',
  );

  await app.openSkill('personal-notes');
  await expect(app.problems.getByRole('heading')).toContainText('(0 errors, 0 warnings)');

  // The user adds the claude.ai upload on top: the open skill is checked again at once.
  await app.page.getByRole('button', { name: /^Check for:/ }).click();
  await app.page.getByRole('checkbox', { name: 'claude.ai upload' }).check();
  const unexpected = app.problem('keys/unexpected');
  await expect(unexpected).toContainText('"x-personal-mcp"');
  await expect(unexpected).toContainText('claude.ai upload');
  // Moving the block into metadata would break the skill for its own format: not offered.
  await expect(unexpected.getByRole('button', { name: /^Move .* into metadata/ })).toHaveCount(0);
  await expect(unexpected).toContainText("part of this skill's own format");
  await expect(app.skill('personal-notes').getByLabel(/error/)).toBeVisible();
  await app.page.screenshot({ path: join(SHOTS, 'extra-targets.png') });

  await app.page.getByRole('checkbox', { name: 'claude.ai upload' }).uncheck();
  await expect(app.problems.getByRole('heading')).toContainText('(0 errors, 0 warnings)');
  await expect(app.skill('personal-notes').getByLabel('No problems')).toBeVisible();
});

for (const template of [
  'x-personal-mcp repository skill',
  'Universal 2.1 skill with one tool',
  'Claude Code command skill',
]) {
  test(`the wizard's "${template}" template opens with no errors`, async ({ app, library }) => {
    await app.openFolder(library.dir);
    await app.createSkill('slide-maker', DESCRIPTION, template);
    await expect(app.problems.getByRole('heading')).toContainText('(0 errors');
    await expect(app.skill('slide-maker').getByLabel(/error/)).toHaveCount(0);
  });
}
