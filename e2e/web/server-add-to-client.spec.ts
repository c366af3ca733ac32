import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserShell } from '../../main/web/browser-shell';
import { expect, test as base, withAgentHome, withAgentShell } from '../fixtures';

/** The shell with a temp home, where Cursor keeps its config file (~/.cursor/mcp.json). */
const test = base.extend<{ home: string; shell: BrowserShell }>({
  home: async ({}, use) => withAgentHome(['.cursor'], use),
  shell: async ({ home }, use) => withAgentShell(home, use),
});

test('Add to Cursor writes the setup into its own file, keeps its other servers, and asks before replacing', async ({
  app,
  library,
  home,
}) => {
  await library.addSkill('alpha', '---\nname: alpha\ndescription: Served skill.\n---\n# Alpha\n');
  const file = join(home, '.cursor', 'mcp.json');
  await mkdir(join(home, '.cursor'), { recursive: true });
  await writeFile(
    file,
    JSON.stringify({ mcpServers: { docs: { url: 'https://docs.example/mcp' } } }),
  );
  await app.openFolder(library.dir);
  await app.page.getByRole('tab', { name: 'Server' }).click();
  const cursor = app.page
    .getByRole('region', { name: 'Client setup' })
    .locator('.snippet', { hasText: 'Cursor (started by the client)' });

  await cursor.getByRole('button', { name: 'Add to Cursor' }).click();
  await expect(cursor.getByRole('status')).toHaveText(
    `Added to ${file}. Restart Cursor to use it. The file as it was is in Skillbench’s trash.`,
  );
  const written = JSON.parse(await readFile(file, 'utf8')) as {
    mcpServers: Record<string, { command?: string; args?: string[]; url?: string }>;
  };
  expect(written.mcpServers.docs).toEqual({ url: 'https://docs.example/mcp' });
  expect(written.mcpServers.skillbench?.command).toMatch(/^\//);
  expect(written.mcpServers.skillbench?.args?.slice(-3)).toEqual(['serve', '--stdio', library.dir]);

  // Someone else's "skillbench" entry is replaced only when asked.
  written.mcpServers.skillbench = { command: 'npx', args: ['skillbench'] };
  await writeFile(file, JSON.stringify(written));
  await cursor.getByRole('button', { name: 'Add to Cursor' }).click();
  await expect(cursor.getByRole('status')).toContainText(
    `${file} already has a server named “skillbench” with another setup.`,
  );
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(written);
  await cursor.getByRole('button', { name: 'Replace it' }).click();
  await expect(cursor.getByRole('status')).toContainText(
    `Replaced the “skillbench” server in ${file}.`,
  );
  const replaced = JSON.parse(await readFile(file, 'utf8')) as typeof written;
  expect(replaced.mcpServers.skillbench?.command).toMatch(/^\//);
});
