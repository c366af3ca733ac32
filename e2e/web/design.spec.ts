import { seriousViolations } from '../axe';
import { expect, test } from '../fixtures';
import { InspectorPage } from '../pages/inspector-page';

const SKILL = (
  name: string,
  description = 'Does one thing well. Use when that thing is asked for.',
) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

test('the first screen shows the three ways in: a folder, a first skill (folder first, then the wizard), a server', async ({
  app,
  library,
}) => {
  await app.page.setViewportSize({ width: 1280, height: 800 });
  const welcome = app.page.getByRole('region', { name: 'Welcome to Skillbench' });
  await expect(welcome.getByRole('button', { name: 'Open a folder…' })).toBeVisible();
  await expect(welcome.getByRole('button', { name: 'Connect to a server…' })).toBeVisible();
  expect(await seriousViolations(app.page), 'first screen').toEqual([]);

  // Connect to a server: the Inspector, with no library buttons in its toolbar.
  await welcome.getByRole('button', { name: 'Connect to a server…' }).click();
  await expect(app.page.getByRole('region', { name: 'Inspector', exact: true })).toBeVisible();
  await expect(app.openFolderButton).toBeHidden();
  await expect(app.newSkillButton).toBeHidden();
  await app.page.getByRole('tab', { name: 'Server' }).click();
  await expect(app.openFolderButton).toBeHidden();
  await app.page.getByRole('tab', { name: 'Library' }).click();

  // Create your first skill: choose the folder, and the wizard follows.
  await welcome.getByRole('button', { name: 'Create your first skill…' }).click();
  await app.folderPathInput.fill(library.dir);
  await app.openThisFolderButton.click();
  const wizard = app.page.getByRole('dialog', { name: 'New skill' });
  await expect(wizard).toBeVisible();
  // Cancel, and the empty folder says what to do next.
  await wizard.getByRole('button', { name: 'Cancel' }).click();
  const skillView = app.page.getByRole('region', { name: 'Skill' });
  await expect(skillView).toContainText('No skills in this folder yet');
  expect(await seriousViolations(app.page), 'empty folder').toEqual([]);
  await skillView.getByRole('button', { name: 'Create a skill here…' }).click();
  await expect(wizard).toBeVisible();
  await wizard.getByLabel('Name', { exact: true }).fill('first-skill');
  // Nothing in red about the description before the user has typed in it.
  await expect(wizard.locator('.field-error')).toHaveCount(0);
  await wizard.getByLabel('Description', { exact: true }).fill('Says hello. Use when greeted.');
  await wizard.getByRole('button', { name: 'Create skill' }).click();
  await expect(app.skill('first-skill')).toBeVisible();
  await expect(welcome).toBeHidden();
});

test('a message in the status bar never moves the layout; the Files panel folds away and comes back', async ({
  app,
  library,
}) => {
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await library.addSkill('alpha', SKILL('alpha'));
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  const workspace = app.page.locator('main.workspace');
  const before = await workspace.boundingBox();
  await app.replaceLine(5, '# Alpha, edited');
  await app.saveButton.click();
  await expect(app.status).toHaveText('Saved');
  expect(await workspace.boundingBox()).toEqual(before);

  const files = app.page.getByRole('region', { name: 'Skill files' });
  await expect(files).toBeVisible();
  await app.page.getByRole('button', { name: 'Hide files' }).click();
  await expect(files).toBeHidden();
  const editorBox = await app.editor.boundingBox();
  expect(editorBox?.x).toBeLessThan(400);
  await app.page.getByRole('button', { name: 'Show files' }).click();
  await expect(files.getByRole('treeitem', { name: /SKILL\.md/ })).toBeVisible();
});

test('quick fixes show their whole label: in the Ctrl+. menu and beside a long problem', async ({
  app,
  library,
}) => {
  await app.page.setViewportSize({ width: 1280, height: 800 });
  const long = `Makes slides: one idea per slide. ${'Use it for talks and reviews. '.repeat(40)}`;
  await library.addSkill('slides', SKILL('slides', long));
  await app.openFolder(library.dir);
  await app.openSkill('slides');

  await app.page.locator('.monaco-editor .view-line').nth(2).getByText('Makes').click();
  await app.page.keyboard.press('ControlOrMeta+.');
  const titles = app.page.locator('.action-widget .monaco-list-row.action .title');
  await expect(titles.first()).toBeVisible();
  await expect(titles).toContainText(['Put the value in quotes']);
  for (const title of await titles.all())
    expect(
      await title.evaluate((el) => el.scrollWidth <= el.clientWidth),
      (await title.textContent()) ?? undefined,
    ).toBe(true);
  await app.page.keyboard.press('Escape');
  await expect(titles.first()).toBeHidden();

  await app.page.getByRole('button', { name: 'Preview' }).click();
  const panel = await app.problems.boundingBox();
  const fixes = app.problems.locator('.problem-fixes button');
  for (const fix of await fixes.all()) {
    const box = await fix.boundingBox();
    expect(box && panel && box.x + box.width).toBeLessThanOrEqual(
      (panel?.x ?? 0) + (panel?.width ?? 0),
    );
    expect(await fix.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
});

test('serving: the token stays hidden in the client setup until Show, the count of clients reads right, and the inspector keeps field names whole', async ({
  app,
  library,
}) => {
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await library.addSkill(
    'meeting-notes',
    SKILL(
      'meeting-notes',
      'Turns raw meeting notes into a summary with decisions and action items, each with an owner and a date. Use when the user pastes notes or a transcript of a meeting.',
    ),
  );
  await app.openFolder(library.dir);
  await app.page.getByRole('tab', { name: 'Server' }).click();
  const panel = app.page.getByRole('region', { name: 'Skills server' });
  await panel.getByRole('button', { name: 'Start server' }).click();
  await expect(panel).toHaveAttribute('data-state', 'running');
  await expect(panel.getByRole('status')).toContainText('waiting for a client');
  const setup = panel.getByRole('region', { name: 'Client setup' });
  await expect(setup).toContainText('Authorization: Bearer ••••');
  await panel.getByRole('button', { name: 'Show' }).click();
  const token = await panel.getByLabel('Access token', { exact: true }).inputValue();
  expect(token.length).toBeGreaterThanOrEqual(16);
  await expect(setup).toContainText(`Authorization: Bearer ${token}`);
  // The Claude Code command wraps between words, never inside one.
  await expect(setup.locator('pre').first()).toHaveCSS('word-break', 'normal');
  const url = (await panel.getByRole('status').textContent())?.match(
    /http:\/\/127\.0\.0\.1:\d+\/mcp/,
  )?.[0];

  const inspector = new InspectorPage(app.page);
  await inspector.open();
  await inspector.connectHttp('mine', url as string, token);
  await inspector
    .skillsOn('mine')
    .getByRole('button', { name: /^meeting-notes/ })
    .click();
  const fields = inspector.skill.getByRole('table', { name: 'Frontmatter' });
  const field = fields.getByRole('rowheader', { name: 'description', exact: true });
  await expect(field).toBeVisible();
  // One line box: the field name is not broken into "descrip" / "tion".
  expect(
    await field.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getClientRects().length;
    }),
  ).toBe(1);

  await app.page.getByRole('tab', { name: 'Server' }).click();
  await expect(panel.getByRole('status')).toContainText(
    /client(s)? connected|no client connected now/,
  );
  await expect(panel.getByRole('status')).not.toContainText('0 clients');
});

test('the export dialog fits a 1280x800 window: nothing in it is wider than its box', async ({
  app,
  library,
}) => {
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await library.addSkill(
    'notes',
    `---\nname: notes\ndescription: ${'Turns meeting notes into action items with owners and dates. '.repeat(3)}\nargument-hint: "[file]"\n---\n# Notes\n`,
  );
  await app.openFolder(library.dir);
  await app.openSkill('notes');
  await app.page.keyboard.press('ControlOrMeta+e');
  const dialog = app.page.getByRole('dialog', { name: /Export notes/ });
  await expect(dialog.getByRole('region', { name: 'SKILL.md changes' })).toContainText(
    'argument-hint',
  );
  const box = await dialog.boundingBox();
  expect(box && box.y + box.height).toBeLessThanOrEqual(800);
  expect(box && box.x + box.width).toBeLessThanOrEqual(1280);
  // No horizontal scrolling in the dialog or its details pane: every part wraps or scrolls itself.
  for (const part of [dialog, dialog.locator('.export-details')])
    expect(await part.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expect(dialog.getByLabel('Save as')).toBeInViewport({ ratio: 1 });
});
