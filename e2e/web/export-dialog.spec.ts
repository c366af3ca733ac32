import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '../fixtures';

const SHOTS = join(import.meta.dirname, '..', '..', 'out', 'screenshots');

test('the export dialog explains moved keys once, shows the result beside its buttons and says where on the host the file is', async ({
  app,
  library,
}) => {
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await library.addSkill(
    'notes',
    [
      '---',
      'name: notes',
      'description: Turns meeting notes into action items.',
      'argument-hint: "[file]"',
      'model: sonnet',
      'user-invocable: true',
      'disable-model-invocation: false',
      '---',
      '# Notes',
      '',
    ].join('\n'),
  );
  for (let i = 0; i < 12; i++)
    await library.addFile(`notes/references/part-${i}.md`, `# Part ${i}\n`);
  await app.openFolder(library.dir);
  await app.openSkill('notes');
  await app.page.getByRole('button', { name: 'Export…' }).click();
  const dialog = app.page.getByRole('dialog', { name: /Export notes/ });
  const changes = dialog.getByRole('region', { name: 'SKILL.md changes' });
  await expect(changes).toContainText('argument-hint');
  await expect(changes).toContainText('model');
  // One explanation for the keys only Claude Code reads, not one per key.
  await expect(changes.getByText(/keys only Claude Code reads/)).toHaveCount(1);
  await expect(changes.locator('li', { hasText: 'argument-hint' })).toContainText('model');

  // In the browser shell the dialog says the path is on the computer running Skillbench.
  await expect(dialog.getByText(/computer running Skillbench/)).toBeVisible();
  const out = join(library.dir, 'out', 'notes.zip');
  await dialog.getByLabel('Save as').fill(out);
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  const result = dialog.getByRole('status', { name: 'Export result' });
  await expect(result).toContainText(/Written .* on the computer running Skillbench/);
  // The result is in view without scrolling, next to the buttons.
  await expect(result).toBeInViewport({ ratio: 1 });
  await expect(dialog.getByRole('button', { name: 'Export', exact: true })).toBeInViewport();
  await expect(result.locator('.copy-line code')).toHaveText(out);
  await expect(result.getByRole('button', { name: 'Copy where the file is' })).toBeVisible();
  await mkdir(SHOTS, { recursive: true });
  await app.page.screenshot({ path: join(SHOTS, 'export-result.png') });
});
