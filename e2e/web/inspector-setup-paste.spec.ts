import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../fixtures';
import { InspectorPage } from '../pages/inspector-page';

test("the Server tab's setup, pasted into the inspector, fills in the form and connects to the library", async ({
  app,
  library,
}) => {
  await library.addSkill('alpha', '---\nname: alpha\ndescription: Served skill.\n---\n# Alpha\n');
  await app.openFolder(library.dir);
  await app.page.getByRole('tab', { name: 'Server' }).click();
  const setup = app.page
    .getByRole('region', { name: 'Client setup' })
    .locator('.snippet', { hasText: 'Claude Desktop (started by the client)' })
    .locator('code');
  const pasted = (await setup.textContent()) ?? '';
  expect(pasted).toContain('"mcpServers"');

  const inspector = new InspectorPage(app.page);
  await inspector.open();
  const form = inspector.form;
  await form.getByText('Fill in from a client’s setup…').click();
  await form.getByLabel(/Paste a server’s setup/).fill(pasted);
  await form.getByRole('button', { name: 'Fill in', exact: true }).click();
  await expect(form.getByRole('status')).toHaveText(
    'Filled in from “skillbench”. Check the fields, then Connect.',
  );
  await expect(form.getByLabel('Connection name')).toHaveValue('skillbench');
  await expect(form.getByRole('radio', { name: 'Program on this computer (stdio)' })).toBeChecked();
  await expect(form.getByLabel('Program', { exact: true })).toHaveValue(/^\//);
  await expect(form.getByLabel('Arguments (one per line)')).toHaveValue(
    new RegExp(`serve\\n--stdio\\n${library.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  );
  // The server keeps what it checked in a user-data folder: a temp one, not this machine's.
  const data = await mkdtemp(join(tmpdir(), 'skillbench-e2e-paste-'));
  await form.getByRole('button', { name: 'Add environment variable' }).click();
  await form.getByLabel('Environment variables 1 name').fill('SKILLBENCH_USER_DATA');
  await form.getByLabel('Environment variables 1 value').fill(data);
  await form.getByRole('button', { name: 'Connect', exact: true }).click();
  await app.page
    .getByRole('dialog', { name: 'Start a program on this computer?' })
    .getByRole('button', { name: /^Start/ })
    .click();
  await expect(inspector.connection('skillbench')).toHaveAttribute('data-state', 'connected');
  await expect(inspector.skillsOn('skillbench')).toContainText('alpha');
  await inspector.connection('skillbench').getByRole('button', { name: 'Disconnect' }).click();
  await rm(data, { recursive: true, force: true });
});

test('a setup with several servers offers each; one that is not JSON is said in words', async ({
  app,
}) => {
  const inspector = new InspectorPage(app.page);
  await inspector.open();
  const form = inspector.form;
  await form.getByText('Fill in from a client’s setup…').click();
  const box = form.getByLabel(/Paste a server’s setup/);

  await box.fill('{ "servers": { "docs": { "url": "https://docs.example/mcp" ');
  await form.getByRole('button', { name: 'Fill in', exact: true }).click();
  await expect(form.getByRole('alert')).toContainText(
    'This is not a setup Skillbench can read: it ends too early',
  );

  await box.fill(`{
    // .vscode/mcp.json
    "servers": {
      "docs": { "type": "http", "url": "https://docs.example/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
      "local": { "type": "stdio", "command": "node", "args": ["server.js"] },
    },
  }`);
  await form.getByRole('button', { name: 'Fill in', exact: true }).click();
  await expect(form.getByRole('alert')).toHaveCount(0);
  await form.getByRole('button', { name: /^Use docs/ }).click();
  await expect(form.getByLabel('Server address')).toHaveValue('https://docs.example/mcp');
  await expect(form.getByRole('status')).toContainText(
    'Its header Authorization holds a variable (${…}) that its client fills in: type the value in its place.',
  );
  // The header is kept hidden as a secret.
  await expect(form.getByLabel('Headers 1 value')).toHaveAttribute('type', 'password');
  await expect(form.getByLabel('Headers 1 value')).toHaveValue('Bearer ${input:token}');
});
