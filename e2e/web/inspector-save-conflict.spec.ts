import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmbeddedHttp, type RunningServer } from '../../main/testing/inspector-servers';
import { seriousViolations } from '../axe';
import { expect, test as base } from '../fixtures';
import { InspectorPage } from '../pages/inspector-page';

const SERVED =
  '---\nname: pdf-tools\ndescription: Fill in PDF forms. Use when a PDF form must be filled.\n---\n# PDF tools\n\nSee [the forms guide](references/forms.md).\n';
const FORMS = '# Forms\n\nFill every field, then sign.\n';
const MINE =
  '---\nname: pdf-tools\ndescription: My own notes on PDF forms. Use when I ask about PDF forms.\n---\n# My PDF notes\n\nAsk before signing.\n';

/** The user's library with their own pdf-tools, and our server on 127.0.0.1 serving another pdf-tools; it stops when the test ends. */
const test = base.extend<{ mine: string; server: RunningServer; inspector: InspectorPage }>({
  mine: async ({ library }, use) => {
    await library.addSkill('mine/pdf-tools', MINE);
    await use(join(library.dir, 'mine'));
  },
  server: async ({ library }, use) => {
    await library.addSkill('served/pdf-tools', SERVED);
    await library.addFile('served/pdf-tools/references/forms.md', FORMS);
    const server = await startEmbeddedHttp(join(library.dir, 'served'));
    await use(server);
    await server.close();
  },
  inspector: async ({ app }, use) => {
    await use(new InspectorPage(app.page));
  },
});

test('saving a server skill whose name is taken asks: Keep both puts both in the library, Replace swaps in the server copy and keeps the old one in the trash', async ({
  app,
  shell,
  mine,
  server,
  inspector,
}) => {
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await app.openFolder(mine);
  await expect(app.skillNamed('pdf-tools')).toBeVisible();
  await inspector.open();
  await inspector.connectHttp('local', server.url, server.token);
  await inspector.openSkill('local', 'pdf-tools');

  // Save: the name is taken, so the same choice as an import is offered, and nothing is written yet.
  await inspector.saveButton.click();
  const asked = inspector.nameConflict('pdf-tools');
  await expect(asked).toBeVisible();
  await expect(asked).toContainText('Keep both (save this one as pdf-tools-2)');
  expect(await seriousViolations(app.page), 'name-conflict dialog').toEqual([]);
  await app.page.screenshot({ path: 'out/screenshots/inspector-save-conflict.png' });
  expect(await readdir(mine)).toEqual(['pdf-tools']);

  // Cancel leaves everything as it was.
  await asked.getByRole('button', { name: 'Cancel' }).click();
  await expect(asked).toBeHidden();
  await expect(inspector.keepIt.getByRole('status')).toContainText('Not saved');
  expect(await readdir(mine)).toEqual(['pdf-tools']);

  // Keep both: the server's copy lands beside the user's, named to match its folder.
  await inspector.saveButton.click();
  await asked.getByRole('button', { name: 'Keep both' }).click();
  await expect(asked).toBeHidden();
  await expect(inspector.keepIt.getByRole('status')).toContainText(
    'Saved as pdf-tools-2 (your library already had pdf-tools).',
  );
  await app.page.screenshot({ path: 'out/screenshots/inspector-save-kept-both.png' });
  expect((await readdir(mine)).sort()).toEqual(['pdf-tools', 'pdf-tools-2']);
  expect(await readFile(join(mine, 'pdf-tools', 'SKILL.md'), 'utf8')).toBe(MINE);
  expect(await readFile(join(mine, 'pdf-tools-2', 'SKILL.md'), 'utf8')).toBe(
    SERVED.replace('name: pdf-tools', 'name: pdf-tools-2'),
  );
  await app.page.getByRole('tab', { name: 'Library', exact: true }).click();
  await expect(app.skillNamed('pdf-tools')).toBeVisible();
  await expect(app.skillNamed('pdf-tools-2')).toBeVisible();

  // Save again and Replace: the server's copy takes the name; the user's copy waits in the trash.
  await inspector.open();
  await inspector.saveButton.click();
  await expect(asked).toBeVisible();
  await asked.getByRole('button', { name: 'Replace' }).click();
  await expect(asked).toBeHidden();
  await expect(inspector.keepIt.getByRole('status')).toContainText(
    'Replaced pdf-tools; the old copy is in the trash',
  );
  expect((await readdir(mine)).sort()).toEqual(['pdf-tools', 'pdf-tools-2']);
  expect(await readFile(join(mine, 'pdf-tools', 'SKILL.md'), 'utf8')).toBe(SERVED);
  expect(await readFile(join(mine, 'pdf-tools', 'references', 'forms.md'), 'utf8')).toBe(FORMS);
  const trash = join(shell.services.userDataDir, 'trash');
  const trashed = (await readdir(trash)).filter((n) => n.startsWith('pdf-tools-'));
  expect(trashed).toHaveLength(1);
  expect(await readFile(join(trash, trashed[0] ?? '', 'SKILL.md'), 'utf8')).toBe(MINE);
  await app.page.getByRole('tab', { name: 'Library', exact: true }).click();
  await expect(app.skillNamed('pdf-tools')).toBeVisible();
  await expect(app.skillNamed('pdf-tools-2')).toBeVisible();
});
