import { seriousViolations } from '../axe';
import { expect, test } from '../fixtures';

test('the main screens have no serious accessibility violations (axe-core)', async ({
  app,
  library,
}) => {
  expect(await seriousViolations(app.page), 'empty window').toEqual([]);

  await library.addSkill('alpha', '---\nname: alpha\ndescription: Uses: a colon\n---\n# Alpha\n');
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  await expect(app.problems).toContainText('colon');
  expect(await seriousViolations(app.page), 'library with an open skill').toEqual([]);

  await app.newSkillButton.click();
  await expect(app.page.getByRole('dialog', { name: 'New skill' })).toBeVisible();
  expect(await seriousViolations(app.page), 'new-skill wizard').toEqual([]);
});

test('everything needed is reachable from the keyboard: search, next skill, save, quick fix', async ({
  app,
  library,
}) => {
  await library.addSkill('alpha', '---\nname: alpha\ndescription: Uses: a colon\n---\n# Alpha\n');
  await library.addSkill('beta', '---\nname: beta\ndescription: Fine.\n---\n# Beta\n');
  await app.openFolder(library.dir);
  await expect(app.page.getByRole('dialog')).toBeHidden();
  await app.page.keyboard.press('ControlOrMeta+k');
  await expect(app.search).toBeFocused();
  await app.page.keyboard.type('alp');
  await expect(app.page.getByText('1 of 2 skills')).toBeVisible();
  await app.skill('alpha').focus();
  await app.page.keyboard.press('Enter');
  await expect(app.editor).toHaveAttribute('data-state', 'ready');

  // Quick fix from the keyboard: put the cursor on the marker and press Ctrl+. (Monaco's code actions).
  await app.page.locator('.monaco-editor .view-line').nth(2).getByText('Uses').click();
  await app.page.keyboard.press('ControlOrMeta+.');
  await expect(app.page.locator('.action-widget')).toContainText('Put the value in quotes');
  await app.page.keyboard.press('Enter');
  await expect(app.problem('yaml/unquoted-colon')).toHaveCount(0);
  await app.page.keyboard.press('ControlOrMeta+s');
  await expect(app.status).toHaveText('Saved');
  expect(await library.read(`${library.dir}/alpha/SKILL.md`)).toContain(
    'description: "Uses: a colon"',
  );
});
