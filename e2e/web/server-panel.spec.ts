import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StdioClientTransport,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { expect, test } from '../fixtures';

test('the server panel starts the embedded server, shows its token and client setup, and logs a real client', async ({
  app,
  library,
}) => {
  await library.addSkill('alpha', '---\nname: alpha\ndescription: Served skill.\n---\n# Alpha\n');
  await library.addSkill('Broken', '---\nname: other-name\ndescription: Not served.\n---\n');
  await app.openFolder(library.dir);
  await app.page.getByRole('tab', { name: 'Server' }).click();
  const panel = app.page.getByRole('region', { name: 'Skills server' });
  await panel.getByRole('button', { name: 'Start server' }).click();
  await expect(panel).toHaveAttribute('data-state', 'running');
  await expect(panel.getByRole('status')).toContainText('Running at http://127.0.0.1:');
  await expect(panel.getByRole('region', { name: 'Served skills' })).toContainText('alpha');
  await expect(panel.getByRole('region', { name: 'Served skills' })).toContainText(
    'Not served (1)',
  );
  const setup = panel.getByRole('region', { name: 'Client setup' });
  await expect(setup).toContainText('claude mcp add');

  // The Claude Desktop entry, as pasted: the program it names starts this library's server from
  // any folder (a client starts it from a folder and a PATH of its own).
  const pasted = JSON.parse(
    (await setup
      .locator('.snippet', { hasText: 'Claude Desktop (started by the client)' })
      .locator('code')
      .textContent()) ?? '{}',
  ) as {
    mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
  };
  const entry = pasted.mcpServers.skillbench;
  expect(entry?.command).toMatch(/^\//);
  const data = await mkdtemp(join(tmpdir(), 'skillbench-e2e-stdio-'));
  const stdioClient = new Client({ name: 'e2e-stdio', version: '1.0.0' });
  await stdioClient.connect(
    new StdioClientTransport({
      command: entry?.command ?? '',
      args: entry?.args ?? [],
      cwd: tmpdir(),
      stderr: 'pipe',
      env: { ...getDefaultEnvironment(), ...entry?.env, SKILLBENCH_USER_DATA: data },
    }),
  );
  const overStdio = await stdioClient.request(
    { method: 'skills/list', params: {} },
    z.object({ skills: z.array(z.object({ uri: z.string() })) }).passthrough(),
  );
  expect(overStdio.skills.map((s) => s.uri)).toEqual(['skill://alpha/SKILL.md']);
  await stdioClient.close();
  await rm(data, { recursive: true, force: true });

  await panel.getByRole('button', { name: 'Show' }).click();
  const token = await panel.getByLabel('Access token', { exact: true }).inputValue();
  const url = (await panel.getByRole('status').textContent())?.match(
    /http:\/\/127\.0\.0\.1:\d+\/mcp/,
  )?.[0];
  expect(url).toBeTruthy();

  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url as string), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  const listed = await client.request(
    { method: 'skills/list', params: {} },
    z.object({ skills: z.array(z.object({ uri: z.string() })) }).passthrough(),
  );
  expect(listed.skills.map((s) => s.uri)).toEqual(['skill://alpha/SKILL.md']);
  await client.close();

  await expect(panel.getByRole('region', { name: 'Request log' })).toContainText('skills/list');

  // A skill that is not served opens in the editor, where its problem is shown and fixed.
  await panel.getByRole('button', { name: 'Open Broken in the editor' }).click();
  await expect(app.page.locator('.editor-path')).toContainText('Broken/SKILL.md');
  await expect(app.problems).toContainText('other-name');

  await app.page.getByRole('tab', { name: 'Server' }).click();
  await panel.getByRole('button', { name: 'Stop server' }).click();
  await expect(panel).toHaveAttribute('data-state', 'stopped');
});
