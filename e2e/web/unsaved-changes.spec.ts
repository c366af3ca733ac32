import { join } from 'node:path';
import { expect, test } from '../fixtures';

const SHOTS = join(import.meta.dirname, '..', '..', 'out', 'screenshots');

const ALPHA =
  '---\nname: alpha\ndescription: First skill. Use when asked.\n---\n# Alpha\n\nUse it well.\n';
const BETA = '---\nname: beta\ndescription: Second skill. Use when asked.\n---\n# Beta\n';

test('leaving unsaved changes asks in the window: Cancel stays, Discard drops them, Save keeps them', async ({
  app,
  library,
}) => {
  const alpha = await library.addSkill('alpha', ALPHA);
  await library.addSkill('beta', BETA);
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  const dialog = app.page.getByRole('dialog', { name: 'Unsaved changes' });

  // Cancel: nothing changes, the edit stays in the editor.
  await app.replaceLine(7, 'Use it with care.');
  await app.skill('beta').click();
  await expect(dialog).toContainText('alpha/SKILL.md');
  await app.page.screenshot({ path: join(SHOTS, 'unsaved-changes.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(app.editor).toHaveAttribute('data-dirty', 'true');

  // Discard: the other skill opens, the file on disk is as it was.
  await app.skill('beta').click();
  await dialog.getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(app.editor).toHaveAttribute('data-dirty', 'false');
  await expect(app.page.locator('.monaco-editor .view-lines').first()).toContainText('# Beta');
  expect(await library.read(alpha)).toBe(ALPHA);

  // Save: the change is written, then the other skill opens.
  await app.openSkill('alpha');
  await app.replaceLine(7, 'Use it with care.');
  await app.skill('beta').click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(app.page.locator('.monaco-editor .view-lines').first()).toContainText('# Beta');
  expect(await library.read(alpha)).toBe(ALPHA.replace('Use it well.', 'Use it with care.'));
  // A discarded or saved change is not offered back as a draft.
  await app.page.reload();
  await expect(app.page.locator('.app[data-state="ready"]')).toBeVisible();
  // The last skill reopens after the drafts of the earlier session were looked at.
  await expect(app.page.locator('.monaco-editor .view-lines').first()).toContainText('# Beta');
  await expect(app.page.getByRole('region', { name: 'Recovered changes' })).toHaveCount(0);
});
