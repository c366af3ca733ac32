import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startBrowserShell, type BrowserShell } from '../../main/web/browser-shell';
import { cliLaunch } from '../fixtures';
import { craftZip } from '../../main/pack/craft-archives';
import { expect, test as base } from '../fixtures';
import { AgentViewPage } from '../pages/agent-view-page';
import { InspectorPage } from '../pages/inspector-page';

/**
 * The README's screenshots, taken from the real app in the browser shell (`npm run screenshots`).
 * 1280x800 shots go to docs/screenshots/ (referenced from the README); 1920x1080 shots of the
 * same screens go to out/screenshots/1920x1080/ to look at before a change is called done.
 */
const SIZES = [
  { width: 1280, height: 800, dir: join(import.meta.dirname, '..', '..', 'docs', 'screenshots') },
  {
    width: 1920,
    height: 1080,
    dir: join(import.meta.dirname, '..', '..', 'out', 'screenshots', '1920x1080'),
  },
];
const rendererDir = join(import.meta.dirname, '..', '..', 'out', 'renderer');

/** The shell with its agents looked for in a temp home, so the shots show no real machine. */
const test = base.extend<{ home: string; shell: BrowserShell }>({
  home: async ({}, use) => {
    const home = await mkdtemp(join(tmpdir(), 'skillbench-shots-home-'));
    await mkdir(join(home, '.claude', 'skills'), { recursive: true });
    await mkdir(join(home, '.codex'), { recursive: true });
    await use(home);
    await rm(home, { recursive: true, force: true });
  },
  shell: async ({ home }, use) => {
    const userDataDir = await mkdtemp(join(tmpdir(), 'skillbench-shots-userdata-'));
    const shell = await startBrowserShell({
      rendererDir,
      version: 'screenshots',
      userDataDir,
      cliLaunch,
      agentEnv: { home, vars: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } },
    });
    await use(shell);
    await shell.close();
    await rm(userDataDir, { recursive: true, force: true });
  },
});

const MEETING_NOTES = `---
name: meeting-notes
description: Turns raw meeting notes into a summary with decisions and action items. Use when the user pastes notes or a transcript.
argument-hint: "[file]"
---
# Meeting notes

1. Read the notes once, end to end.
2. List the decisions, then the action items with an owner each.
3. Keep the summary under ten lines.
`;

const SLIDES = `---
name: Slide-Maker
description: Makes slides: one idea per slide
---
# Slides
`;

const RELEASE = `---
name: release-notes
description: Writes release notes from a list of merged changes. Use when a release is being prepared.
---
# Release notes

Group the changes by what users notice first.
`;

for (const size of SIZES) {
  test(`screens at ${size.width}x${size.height}`, async ({ app, library, home }) => {
    test.setTimeout(240_000);
    const page = app.page;
    await page.setViewportSize({ width: size.width, height: size.height });
    await mkdir(size.dir, { recursive: true });
    const shot = (name: string) => page.screenshot({ path: join(size.dir, `${name}.png`) });

    await shot('welcome');

    await library.addSkill('meeting-notes', MEETING_NOTES);
    await library.addSkill('Slide-Maker', SLIDES);
    await library.addSkill('release-notes', RELEASE);
    await library.addFile('meeting-notes/references/template.md', '# Template\n');
    await app.openFolder(library.dir);
    await app.openSkill('Slide-Maker');
    await expect(app.problems).toContainText('colon');
    await shot('library-editor-problems');

    await app.openSkill('meeting-notes');
    await page.getByRole('tab', { name: 'Form' }).click();
    await expect(page.getByRole('form', { name: 'Frontmatter fields' })).toBeVisible();
    await shot('form');
    await page.getByRole('tab', { name: 'Text' }).click();

    await app.newSkillButton.click();
    const wizard = page.getByRole('dialog', { name: 'New skill' });
    await wizard.getByLabel('Name', { exact: true }).fill('weekly-report');
    await wizard
      .getByLabel('Description', { exact: true })
      .fill('Writes the weekly status report from the team channel.');
    await shot('wizard');
    await page.keyboard.press('Escape');
    await expect(wizard).toBeHidden();

    await page.getByRole('button', { name: 'Export…' }).click();
    const exportDialog = page.getByRole('dialog', { name: /Export meeting-notes/ });
    await expect(exportDialog.getByRole('region', { name: 'Checks' })).toBeVisible();
    await shot('export');
    await page.keyboard.press('Escape');
    await expect(exportDialog).toBeHidden();

    const archive = join(home, 'weather.zip');
    await writeFile(
      archive,
      craftZip([
        {
          name: 'weather/SKILL.md',
          data: Buffer.from(
            '---\nname: weather\ndescription: Reports the weather. Use when the user asks about it.\n---\n# Weather\n',
          ),
        },
        { name: 'weather/references/api.md', data: Buffer.from('# API\n') },
      ]),
    );
    await page.getByRole('button', { name: 'Import…' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import a skill' });
    await importDialog.getByLabel(/A \.zip/).fill(archive);
    await importDialog.getByRole('button', { name: 'Check it' }).click();
    await expect(importDialog.getByRole('region', { name: 'Import preview' })).toContainText(
      'weather',
    );
    await shot('import');
    await page.keyboard.press('Escape');
    await expect(importDialog).toBeHidden();

    await page.getByRole('tab', { name: 'Server' }).click();
    const panel = page.getByRole('region', { name: 'Skills server' });
    await panel.getByRole('button', { name: 'Start server' }).click();
    await expect(panel).toHaveAttribute('data-state', 'running');
    await shot('server');
    await panel.getByRole('button', { name: 'Show' }).click();
    const token = await panel.getByLabel('Access token', { exact: true }).inputValue();
    const url = (await panel.getByRole('status').textContent())?.match(
      /http:\/\/127\.0\.0\.1:\d+\/mcp/,
    )?.[0];
    expect(url).toBeTruthy();

    const inspector = new InspectorPage(page);
    await inspector.open();
    await inspector.connectHttp('my library', url as string, token);
    await inspector
      .skillsOn('my library')
      .getByRole('button', { name: /^meeting-notes/ })
      .click();
    await expect(inspector.skill).toContainText('meeting-notes');
    await expect(inspector.skill.getByText('Loading the preview…')).toBeHidden();
    await shot('inspector');

    await page.getByRole('tab', { name: 'Agents' }).click();
    await expect(page.getByRole('region', { name: 'Agents' })).toBeVisible();
    await shot('agents');

    const agentView = new AgentViewPage(page);
    await agentView.open();
    await shot('what-the-agent-sees');
    await closeAll(page);
  });
}

/** Stop what the walk started (the embedded server) so the shell closes cleanly. */
async function closeAll(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Server' }).click();
  const stop = page.getByRole('button', { name: 'Stop server' });
  if (await stop.isVisible()) await stop.click();
}
