import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { craftZip } from '../../main/pack/craft-archives';
import { expect, test } from '../fixtures';

/** Drop a file onto an element, as a user dragging it from the file manager would. */
async function dropFile(page: Page, selector: string, name: string, bytes: Buffer): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ name, data }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], name));
      return dt;
    },
    { name, data: [...bytes] },
  );
  await page.dispatchEvent(selector, 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
}

test('exporting for claude.ai shows the projected SKILL.md and the file list, then writes an upload-ready zip', async ({
  app,
  library,
}) => {
  await library.addSkill(
    'notes',
    '---\nname: notes\ndescription: Turns meeting notes into action items.\nargument-hint: "[file]"\n---\n# Notes\n',
  );
  await library.addFile('notes/.env', 'TOKEN=secret\n');
  await library.addFile('notes/references/guide.md', '# Guide\n');
  await app.openFolder(library.dir);
  await app.openSkill('notes');
  await app.page.getByRole('button', { name: 'Export…' }).click();
  const dialog = app.page.getByRole('dialog', { name: /Export notes/ });
  await expect(dialog.getByRole('region', { name: 'Checks' })).toContainText('Checks passed');
  const changes = dialog.getByRole('region', { name: 'SKILL.md changes' });
  await expect(changes).toContainText('argument-hint');
  await expect(changes.getByLabel('Difference from your SKILL.md')).toContainText(
    '- argument-hint: "[file]"',
  );
  const files = dialog.getByRole('region', { name: 'Files' });
  await expect(files.getByRole('row', { name: /\.env/ })).toContainText('no');
  const out = join(library.dir, 'out', 'notes.zip');
  await dialog.getByLabel('Save as').fill(out);
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByRole('status', { name: 'Export result' })).toContainText('Written');

  // An independent reader sees one top folder named after the skill, SKILL.md inside, no .env.
  const listing = execFileSync('unzip', ['-Z1', out], { encoding: 'utf8' }).trim().split('\n');
  expect(listing.filter((e) => !e.endsWith('/')).sort()).toEqual([
    'notes/SKILL.md',
    'notes/references/guide.md',
  ]);
  expect(listing.every((e) => e.startsWith('notes/'))).toBe(true);
  const skillMd = execFileSync('unzip', ['-p', out, 'notes/SKILL.md'], { encoding: 'utf8' });
  // Claude Code's key is no longer a top-level field; the projection moved it into metadata.
  expect(skillMd).not.toMatch(/^argument-hint:/m);
  expect(skillMd).toMatch(/^metadata:\n {2}argument-hint: /m);
  expect(skillMd).toContain('name: notes');

  // A second export to the same file asks before replacing it.
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('already exists');
});

test('dropping an archive on the library imports it, a second time asks about the name; a hostile archive is refused and nothing is written', async ({
  app,
  library,
}) => {
  await library.addSkill('existing', '---\nname: existing\ndescription: Already here.\n---\n');
  await app.openFolder(library.dir);
  await expect(app.skill('existing')).toBeVisible();

  const good = craftZip([
    {
      name: 'weather/SKILL.md',
      data: Buffer.from(
        '---\nname: weather\ndescription: Reports the weather. Use when the user asks about it.\n---\n# Weather\n',
      ),
    },
    { name: 'weather/references/api.md', data: Buffer.from('# API\n') },
  ]);
  await dropFile(app.page, 'aside[aria-label="Library"]', 'weather.zip', good);
  const dialog = app.page.getByRole('dialog', { name: 'Import a skill' });
  await expect(dialog.getByRole('region', { name: 'Import preview' })).toContainText(
    'weather: 2 files',
  );
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByRole('status', { name: 'Import result' })).toContainText(
    'Imported weather',
  );
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(app.skill('weather')).toBeVisible();
  expect(await readFile(join(library.dir, 'weather', 'references', 'api.md'), 'utf8')).toBe(
    '# API\n',
  );

  // The same archive again: the library holds it file for file, so it says there is nothing to
  // import, and a second copy is still one click away (the dialog the inspector's Save uses too).
  await dropFile(app.page, 'aside[aria-label="Library"]', 'weather.zip', good);
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const taken = app.page.getByRole('dialog', { name: 'weather is already in your library' });
  await expect(taken).toContainText('file for file the same as this one');
  await expect(taken.getByRole('button', { name: 'Replace' })).toHaveCount(0);
  await app.page.screenshot({ path: 'out/screenshots/import-identical.png' });
  await taken.getByRole('button', { name: 'Keep a second copy as weather-2' }).click();
  await expect(dialog.getByRole('status', { name: 'Import result' })).toContainText(
    'Imported as weather-2 (your library already had weather).',
  );
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(app.skillNamed('weather-2')).toBeVisible();
  expect(await readFile(join(library.dir, 'weather-2', 'SKILL.md'), 'utf8')).toContain(
    'name: weather-2\n',
  );

  const before = (await readdir(library.dir)).sort();
  const hostile = craftZip([
    { name: 'evil/SKILL.md', data: Buffer.from('---\nname: evil\ndescription: x\n---\n') },
    { name: 'evil/../../escaped.txt', data: Buffer.from('gotcha') },
  ]);
  await dropFile(app.page, 'aside[aria-label="Library"]', 'evil.zip', hostile);
  await expect(dialog.getByRole('alert')).toContainText('Not imported');
  expect((await readdir(library.dir)).sort()).toEqual(before);
  expect(
    await readdir(join(library.dir, '..')).then((names) => names.includes('escaped.txt')),
  ).toBe(false);
});
