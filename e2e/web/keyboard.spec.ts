import { expect, test } from '../fixtures';

const SKILL = (name: string, description = 'Does one thing well.') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

test('Tab leaves the text editor by default; the status bar says so, and the choice to type tabs is remembered', async ({
  app,
  library,
}) => {
  const path = await library.addSkill('alpha', SKILL('alpha'));
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  const toggle = app.page.getByRole('checkbox', { name: 'Tab leaves the editor (Ctrl+M)' });
  await expect(toggle).toBeChecked();

  await app.page.locator('.monaco-editor .view-lines').first().click();
  await app.page.keyboard.press('Tab');
  await app.page.keyboard.press('Tab');
  await expect(app.editor).toHaveAttribute('data-dirty', 'false');
  await expect(app.page.locator('.monaco-editor textarea')).not.toBeFocused();

  // Ctrl+M in the editor switches to typing tabs, and the choice survives a restart.
  await app.page.locator('.monaco-editor .view-lines').first().click();
  await app.page.keyboard.press('ControlOrMeta+m');
  await expect(toggle).not.toBeChecked();
  await app.page.keyboard.press('Tab');
  await expect(app.editor).toHaveAttribute('data-dirty', 'true');
  await app.page.keyboard.press('ControlOrMeta+z');
  await expect(app.editor).toHaveAttribute('data-dirty', 'false');
  await app.page.reload();
  await app.openSkill('alpha');
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  expect(await library.read(path)).toBe(SKILL('alpha'));
});

test('window shortcuts: Ctrl+S saves from outside the editor, Ctrl+N starts a skill, Ctrl+E exports, Escape closes', async ({
  app,
  library,
}) => {
  const path = await library.addSkill('alpha', SKILL('alpha'));
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  await app.replaceLine(5, '# Alpha, edited');
  await expect(app.editor).toHaveAttribute('data-dirty', 'true');

  // Save from the search box: the page's own "Save page as" must not take it.
  await app.search.focus();
  await app.page.evaluate(() => {
    window.addEventListener('keydown', (e) => {
      document.body.dataset.lastKeyHandled = String(e.defaultPrevented);
    });
  });
  await app.page.keyboard.press('ControlOrMeta+s');
  await expect(app.page.locator('body')).toHaveAttribute('data-last-key-handled', 'true');
  await expect(app.status).toHaveText('Saved');
  expect(await library.read(path)).toContain('# Alpha, edited');

  await app.page.keyboard.press('ControlOrMeta+n');
  const wizard = app.page.getByRole('dialog', { name: 'New skill' });
  await expect(wizard).toBeVisible();
  await app.page.keyboard.press('Escape');
  await expect(wizard).toBeHidden();

  await app.search.focus();
  await app.page.keyboard.press('ControlOrMeta+e');
  const exportDialog = app.page.getByRole('dialog', { name: /^Export/ });
  await expect(exportDialog).toBeVisible();
  await app.page.keyboard.press('Escape');
  await expect(exportDialog).toBeHidden();
});

test('the skills list is one Tab stop: Ctrl+K, ArrowDown and Enter reach the results, arrows move inside', async ({
  app,
  library,
}) => {
  for (const name of ['alpha', 'beta', 'gamma', 'delta']) await library.addSkill(name, SKILL(name));
  await app.openFolder(library.dir);
  await expect(app.page.getByText('4 skills')).toBeVisible();

  await app.page.keyboard.press('ControlOrMeta+k');
  await expect(app.search).toBeFocused();
  await app.page.keyboard.press('ArrowDown');
  await expect(app.skill('alpha')).toBeFocused();
  await app.page.keyboard.press('ArrowDown');
  await expect(app.skill('beta')).toBeFocused();
  await app.page.keyboard.press('End');
  await expect(app.skill('gamma')).toBeFocused();
  await app.page.keyboard.press('ArrowUp');
  await expect(app.skill('delta')).toBeFocused();
  await app.page.keyboard.press('Enter');
  await expect(app.skill('delta')).toHaveAttribute('aria-current', 'true');
  await expect(app.editor).toHaveAttribute('data-state', 'ready');

  // One Tab stop: every skill but one is out of the Tab order.
  await expect(app.skillList.locator('button[tabindex="0"]')).toHaveCount(1);
  await expect(app.skillList.locator('button[tabindex="-1"]')).toHaveCount(3);
  await app.skill('delta').focus();
  await app.page.keyboard.press('Shift+Tab');
  await expect(app.skillList.locator('button:focus')).toHaveCount(0);

  // Typing in the search and pressing Enter opens the first result.
  await app.page.keyboard.press('ControlOrMeta+k');
  await app.page.keyboard.type('gam');
  await app.page.keyboard.press('Enter');
  await expect(app.skill('gamma')).toHaveAttribute('aria-current', 'true');
});

test('popovers close on Escape and on a click outside: Folders and Check for', async ({
  app,
  library,
}) => {
  await library.addSkill('alpha', SKILL('alpha'));
  await app.openFolder(library.dir);
  const folders = app.page.getByRole('button', { name: /^Folders:/ });
  const list = app.page.getByRole('list', { name: 'Library folders' });
  await folders.click();
  await expect(list).toContainText(library.dir);
  await app.page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(folders).toBeFocused();
  await folders.click();
  await expect(list).toBeVisible();
  await app.page.getByRole('region', { name: 'Skill' }).click();
  await expect(list).toBeHidden();

  const targets = app.page.getByRole('button', { name: /^Check for:/ });
  const options = app.page.getByRole('group', { name: /Also check for$/ });
  await targets.click();
  await expect(options).toBeVisible();
  await app.page.keyboard.press('Escape');
  await expect(options).toBeHidden();
  await targets.click();
  await app.search.click();
  await expect(options).toBeHidden();
});
