import { mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserShell } from '../../main/web/browser-shell';
import { seriousViolations } from '../axe';
import { expect, test as base, withAgentHome, withAgentShell } from '../fixtures';
import { AgentsPage } from '../pages/agents-page';
import type { SkillbenchPage } from '../pages/skillbench-page';

/** The shell with its agents looked for in a temp home (Claude Code and Codex "installed" there). */
const test = base.extend<{ home: string; shell: BrowserShell; agents: AgentsPage }>({
  home: async ({}, use) => withAgentHome(['.claude', '.codex'], use),
  shell: async ({ home }, use) => withAgentShell(home, use),
  agents: async ({ app }, use) => {
    await use(new AgentsPage(app.page));
  },
});

const SKILL = (name: string) =>
  `---\nname: ${name}\ndescription: Does ${name} things. Use when ${name} is asked for.\n---\n# ${name}\n`;

test('the Agents view lists what each agent loads: a skill linked the skills CLI way with its source, a broken link, the verdict', async ({
  app,
  agents,
  library,
  home,
}) => {
  const project = join(library.dir, 'project');
  await mkdir(join(project, '.agents', 'skills', 'my-skill'), { recursive: true });
  await writeFile(join(project, '.agents', 'skills', 'my-skill', 'SKILL.md'), SKILL('my-skill'));
  await mkdir(join(project, '.claude', 'skills'), { recursive: true });
  await symlink('../../.agents/skills/my-skill', join(project, '.claude', 'skills', 'my-skill'));
  await symlink('../../gone', join(project, '.claude', 'skills', 'old-skill'));
  await writeFile(
    join(project, 'skills-lock.json'),
    JSON.stringify({
      version: 1,
      skills: { 'my-skill': { source: './my-skills', sourceType: 'local', computedHash: 'x' } },
    }),
  );
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await agents.open();
  await agents.addProject(project);
  const linked = agents.row('Claude Code', 'my-skill');
  await expect(linked).toContainText('Linked to the shared copy');
  await expect(linked).toContainText('my-skills');
  await expect(linked).toContainText('Valid');
  const broken = agents.row('Claude Code', 'old-skill');
  await expect(broken).toContainText('Broken link');
  await expect(broken).toContainText('does not exist');
  await expect(agents.agent('Codex')).toBeVisible();
  expect(await seriousViolations(app.page), 'Agents view').toEqual([]);
  await app.page.screenshot({ path: 'out/screenshots/agents-view.png' });

  // Remove goes to the trash, and Undo puts it back.
  await linked.getByRole('button', { name: /^Remove my-skill/ }).click();
  await expect(agents.row('Claude Code', 'my-skill')).toHaveCount(0);
  await agents.undoButton.click();
  await expect(agents.row('Claude Code', 'my-skill')).toContainText('Linked to the shared copy');
  expect(await readlink(join(project, '.claude', 'skills', 'my-skill'))).toBe(
    '../../.agents/skills/my-skill',
  );
  void home;
});

test('a project whose .claude is a link to a folder elsewhere: the Agents view names the link and lists nothing behind it', async ({
  app,
  agents,
  library,
}) => {
  // What a cloned repository can hold: `.claude` pointing out of the project.
  const elsewhere = join(library.dir, 'elsewhere');
  await mkdir(join(elsewhere, 'skills', 'planted'), { recursive: true });
  await writeFile(join(elsewhere, 'skills', 'planted', 'SKILL.md'), SKILL('planted'));
  const project = join(library.dir, 'cloned');
  await mkdir(project);
  await symlink('../elsewhere', join(project, '.claude'));
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await agents.open();
  await agents.addProject(project);
  const note = agents.agent('Claude Code').getByRole('note');
  await expect(note).toContainText(`${join(project, '.claude')} is a link (to ../elsewhere)`);
  await expect(note).toContainText('Skillbench does not follow links in a project');
  await expect(agents.row('Claude Code', 'planted')).toHaveCount(0);
  expect(await seriousViolations(app.page), 'Agents view, a linked project folder').toEqual([]);
  await app.page.screenshot({ path: 'out/screenshots/agents-project-link.png' });
});

test('adding a project folder that is not there says so in words and adds nothing', async ({
  app,
  agents,
  library,
}) => {
  const typo = join(library.dir, 'projcet');
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await agents.open();
  await agents.addProject(typo);
  await expect(
    app.page.getByText(`There is no project folder at ${typo}. Check the spelling.`),
  ).toBeVisible();
  await expect(agents.view.getByText(typo)).toHaveCount(0);
  // The path stays in the field, to be mended.
  await expect(agents.projectInput).toHaveValue(typo);
  expect(await seriousViolations(app.page), 'Agents view, a mistyped project').toEqual([]);
  await app.page.screenshot({ path: 'out/screenshots/agents-project-typo.png' });
});

test('Choose… picks a project folder with the folder browser, and a refusal is said in the dialog', async ({
  app,
  agents,
  library,
}) => {
  const project = join(library.dir, 'web-app');
  await mkdir(join(project, '.claude', 'skills', 'deploy'), { recursive: true });
  await writeFile(join(project, '.claude', 'skills', 'deploy', 'SKILL.md'), SKILL('deploy'));
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await agents.open();
  await agents.chooseProjectButton.click();
  // The browser shell has no folder dialog of its own: the folder picker opens.
  const picker = app.page.getByRole('dialog', { name: 'Add a project folder' });
  await expect(picker).toBeVisible();
  const path = picker.getByLabel('Folder path');
  // A folder that is not there is refused in the dialog, which stays open.
  await path.fill(join(library.dir, 'nowhere'));
  await picker.getByRole('button', { name: 'Add this project' }).click();
  await expect(picker.getByRole('alert')).toContainText(
    `There is no project folder at ${join(library.dir, 'nowhere')}.`,
  );
  // Browsing: into the library folder, then a click on the project's folder.
  await path.fill(library.dir);
  await picker.getByRole('button', { name: 'Browse', exact: true }).click();
  await picker.getByRole('button', { name: 'web-app', exact: true }).click();
  await expect(path).toHaveValue(project);
  expect(await seriousViolations(app.page), 'the project folder picker').toEqual([]);
  await app.page.screenshot({ path: 'out/screenshots/agents-choose-project.png' });
  await picker.getByRole('button', { name: 'Add this project' }).click();
  await expect(picker).toHaveCount(0);
  await expect(agents.view.getByRole('list', { name: 'Project folders' })).toContainText(project);
  await expect(agents.row('Claude Code', 'deploy')).toBeVisible();
  // The refusal said before is not left standing over the folder added.
  await expect(app.page.getByText('There is no project folder at')).toHaveCount(0);
});

test('installing from the library: checked for each agent first, linked for Claude Code, a name conflict asks and renames', async ({
  app,
  agents,
  library,
  home,
}) => {
  await library.addSkill('notes', SKILL('notes'));
  await mkdir(join(home, '.claude', 'skills', 'notes'), { recursive: true });
  await writeFile(join(home, '.claude', 'skills', 'notes', 'SKILL.md'), SKILL('notes') + 'Mine.\n');
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await app.openFolder(library.dir);
  await expect(app.skill('notes')).toBeVisible();
  await agents.installButton.click();
  await expect(agents.dialog).toBeVisible();
  await agents.tick('notes');
  await agents.tick('Claude Code');
  // Said before anything is written: the link's one copy lands where Codex (found here) reads.
  const shared = agents.dialog.getByRole('note', {
    name: 'Other agents that will load these skills',
  });
  await expect(shared).toContainText('Codex also loads the skills in ~/.agents/skills');
  await agents.dialog.getByLabel('How').selectOption('copy');
  await expect(shared).toBeHidden();
  await agents.dialog.getByLabel('How').selectOption('auto');
  await expect(shared).toBeVisible();
  await agents.dialog.getByRole('button', { name: 'Check' }).click();
  await expect(agents.dialog.getByRole('table', { name: 'Checks for each agent' })).toContainText(
    'Valid',
  );
  expect(await seriousViolations(app.page), 'install dialog').toEqual([]);
  await agents.dialog.getByRole('button', { name: 'Install', exact: true }).click();
  const result = agents.dialog.getByRole('list', { name: 'Install result' });
  await expect(result).toContainText('already exists');
  await app.page.screenshot({ path: 'out/screenshots/install-dialog.png' });
  expect(await readFile(join(home, '.claude', 'skills', 'notes', 'SKILL.md'), 'utf8')).toContain(
    'Mine.',
  );
  await agents.dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(result).toContainText('Linked');
  expect(await readlink(join(home, '.claude', 'skills', 'notes-2'))).toBe(
    '../../.agents/skills/notes-2',
  );
  await agents.dialog.getByRole('button', { name: 'Close' }).click();
  await expect(app.skill('notes')).toContainText('installed in Claude Code');
});

test('installing into a project not listed yet: Where › Another project folder… asks for it, then installs there', async ({
  app,
  agents,
  library,
}) => {
  await library.addSkill('notes', SKILL('notes'));
  const project = join(library.dir, 'site');
  await mkdir(project, { recursive: true });
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await app.openFolder(library.dir);
  await expect(app.skill('notes')).toBeVisible();
  await agents.installButton.click();
  await agents.tick('notes');
  await agents.tick('Claude Code');
  const where = agents.dialog.getByLabel('Where');
  await where.selectOption({ label: 'Another project folder…' });
  const picker = app.page.getByRole('dialog', { name: 'Add a project folder' });
  await picker.getByLabel('Folder path').fill(project);
  await app.page.screenshot({ path: 'out/screenshots/install-another-project.png' });
  await picker.getByRole('button', { name: 'Add this project' }).click();
  await expect(picker).toHaveCount(0);
  // The folder added is the choice now, and listed for next time.
  await expect(where).toHaveValue(project);
  await expect(where.getByRole('option', { name: `Project ${project}` })).toHaveCount(1);
  expect(await seriousViolations(app.page), 'install dialog, a project added').toEqual([]);
  await app.page.screenshot({ path: 'out/screenshots/install-project-added.png' });
  await agents.dialog.getByLabel('How').selectOption('copy');
  await agents.dialog.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(agents.dialog.getByRole('list', { name: 'Install result' })).toContainText('Copied');
  expect(await readFile(join(project, '.claude', 'skills', 'notes', 'SKILL.md'), 'utf8')).toBe(
    SKILL('notes'),
  );
});

test('installing for an agent not set up on this computer yet: offered under "More agents", copied where it will look', async ({
  app,
  agents,
  library,
  home,
}) => {
  await library.addSkill('notes', SKILL('notes'));
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await app.openFolder(library.dir);
  await expect(app.skill('notes')).toBeVisible();
  await agents.installButton.click();
  await agents.tick('notes');
  // Found here: Claude Code and Codex; Gemini CLI is not, so it waits under "More agents".
  await expect(agents.dialog.getByRole('checkbox', { name: /^Gemini CLI/ })).toBeHidden();
  const more = agents.dialog.locator('summary', { hasText: 'More agents' });
  await expect(more).toHaveText(/^More agents \(\d+ not found on this computer\)$/);
  await more.click();
  // An agent with no user folder cannot take an install "for every project".
  const eve = agents.dialog.getByRole('checkbox', { name: 'Eve (project folders only)' });
  await expect(eve).toBeDisabled();
  await agents.tick('Gemini CLI');
  await expect(more).toHaveText(/, 1 chosen\)$/);
  await agents.dialog.getByLabel('How').selectOption('copy');
  expect(await seriousViolations(app.page), 'install dialog, more agents').toEqual([]);
  await app.page.screenshot({ path: 'out/screenshots/install-more-agents.png' });
  await agents.dialog.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(agents.dialog.getByRole('list', { name: 'Install result' })).toContainText('Copied');
  // Gemini CLI reads the shared ~/.agents/skills itself, so the copy goes there.
  expect(await readFile(join(home, '.agents', 'skills', 'notes', 'SKILL.md'), 'utf8')).toBe(
    SKILL('notes'),
  );
});

test('two library skills with one name are told apart in the install dialog by their folders', async ({
  app,
  agents,
  library,
}, testInfo) => {
  await library.addSkill('team-a/dup', SKILL('dup'));
  await library.addSkill('team-b/dup', SKILL('dup'));
  await library.addSkill('notes', SKILL('notes'));
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await app.openFolder(library.dir);
  await expect(app.skill('notes')).toBeVisible();
  await agents.installButton.click();
  await expect(agents.dialog).toBeVisible();
  const skills = agents.dialog.getByRole('group', { name: 'Skills' });
  await expect(skills.getByText('dup (team-a/dup)')).toBeVisible();
  await expect(skills.getByText('dup (team-b/dup)')).toBeVisible();
  // A name no other skill has is shown alone.
  await expect(skills.getByText('notes', { exact: true })).toBeVisible();
  await app.page.screenshot({ path: testInfo.outputPath('install-same-names.png') });
});

/** Install the library's `notes` into `project` for Claude Code as a copy, through the dialog. */
async function installCopy(
  app: SkillbenchPage,
  agents: AgentsPage,
  project: string,
): Promise<void> {
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await expect(app.skill('notes')).toBeVisible();
  await agents.installButton.click();
  await agents.tick('notes');
  await agents.tick('Claude Code');
  await agents.dialog.getByLabel('Where').selectOption({ label: 'Another project folder…' });
  const picker = app.page.getByRole('dialog', { name: 'Add a project folder' });
  await picker.getByLabel('Folder path').fill(project);
  await picker.getByRole('button', { name: 'Add this project' }).click();
  await agents.dialog.getByLabel('How').selectOption('copy');
  await agents.dialog.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(agents.dialog.getByRole('list', { name: 'Install result' })).toContainText('Copied');
  await agents.dialog.getByRole('button', { name: 'Close' }).click();
}

const NOTES = (body: string) => `${SKILL('notes')}\n${body}`;

test('updating a copy edited since install: the source’s changes and the user’s shown apart, what Merge will do said first, and Merge keeps both', async ({
  app,
  agents,
  library,
}) => {
  const source = await library.addSkill('notes', NOTES('One.\nTwo.\n'));
  const project = join(library.dir, 'site');
  await mkdir(project, { recursive: true });
  await app.openFolder(library.dir);
  await installCopy(app, agents, project);

  const copy = join(project, '.claude', 'skills', 'notes', 'SKILL.md');
  await writeFile(copy, NOTES('One.\nTwo.\nMine.\n'));
  await library.write(source, NOTES('One, theirs.\nTwo.\n'));
  await agents.open();
  await agents.view.getByRole('button', { name: 'Check for updates' }).click();
  const entry = agents.view.getByRole('listitem', { name: 'Update notes' });
  const theirs = entry.getByLabel('Changes at the source of notes');
  const mine = entry.getByLabel('Your edits to notes');
  await expect(theirs).toHaveText('- One.+ One, theirs.');
  // The user's line is theirs to keep, not shown as a line the update removes.
  await expect(mine).toHaveText('+ Mine.');
  await expect(entry).toContainText(
    'Merge keeps both your edits and the source’s changes: nothing to settle.',
  );
  expect(await seriousViolations(app.page), 'an update with edits on both sides').toEqual([]);
  await app.page.screenshot({ path: 'out/screenshots/update-edited-copy.png' });
  await entry.getByRole('button', { name: 'Merge' }).click();
  await expect(entry.getByRole('status')).toContainText('your edits merged in');
  expect(await readFile(copy, 'utf8')).toBe(NOTES('One, theirs.\nTwo.\nMine.\n'));
});

test('Keep mine is remembered: that version is not offered again, Take theirs still takes it, a newer version is offered', async ({
  app,
  agents,
  library,
}) => {
  const source = await library.addSkill('notes', NOTES('One.\n'));
  const project = join(library.dir, 'site');
  await mkdir(project, { recursive: true });
  await app.openFolder(library.dir);
  await installCopy(app, agents, project);
  const copy = join(project, '.claude', 'skills', 'notes', 'SKILL.md');
  await writeFile(copy, NOTES('One.\nMine.\n'));
  await library.write(source, NOTES('One, theirs.\n'));

  await agents.open();
  const check = agents.view.getByRole('button', { name: 'Check for updates' });
  await check.click();
  const entry = agents.view.getByRole('listitem', { name: 'Update notes' });
  await entry.getByRole('button', { name: 'Keep mine' }).click();
  await expect(entry.getByRole('status')).toContainText('not offered again');
  await check.click();
  await expect(entry).toContainText('You kept your edited copy of notes');
  await expect(entry.getByRole('button', { name: 'Keep mine' })).toHaveCount(0);
  expect(await readFile(copy, 'utf8')).toBe(NOTES('One.\nMine.\n'));
  await app.page.screenshot({ path: 'out/screenshots/update-kept.png' });

  await library.write(source, NOTES('One, theirs.\nTwo, theirs.\n'));
  await check.click();
  await expect(entry).toContainText('has a newer version at its source');
  await entry.getByRole('button', { name: 'Keep mine' }).click();
  await check.click();
  await expect(entry).toContainText('You kept your edited copy of notes');
  await entry.getByRole('button', { name: 'Take theirs' }).click();
  await expect(entry.getByRole('status')).toContainText('updated');
  expect(await readFile(copy, 'utf8')).toBe(NOTES('One, theirs.\nTwo, theirs.\n'));
});

test("Codex's row: the folders Codex also loads are listed and marked, a capitalised name is loaded with a warning, a byte-order mark is skipped", async ({
  app,
  agents,
  home,
}) => {
  // Each case is what Codex 0.171.0 did with such a file (docs/codex-listing.md).
  const own = join(home, '.codex', 'skills');
  await mkdir(join(own, 'Meeting'), { recursive: true });
  await writeFile(
    join(own, 'Meeting', 'SKILL.md'),
    '---\nname: Meeting Notes\ndescription: Takes meeting notes.\n---\n# Notes\n',
  );
  await mkdir(join(own, 'bom'), { recursive: true });
  await writeFile(join(own, 'bom', 'SKILL.md'), `\uFEFF${SKILL('bom')}`);
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await agents.open();
  const codex = agents.agent('Codex');
  await expect(codex).toContainText(
    'Codex also loads the skills in this folder. Skillbench lists them but installs into ~/.agents/skills.',
  );
  await expect(codex).toContainText('and by what Codex itself loads and skips');
  const named = agents.row('Codex', 'Meeting Notes');
  await expect(named).toContainText(
    'Codex loads it, though agents that follow the Agent Skills spec would refuse it',
  );
  await expect(agents.row('Codex', 'bom')).toContainText(
    'Codex skips it: the file starts with an invisible byte-order mark before its first `---`.',
  );
  expect(await seriousViolations(app.page), 'Codex in the Agents view').toEqual([]);
  await codex.scrollIntoViewIfNeeded();
  await app.page.screenshot({ path: 'out/screenshots/agents-codex.png' });
});

test("Gemini CLI's row: the folder it also loads is listed, a name in two of its folders marks the one it keeps, a space after `---` is skipped, a skill its settings turn off is said so", async ({
  app,
  agents,
  home,
}) => {
  // Each case is what Gemini CLI 0.61.0 did with such a file (docs/gemini-cli-listing.md).
  const own = join(home, '.agents', 'skills');
  const also = join(home, '.gemini', 'skills');
  for (const dir of [join(own, 'notes'), join(also, 'notes'), join(also, 'spaced')])
    await mkdir(dir, { recursive: true });
  await writeFile(join(own, 'notes', 'SKILL.md'), SKILL('notes'));
  await writeFile(join(also, 'notes', 'SKILL.md'), SKILL('notes'));
  await writeFile(
    join(also, 'spaced', 'SKILL.md'),
    '--- \nname: spaced\ndescription: A space after the dashes.\n---\n# Spaced\n',
  );
  // Turned off in Gemini CLI's own settings (its /skills disable writes this).
  await mkdir(join(own, 'quiet'), { recursive: true });
  await writeFile(join(own, 'quiet', 'SKILL.md'), SKILL('quiet'));
  const settings = join(home, '.gemini', 'settings.json');
  await writeFile(settings, '{ "skills": { "disabled": ["quiet"] } }\n');
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await agents.open();
  const gemini = agents.agent('Gemini CLI');
  await expect(agents.row('Gemini CLI', 'quiet')).toContainText(
    `Gemini CLI does not load it: ${settings} lists it under skills.disabled.`,
  );
  await expect(gemini).toContainText(
    'Gemini CLI also loads the skills in this folder. Skillbench lists them but installs into ~/.agents/skills.',
  );
  await expect(gemini).toContainText('and by what Gemini CLI itself loads and skips');
  await expect(agents.row('Gemini CLI', 'spaced')).toContainText(
    'Gemini CLI skips it: its first line is not exactly `---`.',
  );
  await expect(gemini).toContainText('Gemini CLI lists one skill per name');
  expect(await seriousViolations(app.page), 'Gemini CLI in the Agents view').toEqual([]);
  await gemini.scrollIntoViewIfNeeded();
  await app.page.screenshot({ path: 'out/screenshots/agents-gemini.png' });
});
