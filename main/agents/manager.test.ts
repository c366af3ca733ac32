import { execFileSync } from 'node:child_process';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rename,
  rm,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENTS, unlistedFolderSentence } from '../../shared/agents/agents';
import { mergeThreeWay } from '../../shared/agents/merge';
import { parseLock } from '../../shared/agents/lock';
import { hashFolder } from './hash';
import { SkillManager } from './manager';
import type { Scope } from './paths';

let tmp: string;
let home: string;
let lib: string;
let project: string;
let manager: SkillManager;

const skillText = (name: string, body = '# Body\n\nDo the thing.\n') =>
  `---\nname: ${name}\ndescription: Does ${name} things. Use when ${name} is asked for.\n---\n${body}`;

async function addSkill(root: string, name: string, body?: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'references'), { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), skillText(name, body));
  await writeFile(join(dir, 'references', 'guide.md'), '# Guide\n');
  return dir;
}

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-agents-'));
  home = join(tmp, 'home');
  lib = join(tmp, 'lib');
  project = join(tmp, 'project');
  await mkdir(join(home, '.claude'), { recursive: true });
  await mkdir(join(home, '.codex'), { recursive: true });
  await mkdir(lib);
  await mkdir(project);
  manager = new SkillManager({
    env: { home, vars: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } },
    dataDir: join(tmp, 'data'),
    trashDir: join(tmp, 'data', 'trash'),
    libraryRoots: async () => [lib],
  });
});
afterEach(async () => {
  await chmod(join(project, '.claude', 'skills'), 0o755).catch(() => undefined);
  await rm(tmp, { recursive: true, force: true });
});

const projectScope = (): Scope => ({ kind: 'project', dir: project });

/** Write the project's lock (format version 1) with these entries, as a cloned project brings it. */
const writeProjectLock = (skills: Record<string, unknown>): Promise<void> =>
  writeFile(join(project, 'skills-lock.json'), JSON.stringify({ version: 1, skills }));

describe('the agent table', () => {
  it('has every agent of the skills CLI once, each with a project folder', () => {
    const ids = AGENTS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(79);
    for (const id of [
      'claude-code',
      'codex',
      'cursor',
      'gemini-cli',
      'github-copilot',
      'opencode',
      'windsurf',
    ])
      expect(ids).toContain(id);
    expect(AGENTS.every((a) => a.projectDir.length > 0)).toBe(true);
  });

  it('detects only the agents whose configuration folders exist', async () => {
    const found = (await manager.detected()).map((a) => a.id);
    expect(found).toContain('claude-code');
    expect(found).toContain('codex');
    expect(found).not.toContain('cursor');
  });
});

describe('install and remove', () => {
  it('links: one canonical copy in .agents/skills, a relative link for Claude Code, the lock records the library source', async () => {
    const dir = await addSkill(lib, 'notes');
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code', 'cursor'],
      scope: projectScope(),
      mode: 'link',
    });
    expect(report.outcomes.map((o) => o.status)).toEqual(['installed', 'installed']);
    const link = join(project, '.claude', 'skills', 'notes');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe('../../.agents/skills/notes');
    expect(await readFile(join(project, '.agents', 'skills', 'notes', 'SKILL.md'), 'utf8')).toBe(
      skillText('notes'),
    );
    const lock = parseLock('project', await readFile(join(project, 'skills-lock.json'), 'utf8'));
    expect(lock.problem).toBeUndefined();
    expect(lock.skills.notes?.sourceType).toBe('local');
    expect(lock.skills.notes?.computedHash).toBe(
      await hashFolder(join(project, '.agents', 'skills', 'notes')),
    );
    const overview = await manager.overview({ projects: [project] });
    const claude = overview.agents.find((a) => a.id === 'claude-code');
    const skill = claude?.folders.find((f) => f.scope.kind === 'project')?.skills[0];
    expect(skill?.state).toBe('linked');
    expect(skill?.source).toContain(dir);
    expect(skill?.verdict).toBe('valid');
  });

  it('says which agents not chosen will load the skill from the folder they share, and when copying avoids it', async () => {
    const dir = await addSkill(lib, 'notes');
    const source = { kind: 'library' as const, path: dir };
    // Claude Code only, linked: the one copy lands in ~/.agents/skills, which Codex (detected) reads.
    const linked = await manager.install({
      skills: [{ dir, source }],
      agents: ['claude-code'],
      scope: { kind: 'global' },
    });
    expect(linked.outcomes.map((o) => o.status)).toEqual(['installed']);
    expect(await readFile(join(home, '.agents', 'skills', 'notes', 'SKILL.md'), 'utf8')).toBe(
      skillText('notes'),
    );
    expect(linked.alsoLoadedBy).toBe(
      'Codex also loads the skills in ~/.agents/skills, and a link keeps its one shared copy there, so it will load these skills too. To install only for the agents you chose, copy into each agent.',
    );
    // Copied into Claude Code's own folder: nothing lands where Codex reads, nothing to say.
    const other = await addSkill(lib, 'minutes');
    const copied = await manager.install({
      skills: [{ dir: other, source: { kind: 'library', path: other } }],
      agents: ['claude-code'],
      scope: { kind: 'global' },
      mode: 'copy',
    });
    expect(copied.outcomes.map((o) => o.status)).toEqual(['installed']);
    expect(await lstat(join(home, '.agents', 'skills', 'minutes')).catch(() => null)).toBeNull();
    expect(copied.alsoLoadedBy).toBeUndefined();
    // Both chosen: nobody else on this computer reads the shared folder.
    const both = await manager.install({
      skills: [{ dir, source }],
      agents: ['claude-code', 'codex'],
      scope: { kind: 'global' },
    });
    expect(both.alsoLoadedBy).toBeUndefined();
  });

  it('installs Codex into the shared folder it reads and links Claude Code to it', async () => {
    const dir = await addSkill(lib, 'notes');
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['codex', 'claude-code'],
      scope: { kind: 'global' },
    });
    expect(report.outcomes.map((o) => [o.agent, o.mode])).toEqual([
      ['codex', 'link'],
      ['claude-code', 'link'],
    ]);
    expect((await lstat(join(home, '.agents', 'skills', 'notes'))).isDirectory()).toBe(true);
    expect((await lstat(join(home, '.claude', 'skills', 'notes'))).isSymbolicLink()).toBe(true);
    const lock = parseLock(
      'global',
      await readFile(join(home, '.agents', '.skill-lock.json'), 'utf8'),
    );
    expect(lock.version).toBe(3);
    expect(lock.skills.notes?.skillFolderHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an agent that reads the shared copy written a moment ago for another is told it was installed, not "already there"', async () => {
    const dir = await addSkill(lib, 'notes');
    const source = { kind: 'library' as const, path: dir };
    const shared = join(project, '.agents', 'skills', 'notes');
    const first = await manager.install({
      skills: [{ dir, source }],
      agents: ['claude-code', 'codex'],
      scope: projectScope(),
    });
    expect(first.outcomes.map((o) => [o.agent, o.status, o.message])).toEqual([
      [
        'claude-code',
        'installed',
        `Linked ${join(project, '.claude', 'skills', 'notes')} to ${shared}.`,
      ],
      ['codex', 'installed', `Installed notes in the shared folder ${shared}, which Codex reads.`],
    ]);
    // Asked again, nothing is written, and both say so.
    const again = await manager.install({
      skills: [{ dir, source }],
      agents: ['claude-code', 'codex'],
      scope: projectScope(),
    });
    expect(again.outcomes.map((o) => o.status)).toEqual(['already', 'already']);
  });

  it("Codex's other folders are listed too ($CODEX_HOME/skills, a project's .codex/skills), and a name in two of them is loaded twice", async () => {
    await addSkill(join(home, '.codex', 'skills'), 'notes');
    await addSkill(join(project, '.codex', 'skills'), 'drafts');
    await addSkill(join(home, '.agents', 'skills'), 'notes');
    const overview = await manager.overview({ projects: [project], agents: ['codex'] });
    const codex = overview.agents[0];
    const folders = (codex?.folders ?? []).map((f) => [
      f.path,
      f.alsoRead === true,
      f.skills.map((k) => k.name),
    ]);
    expect(folders).toEqual([
      [join(home, '.agents', 'skills'), false, ['notes']],
      [join(home, '.codex', 'skills'), true, ['notes']],
      [join(project, '.agents', 'skills'), false, []],
      [join(project, '.codex', 'skills'), true, ['drafts']],
    ]);
    // Run with two skills of one name, Codex 0.171.0 listed both.
    const notes = (codex?.folders ?? []).flatMap((f) => f.skills).filter((k) => k.name === 'notes');
    expect(notes.map((k) => k.collision?.loaded)).toEqual([true, true]);
    expect(notes[0]?.collision?.rule).toBe(
      'Codex loads both and lists both, so the model sees two skills of this name.',
    );
  });

  it("Gemini CLI's skills go into the shared ~/.agents/skills it reads, never also ~/.gemini/skills (a name in both makes it warn at every start)", async () => {
    const dir = await addSkill(lib, 'notes');
    const source = { kind: 'library' as const, path: dir };
    const shared = join(home, '.agents', 'skills', 'notes');
    for (const mode of ['link', 'copy'] as const) {
      const report = await manager.install({
        skills: [{ dir, source }],
        agents: ['gemini-cli'],
        scope: { kind: 'global' },
        mode,
      });
      expect(report.outcomes.map((o) => o.status)).toEqual([
        mode === 'link' ? 'installed' : 'already',
      ]);
      expect((await lstat(shared)).isDirectory()).toBe(true);
      await expect(lstat(join(home, '.gemini', 'skills', 'notes'))).rejects.toThrow();
    }
  });

  it('with GEMINI_CLI_HOME set, Gemini CLI reads its folders there: the shared copy stays in ~/.agents/skills, linked from there', async () => {
    const geminiHome = join(tmp, 'gemini-home');
    const moved = new SkillManager({
      env: {
        home,
        vars: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GEMINI_CLI_HOME: geminiHome },
      },
      dataDir: join(tmp, 'data'),
      trashDir: join(tmp, 'data', 'trash'),
      libraryRoots: async () => [lib],
    });
    const dir = await addSkill(lib, 'notes');
    const report = await moved.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['gemini-cli'],
      scope: { kind: 'global' },
    });
    expect(report.outcomes.map((o) => [o.status, o.mode])).toEqual([['installed', 'link']]);
    expect((await lstat(join(home, '.agents', 'skills', 'notes'))).isDirectory()).toBe(true);
    expect((await lstat(join(geminiHome, '.agents', 'skills', 'notes'))).isSymbolicLink()).toBe(
      true,
    );
    const overview = await moved.overview({ agents: ['gemini-cli'] });
    expect((overview.agents[0]?.folders ?? []).map((f) => f.path)).toEqual([
      join(geminiHome, '.agents', 'skills'),
    ]);
  });

  it("Gemini CLI's own settings: a skill under skills.disabled (any case, the user's and the project's lists together) is said not to load, skills.enabled: false turns them all off", async () => {
    await addSkill(join(home, '.agents', 'skills'), 'notes');
    await addSkill(join(home, '.agents', 'skills'), 'drafts');
    await addSkill(join(project, '.agents', 'skills'), 'minutes');
    await mkdir(join(home, '.gemini'), { recursive: true });
    const userSettings = join(home, '.gemini', 'settings.json');
    // JSON with comments, as Gemini CLI writes and reads it.
    await writeFile(userSettings, '{\n  // mine\n  "skills": { "disabled": ["NOTES"] },\n}\n');
    await mkdir(join(project, '.gemini'), { recursive: true });
    const projectSettings = join(project, '.gemini', 'settings.json');
    await writeFile(projectSettings, JSON.stringify({ skills: { disabled: ['minutes'] } }));
    const offOf = async (): Promise<Record<string, string | undefined>> => {
      const overview = await manager.overview({ projects: [project], agents: ['gemini-cli'] });
      return Object.fromEntries(
        (overview.agents[0]?.folders ?? []).flatMap((f) =>
          f.skills.map((k) => [k.name, k.turnedOff]),
        ),
      );
    };
    expect(await offOf()).toEqual({
      notes: `Gemini CLI does not load it: ${userSettings} lists it under skills.disabled.`,
      drafts: undefined,
      minutes: `Gemini CLI does not load it: ${projectSettings} lists it under skills.disabled.`,
    });
    await writeFile(projectSettings, JSON.stringify({ skills: { enabled: false } }));
    const off = await offOf();
    expect(off['minutes']).toBe(
      `Gemini CLI loads no skills: skills.enabled is false in ${projectSettings}.`,
    );
    expect(off['drafts']).toBeUndefined();
    // A settings file kept elsewhere and linked (dotfiles) is read through the link, as Gemini
    // CLI reads it; one that is not JSON, or a link to a pipe, says nothing.
    const kept = join(tmp, 'dotfiles-settings.json');
    await writeFile(kept, JSON.stringify({ skills: { disabled: ['notes'] } }));
    await rm(userSettings);
    await symlink(kept, userSettings);
    expect((await offOf())['notes']).toBe(
      `Gemini CLI does not load it: ${userSettings} lists it under skills.disabled.`,
    );
    await writeFile(kept, '{ not json');
    expect((await offOf())['notes']).toBeUndefined();
    await rm(kept);
    execFileSync('mkfifo', [kept]);
    expect((await offOf())['notes']).toBeUndefined();
  });

  it("Gemini CLI's other folders are listed (~/.gemini/skills, a project's .gemini/skills); of one name it loads the one in .agents/skills", async () => {
    // What the skills CLI leaves for Gemini CLI: a copy in ~/.agents/skills, a link to it in
    // ~/.gemini/skills. Gemini CLI 0.61.0 listed the ~/.agents/skills one and warned.
    const canonical = await addSkill(join(home, '.agents', 'skills'), 'notes');
    await mkdir(join(home, '.gemini', 'skills'), { recursive: true });
    await symlink(canonical, join(home, '.gemini', 'skills', 'notes'));
    await addSkill(join(project, '.gemini', 'skills'), 'drafts');
    const overview = await manager.overview({ projects: [project], agents: ['gemini-cli'] });
    const gemini = overview.agents[0];
    expect(
      (gemini?.folders ?? []).map((f) => [
        f.path,
        f.alsoRead === true,
        f.skills.map((k) => k.name),
      ]),
    ).toEqual([
      [join(home, '.agents', 'skills'), false, ['notes']],
      [join(home, '.gemini', 'skills'), true, ['notes']],
      [join(project, '.agents', 'skills'), false, []],
      [join(project, '.gemini', 'skills'), true, ['drafts']],
    ]);
    const notes = (gemini?.folders ?? [])
      .flatMap((f) => f.skills)
      .filter((k) => k.name === 'notes');
    expect(notes.map((k) => k.collision?.loaded)).toEqual([true, false]);
    expect(notes[0]?.collision?.rule).toMatch(
      /^Gemini CLI lists one skill per name and warns of the conflict at every start/,
    );
  });

  it('skill folders grouped in a folder are listed for Codex, up to six folders down, as Codex loads them', async () => {
    const shared = join(project, '.agents', 'skills');
    await addSkill(join(shared, 'docs'), 'pdf');
    await addSkill(join(shared, 'a', 'b', 'c', 'd', 'e'), 'deep5');
    await addSkill(join(shared, 'a', 'b', 'c', 'd', 'e', 'f'), 'deep6');
    await addSkill(join(shared, '.hidden'), 'secret');
    await addSkill(shared, 'plain');
    // Codex 0.171.0 listed pdf, deep5 and plain; not deep6 (seven folders down) nor the hidden one.
    const overview = await manager.overview({ projects: [project], agents: ['codex', 'cursor'] });
    const listed = (id: string) =>
      (overview.agents.find((a) => a.id === id)?.folders ?? [])
        .filter((f) => f.path === shared)
        .flatMap((f) => f.skills.map((k) => k.folder));
    expect(listed('codex')).toEqual(['plain', 'docs/pdf', 'a/b/c/d/e/deep5']);
    // Other agents, never run, are listed by their folder's children only.
    expect(listed('cursor')).toEqual(['plain']);
  });

  it('a skills folder holding thousands of folders is looked into only so far (5,000 folders), never walked whole', async () => {
    const group = join(project, '.agents', 'skills', 'group');
    await Promise.all(Array.from({ length: 5_001 }, (_, k) => addSkill(join(group, `c${k}`), 'x')));
    const overview = await manager.overview({ projects: [project], agents: ['codex'] });
    const skills = (overview.agents[0]?.folders ?? []).flatMap((f) => f.skills);
    // The 5,001 folders of the group are looked at, none looked into: no group/cN/x is listed.
    expect(skills.filter((k) => k.folder.startsWith('group/c'))).toEqual([]);
  });

  it("Claude Code's collisions are by folder name, as Claude Code 2.1.332 loaded them: the same folder twice loads the personal one; two folders sharing a name load both", async () => {
    const skill = async (root: string, folder: string, name: string): Promise<void> => {
      const dir = await addSkill(root, folder);
      await writeFile(
        join(dir, 'SKILL.md'),
        `---\nname: ${name}\ndescription: ${folder} in ${root}.\n---\n`,
      );
    };
    await skill(join(home, '.claude', 'skills'), 'notes', 'notes');
    await skill(join(project, '.claude', 'skills'), 'notes', 'notes');
    await skill(join(home, '.claude', 'skills'), 'alpha', 'shared-name');
    await skill(join(project, '.claude', 'skills'), 'beta', 'shared-name');
    const overview = await manager.overview({ projects: [project], agents: ['claude-code'] });
    const skills = (overview.agents[0]?.folders ?? []).flatMap((f) =>
      f.skills.map((k) => [f.scope.kind, k.folder, k.collision?.loaded ?? null]),
    );
    expect(skills).toEqual([
      ['global', 'alpha', null],
      ['global', 'notes', true],
      ['project', 'beta', null],
      ['project', 'notes', false],
    ]);
  });

  it('skills in a shared folder that no agent found here reads are still listed, with who would load them', async () => {
    await rm(join(home, '.codex'), { recursive: true });
    const dir = await addSkill(lib, 'notes');
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['codex'],
      scope: projectScope(),
    });
    expect(report.outcomes.map((o) => o.status)).toEqual(['installed']);
    const shared = join(project, '.agents', 'skills');
    const overview = await manager.overview({ projects: [project] });
    expect(overview.agents.map((a) => a.id)).toEqual(['claude-code']);
    expect(overview.unlisted).toHaveLength(1);
    const [folder] = overview.unlisted;
    expect(folder?.path).toBe(shared);
    expect(folder?.skills).toEqual(['notes']);
    expect(folder?.readers).toContain('codex');
    expect(folder?.readers).not.toContain('claude-code');
    expect(unlistedFolderSentence(folder ?? { path: '', skills: [], readers: [] })).toMatch(
      new RegExp(
        `^${shared} holds 1 skill \\(notes\\) that .+ load, and none of them was found on this computer\\.$`,
      ),
    );
    // Asked for by name, or found on this computer: listed as the agent's own, and no longer apart.
    const named = await manager.overview({ projects: [project], agents: ['codex'] });
    expect(named.agents.map((a) => a.id)).toEqual(['codex']);
    expect(named.unlisted).toEqual([]);
    await mkdir(join(home, '.codex'));
    const found = await manager.overview({ projects: [project] });
    expect(found.agents.map((a) => a.id)).toContain('codex');
    expect(found.unlisted).toEqual([]);
  });

  it('a name conflict asks; rename installs as name-2; replace moves the old copy to the trash', async () => {
    const dir = await addSkill(lib, 'notes');
    const other = join(project, '.claude', 'skills', 'notes');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'SKILL.md'), skillText('notes', 'mine\n'));
    const req = {
      skills: [{ dir, source: { kind: 'library' as const, path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
      mode: 'copy' as const,
    };
    const asked = await manager.install(req);
    expect(asked.outcomes[0]?.status).toBe('conflict');
    expect(asked.outcomes[0]?.message).toMatch(/rename.*replace.*cancel/);
    expect(await readFile(join(other, 'SKILL.md'), 'utf8')).toContain('mine');
    const renamed = await manager.install({ ...req, onConflict: 'rename' });
    expect(renamed.outcomes[0]?.path).toBe(join(project, '.claude', 'skills', 'notes-2'));
    expect(
      await readFile(join(project, '.claude', 'skills', 'notes-2', 'SKILL.md'), 'utf8'),
    ).toContain('name: notes-2');
    const replaced = await manager.install({ ...req, onConflict: 'replace' });
    expect(replaced.outcomes[0]?.status).toBe('installed');
    expect(
      await readFile(join(replaced.outcomes[0]?.trashedTo ?? '', 'SKILL.md'), 'utf8'),
    ).toContain('mine');
  });

  it('a linked install refused for a conflict in the agent folder writes nothing, not even the shared copy', async () => {
    const dir = await addSkill(lib, 'notes');
    const mine = join(project, '.claude', 'skills', 'notes');
    await mkdir(mine, { recursive: true });
    await writeFile(join(mine, 'notes.txt'), 'mine\n');
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
      mode: 'link',
    });
    expect(report.outcomes.map((o) => o.status)).toEqual(['conflict']);
    expect(report.outcomes[0]?.message).toContain('Nothing was changed.');
    // The shared copy would have installed the skill for every agent that reads .agents/skills.
    expect(await readdir(project)).toEqual(['.claude']);
    expect(await readdir(mine)).toEqual(['notes.txt']);
    // Replace, asked for, still writes both.
    const replaced = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
      mode: 'link',
      onConflict: 'replace',
    });
    expect(replaced.outcomes.map((o) => o.status)).toEqual(['installed']);
    expect(await readlink(mine)).toBe(join('..', '..', '.agents', 'skills', 'notes'));
  });

  it('removing a skill from one agent keeps the shared copy that another agent it was installed for reads', async () => {
    const dir = await addSkill(lib, 'notes');
    const shared = join(project, '.agents', 'skills', 'notes');
    await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code', 'cursor'],
      scope: projectScope(),
      mode: 'link',
    });
    const lockFile = join(project, 'skills-lock.json');
    const agentsInLock = async () =>
      parseLock('project', await readFile(lockFile, 'utf8')).skills.notes?.skillbench?.agents;
    expect(await agentsInLock()).toEqual(['claude-code', 'cursor']);
    const first = await manager.uninstall('notes', ['claude-code'], projectScope());
    expect(first.removed.map((r) => r.path)).toEqual([join(project, '.claude', 'skills', 'notes')]);
    expect(first.kept).toEqual([
      `${shared} was kept: it was installed for Cursor too, which reads it from there. Uninstall it for Cursor as well to remove it.`,
    ]);
    expect(await readFile(join(shared, 'SKILL.md'), 'utf8')).toBe(skillText('notes'));
    expect(await agentsInLock()).toEqual(['cursor']);
    // Then from Cursor: the shared copy goes, and the entry with it.
    const second = await manager.uninstall('notes', ['cursor'], projectScope());
    expect(second.removed.map((r) => r.path)).toEqual([shared]);
    expect(parseLock('project', await readFile(lockFile, 'utf8')).skills).toEqual({});
    // The other way round: Claude Code's link still points at the shared copy, which stays.
    await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code', 'cursor'],
      scope: projectScope(),
      mode: 'link',
    });
    const viaCursor = await manager.uninstall('notes', ['cursor'], projectScope());
    expect(viaCursor.removed).toEqual([]);
    expect(viaCursor.kept).toEqual([
      `${shared} was kept: Claude Code still links to it, and the agents that read ${join(project, '.agents', 'skills')} will still load it.`,
    ]);
  });

  it('an entry whose copies were all deleted by hand is reported, and uninstalling it removes the entry', async () => {
    // A name nothing records (a typo) writes no lock file.
    const typo = await manager.uninstall('nots', ['claude-code'], projectScope());
    expect(typo.forgotten).toBeUndefined();
    expect(await readdir(project)).toEqual([]);
    const dir = await addSkill(lib, 'notes');
    await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
      mode: 'copy',
    });
    manager.extraProjects.push(project);
    await rm(join(project, '.claude', 'skills', 'notes'), { recursive: true });
    const lockFile = join(project, 'skills-lock.json');
    const [entry] = await manager.outdated();
    expect(entry).toMatchObject({ name: 'notes', status: 'unknown', copies: [] });
    expect(entry?.message).toBe(
      `${lockFile} records notes, but no agent's folder in the project holds a copy of it now (a link there that points at nothing does not count). Install it again, or uninstall it for the agent it was installed for to remove the entry.`,
    );
    const [outcome] = await manager.update(['notes']);
    expect(outcome?.status).toBe('failed');
    expect(outcome?.message).toBe(`notes was not updated: ${entry?.message}`);
    const removed = await manager.uninstall('notes', ['claude-code'], projectScope());
    expect(removed.forgotten).toBe(lockFile);
    expect(parseLock('project', await readFile(lockFile, 'utf8')).skills).toEqual({});
    expect(await manager.outdated()).toEqual([]);
  });

  it('removal goes to the trash, the shared copy with it, the lock entry too; Undo puts all back', async () => {
    const dir = await addSkill(lib, 'notes');
    await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
      mode: 'link',
    });
    const removed = await manager.uninstall('notes', ['claude-code'], projectScope());
    expect(removed.removed.map((r) => r.path)).toEqual([
      join(project, '.claude', 'skills', 'notes'),
      join(project, '.agents', 'skills', 'notes'),
    ]);
    expect(await readdir(join(project, '.agents', 'skills'))).toEqual([]);
    expect(
      parseLock('project', await readFile(join(project, 'skills-lock.json'), 'utf8')).skills,
    ).toEqual({});
    expect(await readFile(join(dir, 'SKILL.md'), 'utf8')).toBe(skillText('notes'));
    const back = await manager.restore(removed.undoToken ?? '');
    expect(back.refused).toEqual([]);
    expect(await readFile(join(project, '.claude', 'skills', 'notes', 'SKILL.md'), 'utf8')).toBe(
      skillText('notes'),
    );
  });

  it('refuses an agent whose reader would reject the skill, and installs for the others', async () => {
    const dir = join(lib, 'hooked');
    await mkdir(dir);
    await writeFile(
      join(dir, 'SKILL.md'),
      '---\nname: hooked\ndescription: Uses Claude Code hooks. Use when hooks are wanted.\ncontext: fork\nagent: nope\n---\n# Hooked\n',
    );
    const checks = await manager.check([dir], ['claude-code', 'cursor']);
    expect(checks.map((c) => c.agent)).toEqual(['claude-code', 'cursor']);
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code', 'cursor'],
      scope: projectScope(),
      mode: 'copy',
    });
    for (const o of report.outcomes) {
      const check = report.checks.find((c) => c.agent === o.agent);
      expect(o.status).toBe(check?.verdict === 'error' ? 'refused' : 'installed');
    }
  });

  it('a frontmatter Claude Code reads otherwise than written: installed for Claude Code with that said, refused for a reader that rejects it', async () => {
    const dir = join(lib, 'quoted');
    await mkdir(dir);
    // Claude Code 2.1.332 lists such a skill (docs/claude-code-listing.md): no field read.
    await writeFile(
      join(dir, 'SKILL.md'),
      '---\nname: quoted\ndescription: "Never closed. Use when asked.\n---\n# Quoted notes\n',
    );
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code', 'cursor'],
      scope: projectScope(),
      mode: 'copy',
    });
    const code = report.checks.find((c) => c.agent === 'claude-code');
    expect(code).toMatchObject({ verdict: 'warning', notAsWritten: true });
    expect(code?.problems.join(' ')).toMatch(/not valid YAML/);
    expect(report.checks.find((c) => c.agent === 'cursor')?.verdict).toBe('error');
    expect(new Map(report.outcomes.map((o) => [o.agent, o.status]))).toEqual(
      new Map([
        ['claude-code', 'installed'],
        ['cursor', 'refused'],
      ]),
    );
    const overview = await manager.overview({ projects: [project], agents: ['claude-code'] });
    const listed = overview.agents[0]?.folders
      .flatMap((f) => f.skills)
      .find((s) => s.folder === 'quoted');
    expect(listed).toMatchObject({ verdict: 'warning', notAsWritten: true });
  });

  it('a check with warnings names them; one with errors names only the errors', async () => {
    const dir = join(lib, 'drafty');
    await mkdir(dir);
    await writeFile(join(dir, 'SKILL.md'), '---\nname: drafty\ndescription: TODO\n---\n# Drafty\n');
    const [warned] = await manager.check([dir], ['codex']);
    expect(warned?.verdict).toBe('warning');
    expect(warned?.problems.length).toBeGreaterThan(0);
    expect(warned?.problems.join(' ')).toMatch(/description/i);

    await writeFile(join(dir, 'SKILL.md'), '---\nname: Drafty\ndescription: TODO\n---\n# Drafty\n');
    const [refused] = await manager.check([dir], ['cursor']);
    expect(refused?.verdict).toBe('error');
    expect(refused?.problems.join(' ')).toMatch(/capital letters/);
    expect(refused?.problems.join(' ')).not.toMatch(/description/i);
  });

  it("Codex's verdict is what Codex does (run against Codex 0.171.0): capitals loaded, a byte-order mark or a skill.md not", async () => {
    const dir = join(lib, 'codex-reads');
    await mkdir(dir);
    // Codex lists `Upper_Case Name` as written; the Agent Skills spec's readers refuse it.
    await writeFile(
      join(dir, 'SKILL.md'),
      '---\nname: Codex Reads\ndescription: Reads files.\n---\n',
    );
    const [loaded] = await manager.check([dir], ['codex']);
    expect(loaded?.verdict).toBe('warning');
    expect(loaded?.problems[0]).toMatch(
      /^Codex loads it, though agents that follow the Agent Skills spec would refuse it: .*capital letters/,
    );
    const [cursor] = await manager.check([dir], ['cursor']);
    expect(cursor?.verdict).toBe('error');

    // A byte-order mark before `---`: Codex finds no frontmatter and skips the skill.
    await writeFile(
      join(dir, 'SKILL.md'),
      '\uFEFF---\nname: codex-reads\ndescription: Reads files.\n---\n',
    );
    const [bom] = await manager.check([dir], ['codex']);
    expect(bom?.verdict).toBe('error');
    expect(bom?.problems[0]).toBe(
      'Codex skips it: the file starts with an invisible byte-order mark before its first `---`.',
    );

    // No name: Codex names it after its folder, and says so.
    await writeFile(join(dir, 'SKILL.md'), '---\ndescription: Reads files.\n---\n');
    const [unnamed] = await manager.check([dir], ['codex']);
    expect(unnamed).toMatchObject({ verdict: 'warning', notAsWritten: true });
    expect(unnamed?.problems[0]).toBe(
      'Codex loads it, but it names the skill after its folder, “codex-reads”.',
    );

    // A skill.md (not SKILL.md): Codex does not see it.
    await rm(join(dir, 'SKILL.md'));
    await writeFile(
      join(dir, 'skill.md'),
      '---\nname: codex-reads\ndescription: Reads files.\n---\n',
    );
    const [lower] = await manager.check([dir], ['codex']);
    expect(lower?.verdict).toBe('error');
    expect(lower?.problems[0]).toMatch(/only a file named SKILL\.md, in capitals/);

    // A SKILL.md that is a link: Codex does not load it, and Skillbench never reads through it.
    await rm(join(dir, 'skill.md'));
    const elsewhere = join(lib, 'elsewhere.md');
    await writeFile(elsewhere, '---\nname: codex-reads\ndescription: Reads files.\n---\n');
    await symlink(elsewhere, join(dir, 'SKILL.md'));
    const [linked] = await manager.check([dir], ['codex']);
    expect(linked?.verdict).toBe('error');
    expect(linked?.problems[0]).toMatch(/its SKILL\.md is a link/);
  });
});

describe('OpenCode (run against OpenCode 1.18.33): its verdict and the folders it also loads', () => {
  it('any name loaded, no description loaded but never shown, a colon read as a block, a format it cannot read skipped', async () => {
    const dir = join(lib, 'oc-reads');
    await mkdir(dir);
    await writeFile(join(dir, 'SKILL.md'), '---\nname: OC Reads\ndescription: Reads files.\n---\n');
    const [named] = await manager.check([dir], ['opencode']);
    expect(named?.verdict).toBe('warning');
    expect(named?.problems[0]).toMatch(
      /^OpenCode loads it, though agents that follow the Agent Skills spec would refuse it: .*capital letters/,
    );
    await writeFile(join(dir, 'SKILL.md'), '---\nname: oc-reads\n---\n# Reads\n');
    const [quiet] = await manager.check([dir], ['opencode']);
    expect(quiet?.verdict).toBe('warning');
    expect(quiet?.problems[0]).toBe(
      'OpenCode loads it but never shows it to the model: it has no description.',
    );
    await writeFile(
      join(dir, 'SKILL.md'),
      '---\nname: oc-reads\ndescription: Use when: files are read.\n---\n',
    );
    const [colon] = await manager.check([dir], ['opencode']);
    expect(colon).toMatchObject({ verdict: 'warning', notAsWritten: true });
    expect(colon?.problems[0]).toMatch(/^OpenCode loads it, but its frontmatter is not YAML/);
    await writeFile(join(dir, 'SKILL.md'), '---toml\nname: oc-reads\ndescription: Reads.\n---\n');
    const [toml] = await manager.check([dir], ['opencode']);
    expect(toml?.verdict).toBe('error');
    expect(toml?.problems[0]).toMatch(
      /^OpenCode skips it: it has no frontmatter \(its first line `---toml` names a format it cannot read\)/,
    );
  });

  it("lists Claude Code's and the shared folders OpenCode also loads, grouped folders too; a linked install's two paths are one skill", async () => {
    await mkdir(join(home, '.config', 'opencode'), { recursive: true });
    const dir = await addSkill(lib, 'notes');
    await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['opencode'],
      scope: { kind: 'global' },
      mode: 'link',
    });
    await addSkill(join(home, '.claude', 'skills'), 'drafts');
    await addSkill(join(project, '.claude', 'skills', 'group'), 'minutes');
    const overview = await manager.overview({ projects: [project], agents: ['opencode'] });
    const folders = (overview.agents[0]?.folders ?? []).map((f) => [
      f.path,
      f.alsoRead === true,
      f.skills.map((k) => k.name),
    ]);
    expect(folders).toEqual([
      [join(home, '.config', 'opencode', 'skills'), false, ['notes']],
      [join(home, '.agents', 'skills'), true, ['notes']],
      [join(home, '.claude', 'skills'), true, ['drafts']],
      [join(project, '.agents', 'skills'), false, []],
      [join(project, '.claude', 'skills'), true, ['minutes']],
    ]);
    const notes = (overview.agents[0]?.folders ?? [])
      .flatMap((f) => f.skills)
      .filter((k) => k.name === 'notes');
    expect(notes.map((k) => k.collision)).toEqual([undefined, undefined]);
  });
});

describe("Gemini CLI's verdict is what Gemini CLI does (run against Gemini CLI 0.61.0)", () => {
  it('any name loaded, a space after `---` skipped, a colon read line by line, a linked SKILL.md not read', async () => {
    const dir = join(lib, 'gemini-reads');
    await mkdir(dir);
    // Gemini CLI lists `Gemini Reads` as written; the Agent Skills spec's readers refuse it.
    await writeFile(
      join(dir, 'SKILL.md'),
      '---\nname: Gemini Reads\ndescription: Reads files.\n---\n',
    );
    const [loaded] = await manager.check([dir], ['gemini-cli']);
    expect(loaded?.verdict).toBe('warning');
    expect(loaded?.problems[0]).toMatch(
      /^Gemini CLI loads it, though agents that follow the Agent Skills spec would refuse it: .*capital letters/,
    );

    // A space after the opening `---`: the spec's readers take it, Gemini CLI finds no frontmatter.
    await writeFile(
      join(dir, 'SKILL.md'),
      '--- \nname: gemini-reads\ndescription: Reads files.\n---\n',
    );
    const [spaced] = await manager.check([dir], ['gemini-cli']);
    expect(spaced?.verdict).toBe('error');
    expect(spaced?.problems[0]).toBe('Gemini CLI skips it: its first line is not exactly `---`.');

    // A colon in the description: not YAML, so Gemini CLI reads the lines as written.
    await writeFile(
      join(dir, 'SKILL.md'),
      '---\nname: gemini-reads\ndescription: Use when: files are read.\n---\n',
    );
    const [colon] = await manager.check([dir], ['gemini-cli']);
    expect(colon).toMatchObject({ verdict: 'warning', notAsWritten: true });
    expect(colon?.problems[0]).toMatch(/^Gemini CLI loads it, but its frontmatter is not YAML/);

    // A SKILL.md that is a link: Gemini CLI follows it; Skillbench never reads through it.
    await rm(join(dir, 'SKILL.md'));
    const elsewhere = join(lib, 'elsewhere.md');
    await writeFile(elsewhere, '---\nname: gemini-reads\ndescription: Reads files.\n---\n');
    await symlink(elsewhere, join(dir, 'SKILL.md'));
    const [linked] = await manager.check([dir], ['gemini-cli']);
    expect(linked?.verdict).toBe('error');
    expect(linked?.problems[0]).toMatch(/its SKILL\.md is a link/);
  });
});

describe('bad input: a clear message, nothing lost or half-written', () => {
  it('a SKILL.md over 16 MiB in an agent folder is listed as too large, never read whole', async () => {
    const dir = await addSkill(join(home, '.claude', 'skills'), 'huge');
    // Why sparse: 1 GiB that takes no disk; read whole, listing took seconds and a gigabyte.
    await truncate(join(dir, 'SKILL.md'), 1024 ** 3);
    const overview = await manager.overview({ agents: ['claude-code'] });
    const skill = overview.agents[0]?.folders[0]?.skills.find((s) => s.folder === 'huge');
    expect(skill?.verdict).toBe('error');
    expect(skill?.problems).toEqual([
      `${join(dir, 'SKILL.md')} is too large (1.1 GB); Skillbench reads files of up to 16.8 MB, so it did not read it.`,
    ]);
  });

  it('a broken link and a link leading outside are listed with the reason, never followed', async () => {
    const folder = join(project, '.claude', 'skills');
    await mkdir(folder, { recursive: true });
    await symlink('../../nowhere', join(folder, 'gone'));
    const outside = await addSkill(join(tmp, 'elsewhere'), 'outside');
    await symlink(outside, join(folder, 'outside'));
    const overview = await manager.overview({ projects: [project], agents: ['claude-code'] });
    const skills =
      overview.agents[0]?.folders.find((f) => f.scope.kind === 'project')?.skills ?? [];
    expect(skills.map((s) => [s.folder, s.state])).toEqual([
      ['gone', 'broken-link'],
      ['outside', 'refused-link'],
    ]);
    expect(skills[1]?.note).toMatch(/outside the skills folders/);
  });

  it('an agent folder that is itself a link is reported and not written into', async () => {
    await mkdir(join(tmp, 'real-skills'));
    await symlink(join(tmp, 'real-skills'), join(home, '.claude', 'skills'));
    const dir = await addSkill(lib, 'notes');
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code'],
      scope: { kind: 'global' },
    });
    expect(report.outcomes[0]?.status).toBe('refused');
    expect(report.outcomes[0]?.message).toMatch(/itself a link/);
    expect(await readdir(join(tmp, 'real-skills'))).toEqual([]);
    const overview = await manager.overview({ agents: ['claude-code'] });
    expect(overview.agents[0]?.folders[0]?.problem).toMatch(/itself a link/);
  });

  it('a link on the way in a project (.claude or .agents pointing outside): install refused, nothing written there, the view names the link', async () => {
    const outside = join(tmp, 'outside');
    await mkdir(outside);
    // What a cloned repository can hold: a relative link, as git checks it out.
    await symlink('../outside', join(project, '.claude'));
    const dir = await addSkill(lib, 'notes');
    const req = {
      skills: [{ dir, source: { kind: 'library' as const, path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
    };
    for (const mode of ['copy', 'link'] as const) {
      const report = await manager.install({ ...req, mode });
      expect(report.outcomes[0]?.status).toBe('refused');
      expect(report.outcomes[0]?.message).toBe(
        `${join(project, '.claude')} is a link (to ../outside), and a link in a project can lead anywhere on this computer, so Skillbench does not write through it. Nothing was installed for Claude Code.`,
      );
    }
    expect(await readdir(outside)).toEqual([]);
    const overview = await manager.overview({ agents: ['claude-code'], projects: [project] });
    const folder = overview.agents[0]?.folders.find((f) => f.scope.kind === 'project');
    expect(folder?.problem).toMatch(
      /\.claude is a link \(to \.\.\/outside\)\. Skillbench does not follow links in a project/,
    );
    expect(folder?.skills).toEqual([]);
    // The shared copy's folder: a linked install writes there first.
    await rm(join(project, '.claude'));
    await symlink('../outside', join(project, '.agents'));
    const linked = await manager.install({ ...req, mode: 'link' });
    expect(linked.outcomes[0]?.status).toBe('refused');
    expect(linked.outcomes[0]?.message).toMatch(/\.agents is a link \(to \.\.\/outside\)/);
    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(project)).toEqual(['.agents']);
    // The home folder's agent folders are the user's own: a linked ~/.claude (dotfiles) is used.
    await rm(join(home, '.claude'), { recursive: true });
    await mkdir(join(tmp, 'dotfiles', 'claude'), { recursive: true });
    await symlink(join(tmp, 'dotfiles', 'claude'), join(home, '.claude'));
    const global = await manager.install({ ...req, scope: { kind: 'global' }, mode: 'copy' });
    expect(global.outcomes[0]?.status).toBe('installed');
    expect(await readdir(join(tmp, 'dotfiles', 'claude', 'skills'))).toEqual(['notes']);
  });

  it('a project folder that became a link after the install: removal, update and undo do not act through it', async () => {
    const dir = await addSkill(lib, 'notes');
    const req = {
      skills: [{ dir, source: { kind: 'library' as const, path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
      mode: 'copy' as const,
    };
    expect((await manager.install(req)).outcomes[0]?.status).toBe('installed');
    manager.extraProjects.push(project);
    const moveAside = async () => {
      await rm(join(tmp, 'elsewhere'), { recursive: true, force: true });
      await rename(join(project, '.claude'), join(tmp, 'elsewhere'));
      await symlink('../elsewhere', join(project, '.claude'));
    };
    await moveAside();
    const elsewhereSkill = join(tmp, 'elsewhere', 'skills', 'notes', 'SKILL.md');
    const removed = await manager.uninstall('notes', ['claude-code'], projectScope());
    expect(removed.removed).toEqual([]);
    expect(removed.kept).toEqual([
      `${join(project, '.claude', 'skills', 'notes')} was left as it was: ${join(project, '.claude')} is a link (to ../elsewhere), and Skillbench does not remove anything through a link in a project.`,
    ]);
    expect(await readFile(elsewhereSkill, 'utf8')).toBe(skillText('notes'));
    await writeFile(join(dir, 'SKILL.md'), skillText('notes', '# Notes\n\nNew step.\n'));
    const [updated] = await manager.update(undefined, 'take-theirs');
    expect(updated?.status).toBe('failed');
    expect(updated?.message).toMatch(
      /\.claude is a link \(to \.\.\/elsewhere\), and Skillbench does not write through a link in a project\. Nothing was changed\.$/,
    );
    expect(await readFile(elsewhereSkill, 'utf8')).toBe(skillText('notes'));
    // Undo: removed from a real folder, then the folder is swapped for a link before Undo.
    await rm(join(project, '.claude'));
    await rename(join(tmp, 'elsewhere'), join(project, '.claude'));
    const again = await manager.uninstall('notes', ['claude-code'], projectScope());
    expect(again.removed).toHaveLength(1);
    await moveAside();
    const back = await manager.restore(again.undoToken ?? '');
    expect(back.restored).toEqual([]);
    expect(back.refused[0]).toMatch(
      /was not put back: .*\.claude is a link \(to \.\.\/elsewhere\) now/,
    );
    expect(await readdir(join(tmp, 'elsewhere', 'skills'))).toEqual([]);
  });

  it("a project's lock naming a skill by a path (../../../outside/victim) is never acted on: update and removal leave that folder as it was", async () => {
    const victim = join(tmp, 'outside', 'victim');
    await mkdir(victim, { recursive: true });
    await writeFile(join(victim, 'SKILL.md'), 'mine, outside the project\n');
    const payload = await addSkill(project, 'victim');
    await mkdir(join(project, '.claude', 'skills'), { recursive: true });
    const key = '../../../outside/victim';
    await writeProjectLock({ [key]: { source: payload, sourceType: 'local', computedHash: 'x' } });
    manager.extraProjects.push(project);
    const [entry] = await manager.outdated();
    expect(entry?.status).toBe('unknown');
    expect(entry?.copies).toEqual([]);
    expect(entry?.message).toBe(
      `${join(project, 'skills-lock.json')} names a skill "${key}", which is not the name of one folder (with "/", "\\", "." or ".." it would point somewhere else). Skillbench does not act on that entry.`,
    );
    const [updated] = await manager.update(undefined, 'take-theirs');
    expect(updated?.status).toBe('failed');
    const removed = await manager.uninstall(key, ['claude-code'], projectScope());
    expect(removed.removed).toEqual([]);
    expect(removed.kept).toEqual([
      `"${key}" is not the name of one folder (with "/", "\\", "." or ".." it would point somewhere else), so nothing was removed.`,
    ]);
    expect(await readFile(join(victim, 'SKILL.md'), 'utf8')).toBe('mine, outside the project\n');
    expect(await readdir(join(tmp, 'outside'))).toEqual(['victim']);
  });

  it("a project's lock naming its merge base by a path (../../../fake-base) is not used as a base", async () => {
    const fakeBase = join(tmp, 'fake-base');
    await mkdir(fakeBase);
    await writeFile(join(fakeBase, 'SKILL.md'), 'anything on this computer\n');
    const dir = await addSkill(lib, 'notes');
    await addSkill(join(project, '.claude', 'skills'), 'notes', '# Body\n\nMy own step.\n');
    await writeFile(join(dir, 'SKILL.md'), skillText('notes', '# Body\n\nTheir step.\n'));
    const hash = '../../../fake-base';
    await writeProjectLock({
      notes: {
        source: dir,
        sourceType: 'local',
        computedHash: hash,
        skillbench: { source: { kind: 'folder', path: dir }, mode: 'copy', installedHash: hash },
      },
    });
    manager.extraProjects.push(project);
    const [entry] = await manager.outdated();
    expect(entry?.status).toBe('outdated');
    expect(entry?.canMerge).toBe(false);
    const [merged] = await manager.update(undefined, 'merge');
    expect(merged?.status).toBe('failed');
    expect(merged?.message).toMatch(/the version that was installed is not known to Skillbench/);
    expect(
      await readFile(join(project, '.claude', 'skills', 'notes', 'SKILL.md'), 'utf8'),
    ).toContain('My own step');
  });

  it('an agent nobody knows is refused with the likely one named', async () => {
    const dir = await addSkill(lib, 'notes');
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['codx'],
      scope: { kind: 'project', dir: project },
    });
    expect(report.outcomes.map((o) => [o.agent, o.status, o.message])).toEqual([
      [
        'codx',
        'refused',
        'There is no agent "codx". Did you mean codex? Run skillbench agents --all for the list.',
      ],
    ]);
  });

  it('a project folder that does not exist (a typo) is refused, never made', async () => {
    const dir = await addSkill(lib, 'notes');
    const typo = join(tmp, 'projcet');
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code', 'codex'],
      scope: { kind: 'project', dir: typo },
    });
    expect(report.outcomes.map((o) => [o.agent, o.status])).toEqual([
      ['claude-code', 'refused'],
      ['codex', 'refused'],
    ]);
    expect(report.outcomes[0]?.message).toBe(
      `There is no project folder at ${typo}. Check the spelling. Nothing was installed.`,
    );
    expect(await readdir(tmp)).not.toContain('projcet');
  });

  it('adding a project: a folder behind a link is one; a typo and a file are refused in words', async () => {
    const linked = join(tmp, 'code');
    await symlink(project, linked);
    expect(await manager.addProject(linked)).toEqual([linked]);
    await expect(manager.addProject(join(tmp, 'projcet'))).rejects.toThrow(
      `There is no project folder at ${join(tmp, 'projcet')}. Check the spelling.`,
    );
    await writeFile(join(tmp, 'notes.txt'), 'x');
    await expect(manager.addProject(join(tmp, 'notes.txt'))).rejects.toThrow(
      `${join(tmp, 'notes.txt')} is a file, not a folder. Choose the project's folder.`,
    );
  });

  it('a folder that cannot be written: failed, with why, and nothing left behind', async () => {
    if (process.getuid?.() === 0) {
      // Why: root writes anywhere; a read-only file system stands in for the permission.
      const dir = await addSkill(lib, 'notes');
      await writeFile(join(project, '.claude'), 'a file, not a folder');
      const report = await manager.install({
        skills: [{ dir, source: { kind: 'library', path: dir } }],
        agents: ['claude-code'],
        scope: projectScope(),
        mode: 'copy',
      });
      expect(report.outcomes[0]?.status).toBe('failed');
      expect(report.outcomes[0]?.message).toMatch(/was not installed for Claude Code/);
      expect(await readFile(join(project, '.claude'), 'utf8')).toBe('a file, not a folder');
      return;
    }
    const folder = join(project, '.claude', 'skills');
    await mkdir(folder, { recursive: true });
    await chmod(folder, 0o555);
    const dir = await addSkill(lib, 'notes');
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
      mode: 'copy',
    });
    expect(report.outcomes[0]?.status).toBe('failed');
    expect(report.outcomes[0]?.message).toMatch(/cannot be written/);
    expect(await readdir(folder)).toEqual([]);
  });

  it('a malformed lock file and one from a newer version are read as far as possible and never rewritten', async () => {
    const dir = await addSkill(lib, 'notes');
    const lockFile = join(project, 'skills-lock.json');
    for (const text of [
      '{ not json',
      '{"version": 9, "skills": {"x": {"source": "a/b", "sourceType": "github", "computedHash": "1"}}}',
    ]) {
      await writeFile(lockFile, text);
      const report = await manager.install({
        skills: [{ dir, source: { kind: 'library', path: dir } }],
        agents: ['claude-code'],
        scope: projectScope(),
        mode: 'copy',
        onConflict: 'replace',
      });
      expect(['installed', 'already']).toContain(report.outcomes[0]?.status);
      expect(report.lockNotes[0]).toMatch(/left as it was/);
      expect(await readFile(lockFile, 'utf8')).toBe(text);
      const overview = await manager.overview({ projects: [project], agents: ['claude-code'] });
      expect(overview.lockProblems[0]?.message).toMatch(/will not rewrite it/);
    }
    expect(
      parseLock('project', '{"version": 9, "skills": {"x": {"source": "a/b"}}}').skills.x?.source,
    ).toBe('a/b');
  });

  it("a project's lock file that is a link to /dev/zero, a pipe or 1 GiB is refused unread, and left as it was", async () => {
    const lockFile = join(project, 'skills-lock.json');
    // Why a skill there: the lock is read when a folder it would describe has skills.
    await addSkill(join(project, '.claude', 'skills'), 'notes');
    const cases: [string, () => Promise<void>, RegExp][] = [
      ['/dev/zero', () => symlink('/dev/zero', lockFile), /it is not a regular file/],
      ['a pipe', async () => void execFileSync('mkfifo', [lockFile]), /it is not a regular file/],
      [
        '1 GiB',
        async () => {
          await writeFile(lockFile, '{"version": 1, "skills": {}}');
          await truncate(lockFile, 1024 ** 3);
        },
        /it is too large \(1\.1 GB; Skillbench reads lock files of up to 16\.8 MB\)/,
      ],
    ];
    for (const [, make, why] of cases) {
      await rm(lockFile, { force: true });
      await make();
      const overview = await manager.overview({ projects: [project], agents: ['claude-code'] });
      expect(overview.lockProblems[0]?.message).toMatch(why);
      expect(overview.lockProblems[0]?.message).toMatch(/will not rewrite it/);
    }
    expect((await lstat(lockFile)).size).toBe(1024 ** 3);
  });

  it('a lock file kept elsewhere and linked (dotfiles) is still read through its link', async () => {
    const kept = join(tmp, 'dotfiles', 'skills-lock.json');
    await mkdir(join(tmp, 'dotfiles'));
    await writeFile(
      kept,
      '{"version": 1, "skills": {"notes": {"source": "a/b", "sourceType": "github", "computedHash": "1"}}}',
    );
    await symlink(kept, join(project, 'skills-lock.json'));
    await addSkill(join(project, '.claude', 'skills'), 'notes');
    const overview = await manager.overview({ projects: [project], agents: ['claude-code'] });
    expect(overview.lockProblems).toEqual([]);
    const notes = overview.agents[0]?.folders
      .flatMap((f) => f.skills)
      .find((s) => s.folder === 'notes');
    expect(notes?.recordedBy).toBe('skills-cli');
  });

  it('the global lock kept with dotfiles as a link is written through its link, as the skills CLI does; a project lock link is not', async () => {
    const kept = join(tmp, 'dotfiles', 'skill-lock.json');
    await mkdir(join(tmp, 'dotfiles'));
    await writeFile(kept, '{"version": 3, "skills": {}}');
    await mkdir(join(home, '.agents'), { recursive: true });
    const globalLock = join(home, '.agents', '.skill-lock.json');
    await symlink(kept, globalLock);
    const dir = await addSkill(lib, 'notes');
    const req = {
      skills: [{ dir, source: { kind: 'library' as const, path: dir } }],
      agents: ['claude-code'],
      mode: 'copy' as const,
    };
    const report = await manager.install({ ...req, scope: { kind: 'global' } });
    expect(report.outcomes[0]?.status).toBe('installed');
    expect(report.lockNotes).toEqual([]);
    expect((await lstat(globalLock)).isSymbolicLink()).toBe(true);
    expect(Object.keys(parseLock('global', await readFile(kept, 'utf8')).skills)).toEqual([
      'notes',
    ]);
    // A project's lock that is a link (it came with the project) is never written through.
    const other = join(tmp, 'other-lock.json');
    await writeFile(other, '{"version": 1, "skills": {}}\n');
    await symlink(other, join(project, 'skills-lock.json'));
    await manager.install({ ...req, scope: projectScope() });
    expect(await readFile(other, 'utf8')).toBe('{"version": 1, "skills": {}}\n');
    expect((await lstat(join(project, 'skills-lock.json'))).isFile()).toBe(true);
  });

  it('two skills with one name in one agent: both listed, the one loaded named', async () => {
    await addSkill(join(home, '.claude', 'skills'), 'notes');
    await addSkill(join(project, '.claude', 'skills'), 'notes');
    const overview = await manager.overview({ projects: [project], agents: ['claude-code'] });
    const all = overview.agents[0]?.folders.flatMap((f) => f.skills) ?? [];
    expect(all).toHaveLength(2);
    const loaded = all.filter((s) => s.collision?.loaded);
    expect(loaded).toHaveLength(1);
    expect(loaded[0]?.scope.kind).toBe('global');
    expect(all.find((s) => !s.collision?.loaded)?.collision?.rule).toMatch(/personal skill/);
  });

  it('a skill folder that disappears before the install: failed, nothing written', async () => {
    const dir = await addSkill(lib, 'notes');
    await rm(dir, { recursive: true });
    const report = await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
    });
    expect(report.outcomes[0]?.status).toBe('failed');
    expect(report.outcomes[0]?.message).toMatch(/could not be read, so nothing was installed/);
    await expect(lstat(join(project, '.claude'))).rejects.toThrow();
    await expect(lstat(join(project, 'skills-lock.json'))).rejects.toThrow();
  });
});

describe('updates never lose an edit', () => {
  async function installed(mode: 'link' | 'copy') {
    const dir = await addSkill(lib, 'notes', '# Notes\n\nStep one.\nStep two.\nStep three.\n');
    await manager.install({
      skills: [{ dir, source: { kind: 'library', path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
      mode,
    });
    manager.extraProjects.push(project);
    const copy =
      mode === 'link'
        ? join(project, '.agents', 'skills', 'notes')
        : join(project, '.claude', 'skills', 'notes');
    return { dir, copy };
  }

  it('an unedited copy is updated from its source (link and copy)', async () => {
    for (const mode of ['link', 'copy'] as const) {
      const { dir, copy } = await installed(mode);
      expect((await manager.outdated())[0]?.status).toBe('up-to-date');
      await writeFile(join(dir, 'SKILL.md'), skillText('notes', '# Notes\n\nNew step.\n'));
      const [entry] = await manager.outdated();
      expect(entry?.status).toBe('outdated');
      expect(entry?.diff?.some((d) => d.kind === 'added' && d.text.includes('New step'))).toBe(
        true,
      );
      const [outcome] = await manager.update(undefined);
      expect(outcome?.status).toBe('updated');
      expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toContain('New step');
      expect((await manager.outdated())[0]?.status).toBe('up-to-date');
      await rm(join(project), { recursive: true });
      await mkdir(project);
      await rm(dir, { recursive: true });
    }
  });

  it('a large file someone put in an installed copy is counted as changed without being read into memory', async () => {
    const { dir, copy } = await installed('copy');
    await writeFile(join(dir, 'data.bin'), 'small');
    await writeFile(join(copy, 'data.bin'), '');
    await truncate(join(copy, 'data.bin'), 600 * 1024 * 1024); // sparse: no disk used
    const before = process.resourceUsage().maxRSS;
    const [entry] = await manager.outdated();
    expect(entry?.status).toBe('outdated');
    expect(entry?.fileChanges).toEqual([{ path: 'data.bin', change: 'changed' }]);
    expect(entry?.diff?.every((d) => d.kind === 'same')).toBe(true);
    // A merge needs the file's text: refused with the bound, nothing written, still unread.
    const [merged] = await manager.update(undefined, 'merge');
    expect(merged?.status).toBe('failed');
    expect(merged?.message).toMatch(
      /data\.bin is 629 MB; Skillbench reads files of up to 16\.8 MB\..*left as they were/,
    );
    expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toBe(
      skillText('notes', '# Notes\n\nStep one.\nStep two.\nStep three.\n'),
    );
    // Read whole, the file alone would have added 600 MiB.
    const grewMiB = (process.resourceUsage().maxRSS - before) / 1024;
    expect(grewMiB).toBeLessThan(300);
  });

  it('an edited copy is left as it is without a choice; keep-local writes nothing; take-theirs trashes the edit', async () => {
    const { dir, copy } = await installed('copy');
    await writeFile(join(copy, 'SKILL.md'), skillText('notes', '# Notes\n\nMy own step.\n'));
    await writeFile(join(dir, 'SKILL.md'), skillText('notes', '# Notes\n\nTheir step.\n'));
    const [asked] = await manager.update(undefined);
    expect(asked?.status).toBe('needs-choice');
    expect(asked?.message).toMatch(/keep-local.*take-theirs/);
    expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toContain('My own step');
    const [kept] = await manager.update(undefined, 'keep-local');
    expect(kept?.status).toBe('kept');
    expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toContain('My own step');
    // Kept over this version: taking theirs for every skill leaves it; naming it takes theirs.
    expect((await manager.update(undefined, 'take-theirs'))[0]?.status).toBe('up-to-date');
    expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toContain('My own step');
    const [taken] = await manager.update(['notes'], 'take-theirs');
    expect(taken?.status).toBe('updated');
    expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toContain('Their step');
    expect(await readFile(join(taken?.trashedTo?.[0] ?? '', 'SKILL.md'), 'utf8')).toContain(
      'My own step',
    );
  });

  it('merge: edits to different lines are merged; the same lines are conflicts, written only once settled', async () => {
    const { dir, copy } = await installed('copy');
    await writeFile(
      join(copy, 'SKILL.md'),
      skillText('notes', '# Notes\n\nStep one, mine.\nStep two.\nStep three.\n'),
    );
    await writeFile(
      join(dir, 'SKILL.md'),
      skillText('notes', '# Notes\n\nStep one.\nStep two.\nStep three, theirs.\n'),
    );
    const [merged] = await manager.update(undefined, 'merge');
    expect(merged?.status).toBe('updated');
    const text = await readFile(join(copy, 'SKILL.md'), 'utf8');
    expect(text).toContain('Step one, mine.');
    expect(text).toContain('Step three, theirs.');
    await writeFile(
      join(copy, 'SKILL.md'),
      skillText('notes', '# Notes\n\nStep one, mine.\nStep two, mine.\nStep three, theirs.\n'),
    );
    await writeFile(
      join(dir, 'SKILL.md'),
      skillText('notes', '# Notes\n\nStep one, mine.\nStep two, theirs.\nStep three, theirs.\n'),
    );
    const [conflicted] = await manager.update(undefined, 'merge');
    expect(conflicted?.status).toBe('conflicts');
    expect(conflicted?.conflicts?.map((c) => [c.path, c.kind])).toEqual([['SKILL.md', 'text']]);
    expect(conflicted?.conflicts?.[0]?.merged).toContain(
      '<<<<<<< mine\nStep two, mine.\n=======\nStep two, theirs.\n>>>>>>> theirs\n',
    );
    expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toContain('Step two, mine.');
    const settled = skillText(
      'notes',
      '# Notes\n\nStep one, mine.\nStep two, both.\nStep three, theirs.\n',
    );
    const [applied] = await manager.update(undefined, 'merge', {
      name: 'notes',
      files: [{ path: 'SKILL.md', text: settled }],
    });
    expect(applied?.status).toBe('updated');
    expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toBe(settled);
  });

  it('a source that is gone: the update fails, says why, and leaves the copy as it was', async () => {
    const { dir, copy } = await installed('copy');
    await rm(dir, { recursive: true });
    const [outcome] = await manager.update(undefined);
    expect(outcome?.status).toBe('failed');
    expect(outcome?.message).toMatch(/no longer exists.*left as it was/);
    expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toContain('Step one');
  });
});

describe('side by side with the skills CLI: local sources in a project lock', () => {
  it('a relative source (./my-skills/notes, as the skills CLI writes it) is found from the project, and Skillbench writes its own the same way', async () => {
    const source = await addSkill(join(project, 'my-skills'), 'notes');
    const copy = await addSkill(join(project, '.claude', 'skills'), 'notes');
    await writeProjectLock({
      notes: {
        source: './my-skills/notes',
        sourceType: 'local',
        computedHash: await hashFolder(copy),
      },
    });
    manager.extraProjects.push(project);
    // The process runs elsewhere: the path is the project's, not the working folder's.
    expect(process.cwd()).not.toBe(project);
    const [same] = await manager.outdated();
    expect(same?.status).toBe('up-to-date');
    await writeFile(join(source, 'SKILL.md'), skillText('notes', '# Notes\n\nNew step.\n'));
    const [changed] = await manager.outdated();
    expect(changed?.status).toBe('outdated');
    expect((await manager.update(['notes']))[0]?.status).toBe('updated');
    expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toContain('New step');
    // Installs Skillbench records: relative to the project too, so the lock travels with it.
    const other = await addSkill(lib, 'other');
    await manager.install({
      skills: [{ dir: other, source: { kind: 'library', path: other } }],
      agents: ['claude-code'],
      scope: projectScope(),
      mode: 'copy',
    });
    const lock = parseLock('project', await readFile(join(project, 'skills-lock.json'), 'utf8'));
    expect(lock.skills.other?.source).toBe('../lib/other');
    expect(lock.skills.notes?.source).toBe('./my-skills/notes');
  });
});

describe('one source, read and named', () => {
  it('a lock whose two records of a local source disagree: the folder updates are read from is the one every message names', async () => {
    const dir = await addSkill(lib, 'notes');
    await manager.install({
      skills: [{ dir, source: { kind: 'folder', path: dir } }],
      agents: ['claude-code'],
      scope: projectScope(),
      mode: 'copy',
    });
    manager.extraProjects.push(project);
    // A cloned project's lock: Skillbench's own record says /etc, the portable `source` says ../lib/notes.
    const lockFile = join(project, 'skills-lock.json');
    const data = JSON.parse(await readFile(lockFile, 'utf8'));
    expect(data.skills.notes.source).toBe('../lib/notes');
    data.skills.notes.skillbench.source.path = '/etc';
    await writeFile(lockFile, JSON.stringify(data));
    await writeFile(join(dir, 'SKILL.md'), skillText('notes', 'New.\n'));
    const [entry] = await manager.outdated();
    expect(entry?.source).toBe(`the folder ${dir}`);
    const view = await manager.overview({ projects: [project] });
    const listed = view.agents
      .flatMap((a) => a.folders.flatMap((f) => f.skills))
      .find((k) => k.folder === 'notes');
    expect(listed?.source).toBe(`the folder ${dir}`);
    const [outcome] = await manager.update(['notes']);
    expect(outcome?.message).toMatch(new RegExp(`^notes was updated from the folder ${dir}\\.`));
    expect(
      await readFile(join(project, '.claude', 'skills', 'notes', 'SKILL.md'), 'utf8'),
    ).toContain('New.');
  });
});

describe('side by side with the skills CLI: a source that holds the installed copy too', () => {
  it('`skills add .` in the project: the copy in .claude/skills is never taken for its own source', async () => {
    const source = await addSkill(project, 'notes');
    const copy = await addSkill(join(project, '.claude', 'skills'), 'notes');
    await writeProjectLock({
      notes: { source: '.', sourceType: 'local', computedHash: await hashFolder(copy) },
    });
    manager.extraProjects.push(project);
    expect((await manager.outdated())[0]?.status).toBe('up-to-date');
    await writeFile(join(source, 'SKILL.md'), skillText('notes', '# Notes\n\nNew step.\n'));
    const [changed] = await manager.outdated();
    expect(changed?.status).toBe('outdated');
    expect((await manager.update(['notes']))[0]?.status).toBe('updated');
    expect(await readFile(join(copy, 'SKILL.md'), 'utf8')).toContain('New step');
  });
});

describe('git sources', () => {
  it('installs from a local repository pinned to its commit, and sees a new commit as an update', async () => {
    const repo = join(tmp, 'repo');
    await addSkill(join(repo, 'skills'), 'alpha');
    await addSkill(join(repo, 'skills'), 'beta');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'first');
    const { cloneAt, skillsInClone } = await import('./git-source');
    const clone = await cloneAt(repo);
    const found = await skillsInClone(clone);
    expect(found.map((f) => f.relDir)).toEqual(['skills/alpha', 'skills/beta']);
    const alpha = found[0];
    await manager.install({
      skills: [
        {
          dir: alpha?.dir ?? '',
          source: { kind: 'git', url: repo, commit: clone.commit, skillPath: 'skills/alpha' },
        },
      ],
      agents: ['claude-code'],
      scope: projectScope(),
      mode: 'copy',
    });
    await clone.cleanup();
    const lock = parseLock('project', await readFile(join(project, 'skills-lock.json'), 'utf8'));
    expect(lock.skills.alpha?.sourceType).toBe('git');
    expect(lock.skills.alpha?.skillbench?.source).toMatchObject({
      kind: 'git',
      commit: clone.commit,
    });
    manager.extraProjects.push(project);
    expect((await manager.outdated())[0]?.status).toBe('up-to-date');
    await writeFile(join(repo, 'skills', 'alpha', 'SKILL.md'), skillText('alpha', 'New.\n'));
    git('commit', '-qam', 'second');
    expect((await manager.outdated())[0]?.status).toBe('outdated');
    const newest = git('rev-parse', 'HEAD').trim();
    const [updated] = await manager.update(['alpha']);
    expect(updated?.status).toBe('updated');
    // The message names the commit installed now, as the lock records it.
    expect(updated?.message).toContain(`${repo} at commit ${newest.slice(0, 12)}.`);
    expect(
      parseLock('project', await readFile(join(project, 'skills-lock.json'), 'utf8')).skills.alpha
        ?.skillbench?.source,
    ).toMatchObject({ kind: 'git', commit: newest });
    expect(
      await readFile(join(project, '.claude', 'skills', 'alpha', 'SKILL.md'), 'utf8'),
    ).toContain('New.');
    // A skill path that leaves the repository (the lock comes with the project) is not read.
    const lockFile = join(project, 'skills-lock.json');
    const data = JSON.parse(await readFile(lockFile, 'utf8'));
    data.skills.alpha.skillbench.source.skillPath = '../../../lib/alpha';
    await writeFile(lockFile, JSON.stringify(data));
    const [outside] = await manager.outdated();
    expect(outside?.status).toBe('source-missing');
    expect(outside?.message).toBe(
      `The lock file gives the skill's place in ${repo} as "../../../lib/alpha", which is not a path inside the repository.`,
    );
  });
});

describe('mergeThreeWay', () => {
  it('takes one-sided changes, the same change once, and marks different changes', () => {
    expect(mergeThreeWay('a\nb\nc\n', 'A\nb\nc\n', 'a\nb\nC\n').text).toBe('A\nb\nC\n');
    expect(mergeThreeWay('a\nb\n', 'a\nx\n', 'a\nx\n')).toMatchObject({
      conflicts: 0,
      text: 'a\nx\n',
    });
    const m = mergeThreeWay('a\nb\nc\n', 'a\nmine\nc\n', 'a\ntheirs\nc\n');
    expect(m.conflicts).toBe(1);
    expect(m.text).toBe('a\n<<<<<<< mine\nmine\n=======\ntheirs\n>>>>>>> theirs\nc\n');
  });
});
