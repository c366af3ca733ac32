import { expect, test } from '../fixtures';

const COLON =
  '---\nname: notes\ndescription: Use when: the user pastes meeting notes\n---\n# Notes\n\nTurn notes into action items.\n';
const BETA = '---\nname: beta\ndescription: Second skill. Use when asked.\n---\n# Beta\n';

test('the list badge, the Problems panel and "Fixed N problems" count the same problems; an old status line goes', async ({
  app,
  library,
}) => {
  await library.addSkill('notes', COLON);
  await library.addSkill('beta', BETA);
  await app.openFolder(library.dir);
  // Two targets raise the same finding: it is one problem everywhere.
  await app.page.getByRole('button', { name: /^Check for:/ }).click();
  await app.page.getByRole('checkbox', { name: 'claude.ai upload' }).check();
  await app.page.getByRole('button', { name: /^Check for:/ }).click();
  await app.openSkill('notes');
  await expect(app.problem('yaml/unquoted-colon')).toHaveCount(1);
  await expect(app.problem('yaml/unquoted-colon')).toContainText('Agent Skills, claude.ai upload');
  const heading = app.problems.getByRole('heading');
  await expect(heading).toContainText('(1 error, 0 warnings)');
  await expect(app.skill('notes').getByLabel('1 error')).toBeVisible();

  await app.problems.getByRole('button', { name: 'Fix all safe problems' }).click();
  await expect(app.status).toHaveText('Fixed 1 problem. Review, then save.');
  await expect(heading).toContainText('(0 errors, 0 warnings)');
  await app.saveButton.click();
  await expect(app.status).toHaveText('Saved');
  await expect(app.skill('notes').getByLabel('No problems')).toBeVisible();

  // "Saved" was about notes: it does not stay when another skill opens.
  await app.openSkill('beta');
  await expect(app.status).not.toHaveText('Saved');
});

test('the description-budget meter follows a saved description', async ({ app, library }) => {
  await library.addSkill('beta', BETA);
  await app.openFolder(library.dir);
  const meter = app.page.locator('label[for="budget-meter"]');
  const before = 'Second skill. Use when asked.'.length;
  await expect(meter).toContainText(`Descriptions: ${before} / 8,000 characters`);
  await app.openSkill('beta');
  await app.replaceLine(3, 'description: A much longer second skill. Use when the user asks.');
  await app.saveButton.click();
  await expect(app.status).toHaveText('Saved');
  const after = 'A much longer second skill. Use when the user asks.'.length;
  await expect(meter).toContainText(`Descriptions: ${after} / 8,000 characters`);
});
