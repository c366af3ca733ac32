import { readFile, truncate } from 'node:fs/promises';
import { expect, test } from '../fixtures';

const ALPHA =
  '---\nname: alpha\ndescription: Turns meeting notes into action items.\nlicense: MIT\n---\n# Alpha\n\nUse it well.\n';
const BETA = '---\nname: beta\ndescription: Second skill\n---\n# Beta\n';

test('a user opens a library, edits a description, saves, and only that line changes on disk', async ({
  app,
  library,
}) => {
  const alpha = await library.addSkill('alpha', ALPHA);
  const beta = await library.addSkill('team/beta', BETA);

  await app.openFolder(library.dir);
  await expect(app.skill('alpha')).toBeVisible();
  await expect(app.skill('beta')).toBeVisible();

  await app.openSkill('alpha');
  await app.replaceLine(3, 'description: Summarises meeting notes and lists the action items.');
  await expect(app.editor).toHaveAttribute('data-dirty', 'true');
  await app.saveButton.click();
  await expect(app.status).toHaveText('Saved');
  await expect(app.editor).toHaveAttribute('data-dirty', 'false');

  expect(await library.read(alpha)).toBe(
    ALPHA.replace(
      'description: Turns meeting notes into action items.',
      'description: Summarises meeting notes and lists the action items.',
    ),
  );
  expect(await library.read(beta)).toBe(BETA);
});

test('Ctrl+S saves from the keyboard', async ({ app, library }) => {
  const alpha = await library.addSkill('alpha', ALPHA);
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  await app.replaceLine(8, 'Use it with care.');
  await app.page.keyboard.press('ControlOrMeta+s');
  await expect(app.status).toHaveText('Saved');
  expect(await library.read(alpha)).toBe(ALPHA.replace('Use it well.', 'Use it with care.'));
});

test('a folder that does not exist gives a plain message and nothing else happens', async ({
  app,
  library,
}) => {
  await app.openFolder(`${library.dir}/does-not-exist`);
  await expect(app.page.getByRole('dialog').getByRole('alert')).toContainText('Nothing exists at');
  await expect(app.skillList).toHaveCount(0);
});

test('the folder browser walks into a folder and opens it', async ({ app, library }) => {
  await library.addSkill('alpha', ALPHA);
  await app.openFolderButton.click();
  await app.folderPathInput.fill(library.dir);
  await app.page.getByRole('button', { name: 'Browse' }).click();
  await app.page
    .getByRole('navigation', { name: 'Folders' })
    .getByRole('button', { name: /alpha/ })
    .click();
  await expect(app.folderPathInput).toHaveValue(`${library.dir}/alpha`);
  await app.openThisFolderButton.click();
  await expect(app.skill('alpha')).toBeVisible();
});

test('monaco-yaml gives schema help in the frontmatter: hovering a key shows what it means', async ({
  app,
  library,
}) => {
  await library.addSkill(
    'alpha',
    '---\nname: alpha\ndescription: Something useful.\nlicense: MIT\n---\nBody\n',
  );
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  // The hover comes from the YAML worker, asked through the hidden frontmatter model (line 4 → line 3 there).
  // Why hover again until it shows: the worker may still be starting when the mouse first arrives
  // (a busy machine), and Monaco asks only when the mouse moves onto the word.
  const key = app.page.locator('.monaco-editor .view-line').nth(3).getByText('license');
  const hover = app.page.locator('.monaco-hover:visible').first();
  await expect(async () => {
    await app.page.mouse.move(0, 0);
    await key.hover();
    await expect(hover).toContainText('License name', { timeout: 3000 });
  }).toPass({ timeout: 45_000 });
});

test('a SKILL.md over 16 MiB is listed with a plain reason and opens as an error, not a frozen editor', async ({
  app,
  library,
}) => {
  await library.addSkill('alpha', ALPHA);
  const huge = await library.addSkill('huge', '---\nname: huge\ndescription: Too big.\n---\n');
  // Why sparse: 40 MiB that take no disk; the app must not read them whole.
  await truncate(huge, 40 * 1024 * 1024);
  await app.openFolder(library.dir);
  await expect(app.skill('alpha')).toBeVisible();
  await app.skill('huge').click();
  await expect(app.page.getByRole('alert').first()).toContainText(
    'is too large (41.9 MB); Skillbench reads files of up to 16.8 MB',
  );
  await app.page.screenshot({ path: 'out/test-results/too-large-skill.png' });
  // The rest of the library still opens and edits.
  await app.openSkill('alpha');
  await expect(app.editor).toHaveAttribute('data-dirty', 'false');
});

test('removing the folder of the open skill closes it; its unsaved changes come back when the folder is opened again', async ({
  app,
  library,
}) => {
  const alpha = await library.addSkill('alpha', ALPHA);
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  await app.replaceLine(8, 'Use it with care.');
  await expect(app.editor).toHaveAttribute('data-dirty', 'true');
  await app.page.getByRole('button', { name: /^Folders:/ }).click();
  await app.page.getByRole('button', { name: `Remove ${library.dir} from the library` }).click();
  await expect(
    app.page.getByRole('status').filter({ hasText: 'was closed with its folder' }),
  ).toContainText('Your unsaved changes are kept');
  await expect(app.saveButton).toHaveCount(0);
  expect(await library.read(alpha)).toBe(ALPHA);
  await app.openFolder(library.dir);
  await app.page
    .getByRole('button', { name: /Restore/ })
    .first()
    .click();
  await expect(app.editor).toHaveAttribute('data-dirty', 'true');
  await app.saveButton.click();
  await expect(app.status).toHaveText('Saved');
  expect(await library.read(alpha)).toBe(ALPHA.replace('Use it well.', 'Use it with care.'));
});

test('a SKILL.md saved as Latin-1 is not opened for editing: the notice says where, and the file stays as it was', async ({
  app,
  library,
}, testInfo) => {
  const bytes = Buffer.from(
    '---\nname: menu\ndescription: Reads the caf\xe9 menu. Use when the menu is asked for.\n---\n# Menu\n',
    'latin1',
  );
  await library.addFile('menu/SKILL.md', bytes);
  await library.addSkill('alpha', ALPHA);
  await app.openFolder(library.dir);
  await app.skill('menu').click();
  await expect(app.alert).toContainText(
    'SKILL.md is not UTF-8 text (the byte 0xE9 at line 3, column 27), so Skillbench does not open it for editing',
  );
  await app.page.screenshot({ path: testInfo.outputPath('not-utf8.png') });
  expect(await readFile(`${library.dir}/menu/SKILL.md`)).toEqual(bytes);
  // Another skill still opens.
  await app.openSkill('alpha');
});
