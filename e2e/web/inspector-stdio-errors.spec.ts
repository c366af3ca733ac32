import { expect, test } from '../fixtures';
import { InspectorPage } from '../pages/inspector-page';

test('a program that fails to start shows what it printed; a whole command in Program gets a hint', async ({
  app,
}) => {
  const inspector = new InspectorPage(app.page);
  await inspector.open();
  const form = inspector.form;
  const start = app.page.getByRole('dialog', { name: 'Start a program on this computer?' });

  await form.getByLabel('Connection name').fill('missing-module');
  await form.getByRole('radio', { name: 'Program on this computer (stdio)' }).check();
  await form.getByLabel('Program', { exact: true }).fill(process.execPath);
  await form.getByLabel('Arguments (one per line)').fill('/nowhere/skillbench-missing-server.js');
  await form.getByRole('button', { name: 'Connect', exact: true }).click();
  await start.getByRole('button', { name: /^Start/ }).click();
  await expect(inspector.connection('missing-module').getByRole('alert')).toContainText(
    "Cannot find module '/nowhere/skillbench-missing-server.js'",
  );

  await form.getByLabel('Connection name').fill('whole-command');
  await form.getByLabel('Arguments (one per line)').fill('');
  await form.getByLabel('Program', { exact: true }).fill('node /nowhere/server.js --stdio');
  await form.getByRole('button', { name: 'Connect', exact: true }).click();
  await start.getByRole('button', { name: /^Start/ }).click();
  await expect(inspector.connection('whole-command').getByRole('alert')).toContainText(
    'put only the program there (node) and the rest in Arguments',
  );
});
