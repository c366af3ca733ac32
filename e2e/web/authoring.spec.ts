import { join } from 'node:path';
import { parse } from 'yaml';
import { expect, test } from '../fixtures';
import { SkillbenchPage } from '../pages/skillbench-page';

/** Where screenshots go (looked at by a person, never compared). */
const SHOTS = join(import.meta.dirname, '..', '..', 'out', 'screenshots');

test('a new skill from the wizard, an unquoted colon flagged in plain words, fixed in one click, saved as valid YAML', async ({
  app,
  library,
}) => {
  await app.openFolder(library.dir);
  await app.createSkill(
    'meeting-notes',
    'Turns meeting notes into action items. Use when the user pastes notes.',
  );
  await expect(app.skill('meeting-notes')).toBeVisible();
  await expect(app.problems).toContainText('No problems');

  await app.replaceLine(3, 'description: Use when: the user pastes meeting notes');
  await expect(app.squiggles('error').first()).toBeVisible();
  const problem = app.problem('yaml/unquoted-colon').first();
  await expect(problem).toContainText('colon');
  await problem.getByRole('button', { name: 'Put the value in quotes' }).click();
  await expect(app.problem('yaml/unquoted-colon')).toHaveCount(0);
  await app.saveButton.click();
  await expect(app.status).toHaveText('Saved');

  const text = await library.read(`${library.dir}/meeting-notes/SKILL.md`);
  const frontmatter = text.split('---\n')[1] ?? '';
  expect(parse(frontmatter)).toEqual({
    name: 'meeting-notes',
    description: 'Use when: the user pastes meeting notes',
  });
  expect(text).toContain('## When to use');
});

test('the wizard does not create a skill whose description is still template text', async ({
  app,
  library,
}) => {
  await app.openFolder(library.dir);
  await app.newSkillButton.click();
  const wizard = app.page.getByRole('dialog', { name: 'New skill' });
  await wizard.getByLabel('Name', { exact: true }).fill('later');
  await wizard.getByLabel('Description', { exact: true }).fill('TODO: write this');
  await wizard.getByRole('button', { name: 'Create skill' }).click();
  await expect(wizard).toBeVisible();
  await expect(wizard).toContainText('That is still template text.');
  await wizard
    .getByLabel('Description', { exact: true })
    .fill('Plans the week ahead. Use when the user asks what to do next.');
  await wizard.getByRole('button', { name: 'Create skill' }).click();
  await expect(wizard).toBeHidden();
  await expect(app.skill('later')).toBeVisible();
  await expect(app.problems).toContainText('No problems');
});

test('Fix all safe problems repairs several problems at once and Ctrl+Z takes them back', async ({
  app,
  library,
}) => {
  const path = await library.addSkill(
    'notes',
    '---\nname: notes\ndescription: Handles notes: all of them\nlicense: Custom: see LICENSE.txt\n---\nBody\n',
  );
  await app.openFolder(library.dir);
  await app.openSkill('notes');
  await expect(app.problem('yaml/unquoted-colon')).toHaveCount(2);
  await app.problems.getByRole('button', { name: 'Fix all safe problems' }).click();
  await expect(app.problem('yaml/unquoted-colon')).toHaveCount(0);
  await expect(app.status).toContainText('Fixed 2 problems');
  expect(await library.read(path)).toContain('description: Handles notes: all of them');
  await app.page.locator('.monaco-editor .view-lines').first().click();
  await app.page.keyboard.press('ControlOrMeta+z');
  await expect(app.problem('yaml/unquoted-colon')).toHaveCount(2);
});

test('an edit on disk reloads a clean buffer; with unsaved changes both versions stay reachable', async ({
  app,
  library,
}) => {
  const path = await library.addSkill(
    'alpha',
    '---\nname: alpha\ndescription: First version.\n---\nBody\n',
  );
  await app.openFolder(library.dir);
  await app.openSkill('alpha');

  await library.write(path, '---\nname: alpha\ndescription: Changed on disk.\n---\nBody\n');
  await expect(app.page.locator('.monaco-editor .view-lines').first()).toContainText(
    'Changed on disk.',
  );
  await expect(app.status).toContainText('Reloaded');
  await expect(app.editor).toHaveAttribute('data-dirty', 'false');

  await app.replaceLine(5, 'My unsaved body.');
  await library.write(path, '---\nname: alpha\ndescription: Changed on disk again.\n---\nBody\n');
  const conflict = app.page.getByRole('alertdialog', {
    name: 'This file changed outside Skillbench',
  });
  await expect(conflict).toBeVisible();
  await expect(app.page.locator('.monaco-editor .view-lines').first()).toContainText(
    'My unsaved body.',
  );
  await conflict.getByRole('button', { name: 'Show both versions' }).click();
  const diff = app.page.getByTestId('conflict-diff');
  await expect(diff).toContainText('Changed on disk again.');
  await expect(diff).toContainText('My unsaved body.');

  await conflict.getByRole('button', { name: 'Keep my version' }).click();
  await app.saveButton.click();
  await expect(app.status).toHaveText('Saved');
  expect(await library.read(path)).toBe(
    '---\nname: alpha\ndescription: Changed on disk.\n---\nMy unsaved body.\n',
  );
});

test('saving over a file changed on disk is refused, and the disk version can be taken instead', async ({
  app,
  library,
}) => {
  const path = await library.addSkill(
    'alpha',
    '---\nname: alpha\ndescription: First version.\n---\nBody\n',
  );
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  await app.replaceLine(5, 'Mine.');
  await library.write(path, '---\nname: alpha\ndescription: Theirs.\n---\nBody\n');
  const conflict = app.page.getByRole('alertdialog');
  await expect(conflict).toBeVisible();
  await conflict.getByRole('button', { name: 'Use the version on disk' }).click();
  await expect(conflict).toBeHidden();
  await expect(app.page.locator('.monaco-editor .view-lines').first()).toContainText('Theirs.');
  await expect(app.editor).toHaveAttribute('data-dirty', 'false');
  expect(await library.read(path)).toContain('Theirs.');
});

test('CRLF line endings and a byte-order mark survive an edit', async ({ app, library }) => {
  const path = await library.addSkill(
    'crlf',
    '\uFEFF---\r\nname: crlf\r\ndescription: Windows file.\r\n---\r\nBody\r\n',
  );
  await app.openFolder(library.dir);
  await app.openSkill('crlf');
  await app.replaceLine(5, 'New body');
  await app.page.keyboard.press('ControlOrMeta+s');
  await expect(app.status).toHaveText('Saved');
  expect(await library.read(path)).toBe(
    '\uFEFF---\r\nname: crlf\r\ndescription: Windows file.\r\n---\r\nNew body\r\n',
  );
});

test('unsaved changes survive the window going away and are offered back', async ({
  app,
  library,
  shell,
  context,
}) => {
  const path = await library.addSkill(
    'alpha',
    '---\nname: alpha\ndescription: Saved text.\n---\nBody\n',
  );
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  await app.replaceLine(5, 'Typed but never saved.');
  await expect
    .poll(async () => {
      const drafts = await shell.services.drafts.list();
      return drafts.map((d) => d.text.includes('Typed but never saved.'));
    })
    .toEqual([true]);
  // The window disappears without any chance to save (as in a renderer crash).
  await app.page.close({ runBeforeUnload: false });
  const again = new SkillbenchPage(await context.newPage());
  // A new window opens the address `npm start` printed, as a user would after a crash.
  await again.goto(shell.host.url);
  const recovered = again.page.getByRole('region', { name: 'Recovered changes' });
  await expect(recovered).toContainText(path);
  await recovered.getByRole('button', { name: 'Restore' }).click();
  await expect(again.page.locator('.monaco-editor .view-lines').first()).toContainText(
    'Typed but never saved.',
  );
  await expect(again.editor).toHaveAttribute('data-dirty', 'true');
  expect(await library.read(path)).toContain('Body');
});

test('the file tree creates, renames, deletes with undo, and shows an image instead of opening it as text', async ({
  app,
  library,
}) => {
  await library.addSkill('alpha', '---\nname: alpha\ndescription: Files test.\n---\nBody\n');
  await library.addFile(
    'alpha/assets/pixel.png',
    Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1a4b9bb0000000049454e44ae426082',
      'hex',
    ),
  );
  await app.openFolder(library.dir);
  await app.openSkill('alpha');
  const tree = app.page.getByRole('region', { name: 'Skill files' });
  await tree.getByLabel('Name or path').fill('references/notes.md');
  await tree.getByRole('button', { name: 'New file' }).click();
  await expect(tree.getByRole('treeitem', { name: /notes\.md/ })).toBeVisible();

  await tree.getByRole('button', { name: /notes\.md/ }).click();
  await expect(app.page.locator('.editor-path')).toContainText('references/notes.md');
  await tree.getByLabel('Name or path').fill('references/guide.md');
  await tree.getByRole('button', { name: 'Rename / move selected' }).click();
  await expect(tree.getByRole('treeitem', { name: /guide\.md/ })).toBeVisible();

  await tree.getByRole('button', { name: 'Delete selected' }).click();
  await expect(tree.getByRole('treeitem', { name: /guide\.md/ })).toHaveCount(0);
  await tree.getByRole('button', { name: 'Undo' }).click();
  await expect(tree.getByRole('treeitem', { name: /guide\.md/ })).toBeVisible();
  expect(await library.read(`${library.dir}/alpha/references/guide.md`)).toBe('');

  await tree.getByRole('button', { name: /pixel\.png/ }).click();
  await expect(tree.getByRole('figure')).toBeVisible();
  await expect(tree.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
});

test('a link or a script the skill does not have is flagged as it is typed and found once added in the file tree, and the Hosts strip agrees', async ({
  app,
  library,
}) => {
  await library.addSkill(
    'pdf-forms',
    '---\nname: pdf-forms\ndescription: Fills in PDF forms. Use when the user has a PDF form to fill.\n---\n# PDF forms\n\nFill the form.\n',
  );
  await library.addFile('pdf-forms/scripts/fill.py', 'print("filled")\n');
  await app.openFolder(library.dir);
  await app.openSkill('pdf-forms');
  await expect(app.problems).toContainText('No problems');
  const hosts = app.page.getByRole('region', { name: 'Hosts' });
  await expect(hosts).toContainText('Claude Code: ready');

  // Not saved: the check runs on the text being typed.
  await app.replaceLine(
    7,
    'Run `python scripts/fil.py`, then read [the guide](references/guide.md).',
  );
  await expect(app.problem('links/mentioned-missing')).toContainText('"scripts/fil.py"');
  await expect(app.problem('links/broken')).toContainText('references/guide.md');
  await expect(hosts).toContainText('Claude Code: works, with warnings');
  await expect(app.saveButton).toBeEnabled();

  // The missing guide, added in the file tree: the link is found at once, nothing saved yet.
  const tree = app.page.getByRole('region', { name: 'Skill files' });
  await tree.getByLabel('Name or path').fill('references/guide.md');
  await tree.getByRole('button', { name: 'New file' }).click();
  await expect(tree.getByRole('treeitem', { name: /guide\.md/ })).toBeVisible();
  await expect(app.problem('links/broken')).toHaveCount(0);
  await expect(app.problem('links/mentioned-missing')).toHaveCount(1);
  await expect(app.saveButton).toBeEnabled();

  await app.replaceLine(7, 'Run `python scripts/fill.py`.');
  await expect(app.problems).toContainText('No problems');
  await expect(hosts).toContainText('Claude Code: ready');
  await app.saveButton.click();
  await expect(app.status).toHaveText('Saved');
});

test('when the selected targets find no error but a host would refuse the skill, the problems panel says so and points at Hosts', async ({
  app,
  library,
}) => {
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await library.addSkill(
    'tagged',
    '---\nname: tagged\ndescription: Closes a </description> tag. Use when a prompt ends too early.\n---\n# Tagged\n\nDo it.\n',
  );
  await app.openFolder(library.dir);
  await app.openSkill('tagged');
  const hosts = app.page.getByRole('region', { name: 'Hosts' });
  await expect(hosts).toContainText('Claude API: would be refused');
  await expect(app.problems).toContainText('No problems for the selected targets (Agent Skills)');
  const note = app.problems.getByRole('note');
  await expect(note).toContainText(
    'Claude API would refuse this skill as it is now, for reasons outside the selected targets: the Hosts section below says why.',
  );
  await app.page.screenshot({ path: join(SHOTS, 'problems-host-refuses.png') });

  // Without the tag, no host refuses it and the note goes.
  await app.replaceLine(3, 'description: Closes a tag. Use when a prompt ends too early.');
  await expect(hosts).toContainText('Claude API: ready');
  await expect(note).toHaveCount(0);
});

test('a frontmatter Claude Code cannot read as written: Claude Code loads it, not refused, and Hosts shows the line its list gets', async ({
  app,
  library,
}) => {
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await library.addSkill(
    'quoted',
    '---\nname: quoted\ndescription: "Never closed. Use when asked.\n---\n# Quoted notes\n\nDo it.\n',
  );
  await app.openFolder(library.dir);
  await app.openSkill('quoted');
  const hosts = app.page.getByRole('region', { name: 'Hosts' });
  // Claude Code 2.1.332 lists such a skill with no field read: its folder and the body's first
  // line (docs/claude-code-listing.md).
  await expect(hosts).toContainText('Claude Code: loads it, not as written');
  await expect(hosts).toContainText('Claude API: would be refused');
  await hosts.locator('summary').click();
  const code = hosts.locator('li[data-host="claude-code"]');
  await expect(code).toContainText('Claude Code would load it, but not as written');
  await expect(code).not.toContainText('refuse');
  await expect(code).toContainText(
    "Claude Code's skill list shows it to the model as: - quoted: Quoted notes",
  );
  await app.page.screenshot({ path: join(SHOTS, 'hosts-claude-code-loads.png') });
});
