// Interop with the `skills` CLI (npm `skills`, run with Node 22 through npx, local sources only,
// telemetry off): each tool installs a skill, the other lists it with its source, and each reads
// the lock-file entries the other wrote. HOME and XDG_* point at temp folders.
import { spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseLock } from '../../shared/agents/lock';
import { LibraryService } from '../library/library-service';
import { SettingsStore } from '../library/settings-store';
import { SkillManager } from './manager';
import { allAgentSkillDirs } from './paths';

const SKILLS_CLI = 'skills@1.7.4';

let tmp: string;
let home: string;
let project: string;
let env: Record<string, string>;
let manager: SkillManager;

/** Run the skills CLI in `cwd` with the temp HOME. */
function skills(args: string, cwd: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['-y', '-p', 'node@22', '-p', SKILLS_CLI, '-c', `skills ${args}`], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

async function addSkill(root: string, name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Does ${name} things. Use when ${name} is asked for.\n---\n# ${name}\n`,
  );
  return dir;
}

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-skills-interop-'));
  home = join(tmp, 'home');
  project = join(tmp, 'project');
  await mkdir(join(home, '.claude'), { recursive: true });
  await mkdir(project);
  env = {
    ...(process.env as Record<string, string>),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: '',
    XDG_DATA_HOME: join(home, '.local', 'share'),
    DISABLE_TELEMETRY: '1',
    DO_NOT_TRACK: '1',
    npm_config_update_notifier: 'false',
    CI: '1',
  };
  delete env.XDG_STATE_HOME;
  delete env.CLAUDE_CONFIG_DIR;
  delete env.CODEX_HOME;
  manager = new SkillManager({
    env: { home, vars: env },
    dataDir: join(tmp, 'data'),
    trashDir: join(tmp, 'data', 'trash'),
    libraryRoots: async () => [],
  });
  manager.extraProjects.push(project);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('the skills CLI and Skillbench read each other', () => {
  it('skills add (a link, its default) is listed by Skillbench with its source, and the linked folder opens as a skill', async () => {
    await addSkill(join(project, 'my-skills'), 'my-skill');
    // Why two agents: with one folder the CLI copies; with two it links, its usual case.
    const added = await skills('add ./my-skills -a claude-code -a codex -y', project);
    expect(added.code, added.out + added.err).toBe(0);
    const link = join(project, '.claude', 'skills', 'my-skill');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe('../../.agents/skills/my-skill');

    const overview = await manager.overview({ agents: ['claude-code'] });
    const listed = overview.agents[0]?.folders.find((f) => f.scope.kind === 'project')?.skills[0];
    expect(listed).toMatchObject({ name: 'my-skill', state: 'linked', recordedBy: 'skills-cli' });
    expect(listed?.source).toContain('my-skills');
    // Skillbench reads the CLI's lock entry: its computedHash is the hash of the installed copy.
    expect(listed?.changed).toBe(false);
    const lock = parseLock('project', await readFile(join(project, 'skills-lock.json'), 'utf8'));
    expect(lock.problem).toBeUndefined();
    expect(lock.skills['my-skill']).toMatchObject({ sourceType: 'local' });
    // The CLI records the folder it was given, relative to the project, and finds the skill in it
    // by name; Skillbench's check for updates finds the same skill there.
    expect(lock.skills['my-skill']?.source).toBe('./my-skills');
    const [checked] = await manager.outdated(['my-skill']);
    expect(checked, JSON.stringify(checked)).toMatchObject({ status: 'up-to-date' });
    await writeFile(
      join(project, 'my-skills', 'my-skill', 'SKILL.md'),
      `---\nname: my-skill\ndescription: Does my-skill things. Use when my-skill is asked for.\n---\n# New step\n`,
    );
    const [changed] = await manager.outdated(['my-skill']);
    expect(changed?.status).toBe('outdated');
    expect(changed?.diff?.some((d) => d.kind === 'added' && d.text.includes('New step'))).toBe(
      true,
    );

    // Opening .claude/skills as a library lists the linked folder as the skill it points to.
    const data = join(tmp, 'userdata');
    const library = new LibraryService(new SettingsStore(data));
    library.setLinkRoots(async () => allAgentSkillDirs({ home, vars: env }, [project]));
    const opened = await library.open(join(project, '.claude', 'skills'));
    expect(opened.ok && opened.value.skills.map((s) => [s.name, s.linked?.state])).toEqual([
      ['my-skill', 'followed'],
    ]);
    library.dispose();
  }, 240_000);

  it('Skillbench installs (link, project and global); skills list shows each with its source', async () => {
    const lib = join(tmp, 'lib');
    const notes = await addSkill(lib, 'notes');
    const report = await manager.install({
      skills: [{ dir: notes, source: { kind: 'library', path: notes } }],
      agents: ['claude-code'],
      scope: { kind: 'project', dir: project },
      mode: 'link',
    });
    expect(report.outcomes[0]?.status).toBe('installed');
    const listed = await skills('list --json', project);
    expect(listed.code, listed.err).toBe(0);
    const rows = JSON.parse(listed.out) as {
      name: string;
      agents: string[];
      source: string | null;
      sourceType: string | null;
    }[];
    expect(rows.find((r) => r.name === 'notes')).toMatchObject({
      source: notes,
      sourceType: 'local',
    });
    expect(rows.find((r) => r.name === 'notes')?.agents).toContain('Claude Code');

    const global = await addSkill(lib, 'everywhere');
    await manager.install({
      skills: [{ dir: global, source: { kind: 'library', path: global } }],
      agents: ['claude-code'],
      scope: { kind: 'global' },
      mode: 'link',
    });
    const listedGlobal = await skills('list -g --json', project);
    expect(listedGlobal.code, listedGlobal.err).toBe(0);
    const globalRows = JSON.parse(listedGlobal.out) as { name: string; source: string | null }[];
    expect(globalRows.find((r) => r.name === 'everywhere')?.source).toBe(global);

    // The CLI removes what Skillbench installed, and keeps Skillbench's other lock entries readable.
    const removed = await skills('remove notes -a claude-code -y', project);
    expect(removed.code, removed.out + removed.err).toBe(0);
    const lock = parseLock('project', await readFile(join(project, 'skills-lock.json'), 'utf8'));
    expect(lock.problem).toBeUndefined();
  }, 240_000);
});
