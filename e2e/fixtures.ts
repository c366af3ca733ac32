import { test as base } from '@playwright/test';
import { mkdtemp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliLaunch as cliLaunchOf } from '../main/platform/cli-launch';
import { startBrowserShell, type BrowserShell } from '../main/web/browser-shell';
import { SkillbenchPage } from './pages/skillbench-page';

/** A library folder in a fresh temp directory, removed after the test. */
export interface TempLibrary {
  dir: string;
  /** Write `<dir>/<relativeDir>/SKILL.md` and return its path. */
  addSkill(relativeDir: string, text: string): Promise<string>;
  read(path: string): Promise<string>;
  /** Write any file under the library (folders created as needed). */
  addFile(relativePath: string, text: string | Buffer): Promise<void>;
  /** Change a file the way another editor does: write a temp file, rename it over. */
  write(path: string, text: string): Promise<void>;
}

const rendererDir = join(import.meta.dirname, '..', 'out', 'renderer');
/** How clients start the CLI, as `skillbench web` finds it: the built bundle beside the window's. */
export const cliLaunch = cliLaunchOf(join(import.meta.dirname, '..', 'out', 'main'));

/**
 * A temp home with the given agents' folders (so those agents count as installed), removed after
 * the test: the `home` fixture of the specs that install into agents.
 */
export async function withAgentHome(
  agentDirs: readonly string[],
  use: (home: string) => Promise<void>,
): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'skillbench-e2e-home-'));
  for (const dir of agentDirs) await mkdir(join(home, dir), { recursive: true });
  await use(home);
  await rm(home, { recursive: true, force: true });
}

/** The browser shell with its agents looked for in `home`, closed and removed after the test. */
export async function withAgentShell(
  home: string,
  use: (shell: BrowserShell) => Promise<void>,
): Promise<void> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'skillbench-e2e-userdata-'));
  const shell = await startBrowserShell({
    rendererDir,
    version: 'e2e',
    userDataDir,
    cliLaunch,
    agentEnv: { home, vars: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } },
  });
  await use(shell);
  await shell.close();
  await rm(userDataDir, { recursive: true, force: true });
}

/** Fixtures: one temp library and one real browser-shell host per test (docs/conventions.md §8). */
export const test = base.extend<{ library: TempLibrary; shell: BrowserShell; app: SkillbenchPage }>(
  {
    library: async ({}, use) => {
      const dir = await mkdtemp(join(tmpdir(), 'skillbench-e2e-'));
      await use({
        dir,
        async addSkill(relativeDir, text) {
          const folder = join(dir, relativeDir);
          await mkdir(folder, { recursive: true });
          const path = join(folder, 'SKILL.md');
          await writeFile(path, text);
          return path;
        },
        read: (path) => readFile(path, 'utf8'),
        async addFile(relativePath, text) {
          await mkdir(join(dir, relativePath, '..'), { recursive: true });
          await writeFile(join(dir, relativePath), text);
        },
        async write(path, text) {
          await writeFile(`${path}.tmp-e2e`, text);
          await rename(`${path}.tmp-e2e`, path);
        },
      });
      await rm(dir, { recursive: true, force: true });
    },
    shell: async ({}, use) => {
      const userDataDir = await mkdtemp(join(tmpdir(), 'skillbench-e2e-userdata-'));
      const shell = await startBrowserShell({
        rendererDir,
        version: 'e2e',
        userDataDir,
        cliLaunch,
      });
      await use(shell);
      await shell.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
    app: async ({ page, shell }, use) => {
      const app = new SkillbenchPage(page);
      await app.goto(shell.host.url);
      await use(app);
    },
  },
);

export { expect } from '@playwright/test';
