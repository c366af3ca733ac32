import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmod,
  cp,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { splitFrontmatter, type TargetId } from '../../shared/projection';
import { exportSkill, planSkillExport } from './export';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-export-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const SKILL_MD = [
  '\uFEFF---',
  'name: demo-skill',
  'description: Turns meeting notes into action items. Use when the user pastes notes.',
  'when_to_use: after meetings',
  'hooks:',
  '  PreToolUse: echo hi',
  'x-personal-mcp:',
  '  id: demo-skill',
  '  version: 1.2.0',
  '  tags: [meetings, notes]',
  '---',
  '# Demo',
  '',
  'Read references/guide.md.',
  '',
].join('\r\n');

/** The same skill with only the six standard keys (valid for the agentskills profile). */
const CLEAN_MD = [
  '\uFEFF---',
  'name: demo-skill',
  'description: Turns meeting notes into action items. Use when the user pastes notes.',
  'license: MIT',
  '---',
  '# Demo',
  '',
].join('\r\n');

/** A skill folder with everything an export must sort out. */
async function makeFixture(parent: string, skillMd = SKILL_MD): Promise<string> {
  const dir = join(parent, 'demo-skill');
  const files: Record<string, string> = {
    'SKILL.md': skillMd,
    'references/guide.md': '# Guide\n',
    'scripts/run.sh': '#!/bin/sh\necho run\n',
    '.git/config': '[core]\n',
    '.DS_Store': 'junk',
    'node_modules/x/index.js': 'module.exports = 1;\n',
    '__pycache__/a.cpython-312.pyc': 'pyc',
    'lib/b.pyc': 'pyc',
    'lib/b.py': 'print(1)\n',
    'evals/cases.json': '[]\n',
    'docs/evals/keep.md': 'not a root evals folder\n',
    '.env': 'API_KEY=secret\n',
    'notes.txt': 'aws key AKIAABCDEFGHIJKLMNOP here\n',
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await chmod(join(dir, 'scripts/run.sh'), 0o775);
  await symlink('references/guide.md', join(dir, 'guide-link.md'));
  await symlink('/etc/hostname', join(dir, 'outside-link'));
  return dir;
}

/** `unzip -Z1` file list. */
function zipList(archive: string): string[] {
  return execFileSync('unzip', ['-Z1', archive], { encoding: 'utf8' }).trim().split('\n').sort();
}

/** One file's bytes out of a zip, via unzip -p. */
function zipCat(archive: string, name: string): string {
  return execFileSync('unzip', ['-p', archive, name], { encoding: 'utf8' });
}

/** Frontmatter of a SKILL.md text as data. */
function frontmatter(text: string): Record<string, unknown> {
  const split = splitFrontmatter(text);
  if (!split) throw new Error(`no frontmatter in ${text}`);
  return parse(split.yaml) as Record<string, unknown>;
}

const EXCLUDED = [
  '.git',
  '.DS_Store',
  'node_modules',
  '__pycache__',
  'lib/b.pyc',
  'evals/cases.json',
  '.env',
  'notes.txt',
  'outside-link',
  'guide-link.md',
];

describe('upload targets (claude-ai, skill, claude-api)', () => {
  for (const target of ['claude-ai', 'skill', 'claude-api'] as const) {
    it(`${target}: one top folder, six keys, exclusions, readable by unzip`, async () => {
      const dir = await makeFixture(tmp);
      const out = join(tmp, 'out', `demo${target === 'skill' ? '.skill' : '.zip'}`);
      const result = await exportSkill(dir, target, { out });
      expect(result.status).toBe('written');
      const names = zipList(out);
      expect(names).toEqual([
        'demo-skill/',
        'demo-skill/SKILL.md',
        'demo-skill/docs/',
        'demo-skill/docs/evals/',
        'demo-skill/docs/evals/keep.md',
        'demo-skill/lib/',
        'demo-skill/lib/b.py',
        'demo-skill/references/',
        'demo-skill/references/guide.md',
        'demo-skill/scripts/',
        'demo-skill/scripts/run.sh',
      ]);
      for (const gone of EXCLUDED)
        expect(names.some((n) => n.startsWith(`demo-skill/${gone}`))).toBe(false);
      const skillMd = zipCat(out, 'demo-skill/SKILL.md');
      expect(skillMd.startsWith('---\n')).toBe(true);
      expect(skillMd).not.toContain('\r');
      const data = frontmatter(skillMd);
      expect(Object.keys(data)).toEqual(['name', 'description', 'metadata']);
      expect(data.metadata).toEqual({
        when_to_use: 'after meetings',
        'x-personal-mcp.id': 'demo-skill',
        'x-personal-mcp.version': '1.2.0',
        'x-personal-mcp.tags': '["meetings","notes"]',
      });
      // The source is never changed.
      expect(await readFile(join(dir, 'SKILL.md'), 'utf8')).toBe(SKILL_MD);
      const verbose = execFileSync('unzip', ['-Z', out], { encoding: 'utf8' });
      expect(verbose).toMatch(/-rwxr-xr-x.*demo-skill\/scripts\/run\.sh/);
      expect(verbose).toMatch(/-rw-r--r--.*demo-skill\/references\/guide\.md/);
      if (result.status === 'written' && target === 'claude-api') {
        expect(result.plan.apiFiles).toEqual([
          'demo-skill/SKILL.md',
          'demo-skill/docs/evals/keep.md',
          'demo-skill/lib/b.py',
          'demo-skill/references/guide.md',
          'demo-skill/scripts/run.sh',
        ]);
      }
    });
  }

  it('gives every file its size and mode, read or left out, though the walk did not stat them', async () => {
    const dir = await makeFixture(tmp);
    const { plan } = await planSkillExport(dir, 'claude-ai');
    const byPath = new Map(plan.entries.map((e) => [e.source, e]));
    expect(byPath.get('references/guide.md')).toMatchObject({ size: 8, included: true });
    expect(byPath.get('scripts/run.sh')).toMatchObject({ size: 19, mode: 0o755 });
    expect(byPath.get('lib/b.py')).toMatchObject({ size: 9, mode: 0o644 });
    // Left out without being read (a file a skill never holds): sized with lstat.
    expect(byPath.get('.DS_Store')).toMatchObject({ size: 4, included: false });
    expect(byPath.get('.env')).toMatchObject({ size: 15, included: false });
  });

  it('checks links against the package as the destination receives it, not the folder', async () => {
    const dir = join(tmp, 'cases-skill');
    await mkdir(join(dir, 'evals'), { recursive: true });
    await mkdir(join(dir, 'references'), { recursive: true });
    await writeFile(
      join(dir, 'SKILL.md'),
      '---\nname: cases-skill\ndescription: Checks test cases. Use when the user asks for a test run.\n---\nSee [the guide](references/guide.md) and [the cases](evals/cases.md); run `python scripts/check.py`.\n',
    );
    await writeFile(join(dir, 'references', 'guide.md'), '# Guide\n');
    await writeFile(join(dir, 'evals', 'cases.md'), '# Cases\n');
    const { plan } = await planSkillExport(dir, 'claude-ai');
    // The evals folder is left out of every package, so its link breaks there.
    expect(plan.entries.find((e) => e.source === 'evals')?.included).toBe(false);
    const linkIssues = plan.issues.filter((i) => i.ruleId.startsWith('links/'));
    expect(linkIssues.map((i) => [i.ruleId, i.severity])).toEqual([
      ['links/broken', 'warning'],
      ['links/mentioned-missing', 'warning'],
    ]);
    expect(linkIssues[0]?.message).toContain('evals/cases.md');
    expect(linkIssues[1]?.message).toContain('scripts/check.py');
    expect(plan.blocked).toBe(false);
  });

  it('explains every exclusion and warns about secrets and links', async () => {
    const dir = await makeFixture(tmp);
    const { plan } = await planSkillExport(dir, 'claude-ai');
    const byPath = new Map(plan.entries.map((e) => [e.source, e]));
    expect(byPath.get('.git')?.rule).toBe('vcs-folder');
    expect(byPath.get('node_modules')?.rule).toBe('dependency-folder');
    expect(byPath.get('evals')?.rule).toBe('evals-folder');
    expect(byPath.get('docs/evals')?.included).toBe(true);
    expect(byPath.get('.env')).toMatchObject({
      included: false,
      rule: 'secret-file',
      keepable: true,
    });
    expect(byPath.get('notes.txt')).toMatchObject({
      included: false,
      rule: 'secret-content',
      keepable: true,
    });
    expect(byPath.get('notes.txt')?.reason).toMatch(/AWS access key/);
    expect(byPath.get('outside-link')).toMatchObject({
      included: false,
      rule: 'symlink',
      keepable: false,
    });
    expect(byPath.get('guide-link.md')).toMatchObject({
      included: false,
      rule: 'symlink',
      keepable: true,
    });
    expect(plan.issues.map((i) => i.ruleId)).toEqual(
      expect.arrayContaining(['package/secret-left-out', 'package/symlink-left-out']),
    );
    expect(plan.blocked).toBe(false);
    expect(plan.projection.changes.find((c) => c.key === 'hooks')?.action).toBe('dropped');
    expect(plan.projection.normalisations.map((n) => n.kind)).toEqual([
      'bom-stripped',
      'crlf-to-lf',
    ]);
  });

  it('lists a named pipe as a special file and never opens it (opening one would wait for a writer)', async () => {
    const dir = await makeFixture(tmp);
    execFileSync('mkfifo', [join(dir, 'references/pipe')]);
    const out = join(tmp, 'pipe.zip');
    const result = await exportSkill(dir, 'claude-ai', { out });
    expect(result.status).toBe('written');
    expect(result.plan.entries.find((e) => e.source === 'references/pipe')).toMatchObject({
      included: false,
      rule: 'special-file',
    });
    expect(zipList(out)).not.toContain('demo-skill/references/pipe');
  });

  it('keeps a secret file and an inside link only when the user says so', async () => {
    const dir = await makeFixture(tmp);
    const out = join(tmp, 'kept.zip');
    const result = await exportSkill(dir, 'claude-ai', {
      out,
      keep: ['.env', 'guide-link.md', 'outside-link'],
    });
    expect(result.status).toBe('written');
    const names = zipList(out);
    expect(names).toContain('demo-skill/.env');
    expect(names).toContain('demo-skill/guide-link.md');
    expect(names).not.toContain('demo-skill/outside-link');
    expect(zipCat(out, 'demo-skill/guide-link.md')).toBe('# Guide\n');
    if (result.status === 'written')
      expect(result.plan.issues.some((i) => i.ruleId === 'package/secret-kept')).toBe(true);
  });

  it("is blocked with claude.ai's own words when the package breaks its rules", async () => {
    const dir = await makeFixture(tmp);
    await mkdir(join(dir, '.claude-plugin'));
    await writeFile(join(dir, '.claude-plugin/plugin.json'), '{}');
    await mkdir(join(dir, 'nested'));
    await writeFile(join(dir, 'nested/SKILL.md'), '---\nname: nested\ndescription: x\n---\n');
    for (let i = 0; i < 200; i++) await writeFile(join(dir, 'references', `r${i}.md`), `${i}\n`);
    const out = join(tmp, 'blocked.zip');
    const result = await exportSkill(dir, 'claude-ai', { out });
    expect(result.status).toBe('blocked');
    const wordings = result.plan.issues.map((i) => i.destinationWording).filter(Boolean);
    expect(wordings).toEqual(
      expect.arrayContaining([
        'A skill cannot contain a plugin manifest',
        'Zip must contain exactly one SKILL.md file',
        'Zip contains too many files (maximum 200)',
      ]),
    );
    await expect(readdir(tmp)).resolves.not.toContain('blocked.zip');
  });

  it('blocks an upload over 30 MB with "Zip file uncompressed size exceeds 30MB"', async () => {
    const dir = join(tmp, 'big');
    await mkdir(dir);
    await writeFile(join(dir, 'SKILL.md'), '---\nname: big\ndescription: A big one.\n---\n');
    await writeFile(join(dir, 'data.bin'), Buffer.alloc(30_000_001));
    const result = await exportSkill(dir, 'skill', { out: join(tmp, 'big.skill') });
    expect(result.status).toBe('blocked');
    expect(
      result.plan.issues.find((i) => i.ruleId === 'package/too-large')?.destinationWording,
    ).toBe('Zip file uncompressed size exceeds 30MB');
  });
});

describe('Agent Skills archives (archive-zip, archive-tgz)', () => {
  it('archive-zip: SKILL.md at the root, frontmatter unchanged but normalised', async () => {
    const dir = await makeFixture(tmp, CLEAN_MD);
    const out = join(tmp, 'a.zip');
    expect((await exportSkill(dir, 'archive-zip', { out })).status).toBe('written');
    const names = zipList(out);
    expect(names).toContain('SKILL.md');
    expect(names).toContain('scripts/run.sh');
    expect(names.some((n) => n.startsWith('demo-skill/'))).toBe(false);
    expect(zipCat(out, 'SKILL.md')).toBe(CLEAN_MD.slice(1).replace(/\r\n/g, '\n'));
  });

  it('is blocked by the pre-export check on keys the Agent Skills spec does not allow, unless projected', async () => {
    const dir = await makeFixture(tmp);
    const out = join(tmp, 'a.zip');
    const blocked = await exportSkill(dir, 'archive-zip', { out });
    expect(blocked.status).toBe('blocked');
    const unexpected = blocked.plan.issues.filter(
      (i) => i.severity === 'error' && i.profile === 'agentskills',
    );
    expect(unexpected.length).toBeGreaterThan(0);
    expect(unexpected.map((i) => i.message).join(' ')).toMatch(/when_to_use|hooks|x-personal-mcp/);
    await expect(readdir(tmp)).resolves.not.toContain('a.zip');
    const projected = await exportSkill(dir, 'archive-zip', { out, project: true });
    expect(projected.status).toBe('written');
    expect(Object.keys(frontmatter(zipCat(out, 'SKILL.md')))).toEqual([
      'name',
      'description',
      'metadata',
    ]);
  });

  it('archive-tgz: readable by tar, same layout, fixed modes and dates', async () => {
    const dir = await makeFixture(tmp, CLEAN_MD);
    const out = join(tmp, 'a.tar.gz');
    const result = await exportSkill(dir, 'archive-tgz', { out, sha256File: true });
    expect(result.status).toBe('written');
    const names = execFileSync('tar', ['-tzf', out], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .sort();
    expect(names).toEqual([
      'SKILL.md',
      'docs/',
      'docs/evals/',
      'docs/evals/keep.md',
      'lib/',
      'lib/b.py',
      'references/',
      'references/guide.md',
      'scripts/',
      'scripts/run.sh',
    ]);
    expect(execFileSync('tar', ['-xzOf', out, 'references/guide.md'], { encoding: 'utf8' })).toBe(
      '# Guide\n',
    );
    const verbose = execFileSync('tar', ['--utc', '-tvzf', out], { encoding: 'utf8' });
    expect(verbose).toMatch(/-rwxr-xr-x .* 1980-01-01 00:00 scripts\/run\.sh/);
    expect(verbose).toMatch(/-rw-r--r-- .* 1980-01-01 00:00 SKILL\.md/);
    if (result.status !== 'written') throw new Error('not written');
    const bytes = await readFile(out);
    expect(result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(await readFile(`${out}.sha256`, 'utf8')).toBe(`${result.sha256}  a.tar.gz\n`);
    execFileSync('sha256sum', ['-c', 'a.tar.gz.sha256'], { cwd: tmp });
  });

  it('writes Universal 2.1 tools as tools.json next to SKILL.md', async () => {
    const dir = join(tmp, 'uni');
    await mkdir(dir);
    await writeFile(
      join(dir, 'SKILL.md'),
      '---\nname: uni\ndescription: d\nspec_version: "2.1"\nversion: 1.0.0\ntools:\n  - name: run\n    input_schema: {type: object}\n---\n',
    );
    await writeFile(join(dir, 'tools.json'), '[]');
    const out = join(tmp, 'uni.zip');
    expect((await exportSkill(dir, 'claude-ai', { out })).status).toBe('written');
    expect(JSON.parse(zipCat(out, 'uni/tools.json'))).toEqual([
      { name: 'run', input_schema: { type: 'object' } },
    ]);
    expect(frontmatter(zipCat(out, 'uni/SKILL.md')).tools).toBeUndefined();
  });
});

describe('reproducible archives', () => {
  for (const target of ['claude-ai', 'archive-zip', 'archive-tgz'] as TargetId[]) {
    it(`${target}: same input gives the same bytes, from two copies with different dates`, async () => {
      const a = await makeFixture(join(tmp, 'one'), CLEAN_MD);
      const b = join(tmp, 'two', 'demo-skill');
      await cp(a, b, { recursive: true, verbatimSymlinks: true });
      await utimes(join(b, 'references/guide.md'), new Date('2001-02-03'), new Date('2001-02-03'));
      await writeFile(join(b, 'lib/b.py'), 'print(1)\n');
      const r1 = await exportSkill(a, target, { out: join(tmp, 'x1', 'out.bin') });
      const r2 = await exportSkill(a, target, { out: join(tmp, 'x2', 'out.bin') });
      const r3 = await exportSkill(b, target, { out: join(tmp, 'x3', 'out.bin') });
      const [h1, h2, h3] = await Promise.all(
        ['x1', 'x2', 'x3'].map(async (d) =>
          createHash('sha256')
            .update(await readFile(join(tmp, d, 'out.bin')))
            .digest('hex'),
        ),
      );
      expect(h1).toBe(h2);
      expect(h1).toBe(h3);
      expect(r1.status === 'written' && r1.sha256).toBe(h1);
      expect(r3.status === 'written' && r3.sha256).toBe(h3);
      expect(r2.status).toBe('written');
    });
  }

  it('a different file gives a different archive', async () => {
    const a = await makeFixture(join(tmp, 'one'), CLEAN_MD);
    const r1 = await exportSkill(a, 'archive-zip', { out: join(tmp, 'o1.zip') });
    await writeFile(join(a, 'lib/b.py'), 'print(2)\n');
    const r2 = await exportSkill(a, 'archive-zip', { out: join(tmp, 'o2.zip') });
    expect(r1.status === 'written' && r2.status === 'written' && r1.sha256 !== r2.sha256).toBe(
      true,
    );
  });
});

describe('folder targets (claude-code, folder)', () => {
  it('installs into ~/.claude/skills/<name>/ as is, and never overwrites without overwrite: true', async () => {
    const dir = await makeFixture(tmp);
    const home = join(tmp, 'home');
    const trashDir = join(tmp, 'trash');
    const first = await exportSkill(dir, 'claude-code', {
      claudeCode: { scope: 'user', home },
      trashDir,
    });
    expect(first.status).toBe('written');
    const dest = join(home, '.claude', 'skills', 'demo-skill');
    expect(await readFile(join(dest, 'SKILL.md'), 'utf8')).toBe(
      SKILL_MD.slice(1).replace(/\r\n/g, '\n'),
    );
    expect((await readdir(dest)).sort()).toEqual([
      'SKILL.md',
      'docs',
      'lib',
      'references',
      'scripts',
    ]);

    await writeFile(join(dir, 'references/guide.md'), '# Guide v2\n');
    await writeFile(join(dir, 'references/new.md'), 'new\n');
    await writeFile(join(dest, 'local-only.md'), 'mine\n');
    const second = await exportSkill(dir, 'claude-code', {
      claudeCode: { scope: 'user', home },
      trashDir,
    });
    expect(second.status).toBe('exists');
    if (second.status !== 'exists') throw new Error('expected exists');
    expect(second.diff).toMatchObject({
      added: ['references/new.md'],
      changed: ['references/guide.md'],
      removed: ['local-only.md'],
    });
    expect(await readFile(join(dest, 'references/guide.md'), 'utf8')).toBe('# Guide\n');

    const third = await exportSkill(dir, 'claude-code', {
      claudeCode: { scope: 'user', home },
      trashDir,
      overwrite: true,
    });
    expect(third.status).toBe('written');
    expect(await readFile(join(dest, 'references/guide.md'), 'utf8')).toBe('# Guide v2\n');
    const trashed = third.status === 'written' ? third.trashedTo : undefined;
    expect(trashed).toBeDefined();
    expect(await readFile(join(trashed as string, 'local-only.md'), 'utf8')).toBe('mine\n');
    expect((await readdir(join(home, '.claude', 'skills'))).sort()).toEqual(['demo-skill']);
  });

  it('never writes through a link: a project whose .claude leads elsewhere, a linked skills folder (user or project)', async () => {
    const dir = await makeFixture(tmp);
    const elsewhere = join(tmp, 'elsewhere');
    await mkdir(join(elsewhere, 'skills', 'demo-skill'), { recursive: true });
    await writeFile(join(elsewhere, 'skills', 'demo-skill', 'keep.md'), 'theirs\n');
    const project = join(tmp, 'project');
    await mkdir(project);
    await symlink(elsewhere, join(project, '.claude'));
    const trashDir = join(tmp, 'trash');
    const viaProject = await exportSkill(dir, 'claude-code', {
      claudeCode: { scope: 'project', project },
      overwrite: true,
      trashDir,
    });
    expect(viaProject.status).toBe('blocked');
    expect(viaProject.plan.issues[0]).toMatchObject({
      ruleId: 'package/destination-link',
      message: expect.stringContaining(`${join(project, '.claude')} is a link`),
    });
    // The folder the link leads to is as it was: nothing written, nothing moved to the trash.
    expect(await readdir(join(elsewhere, 'skills', 'demo-skill'))).toEqual(['keep.md']);
    expect(await readdir(trashDir).catch(() => [])).toEqual([]);

    const home = join(tmp, 'home');
    await mkdir(join(home, '.claude'), { recursive: true });
    await symlink(join(elsewhere, 'skills'), join(home, '.claude', 'skills'));
    const viaHome = await exportSkill(dir, 'claude-code', {
      claudeCode: { scope: 'user', home },
      overwrite: true,
      trashDir,
    });
    expect(viaHome.status).toBe('blocked');
    expect(viaHome.plan.issues[0]?.message).toBe(
      `${join(home, '.claude', 'skills')} is itself a link, so Skillbench does not write into it. Nothing was written.`,
    );
    expect(await readdir(join(elsewhere, 'skills', 'demo-skill'))).toEqual(['keep.md']);
  });

  it('installs into a project and copies to any folder', async () => {
    const dir = await makeFixture(tmp);
    const project = join(tmp, 'project');
    const r = await exportSkill(dir, 'claude-code', { claudeCode: { scope: 'project', project } });
    expect(r.status === 'written' && r.path).toBe(join(project, '.claude', 'skills', 'demo-skill'));
    // A folder copy is checked with the skill's own profiles (agentskills by default).
    expect((await exportSkill(dir, 'folder', { out: join(tmp, 'copies') })).status).toBe('blocked');
    const copy = await exportSkill(dir, 'folder', {
      out: join(tmp, 'copies'),
      profiles: ['claude-code'],
    });
    expect(copy.status === 'written' && copy.path).toBe(join(tmp, 'copies', 'demo-skill'));
    expect(await readFile(join(tmp, 'copies', 'demo-skill', 'SKILL.md'), 'utf8')).toContain(
      'hooks:',
    );
  });

  it('lets folder targets override errors, but never archives', async () => {
    const dir = join(tmp, 'broken');
    await mkdir(dir);
    await writeFile(join(dir, 'SKILL.md'), '---\nname: broken\ndescription: x\nname: twice\n---\n');
    expect((await exportSkill(dir, 'folder', { out: join(tmp, 'c') })).status).toBe('blocked');
    expect((await exportSkill(dir, 'folder', { out: join(tmp, 'c'), force: true })).status).toBe(
      'written',
    );
    expect(
      (await exportSkill(dir, 'archive-zip', { out: join(tmp, 'b.zip'), force: true })).status,
    ).toBe('blocked');
  });
});

describe('worthDeflating', () => {
  it('stores random or already-compressed bytes and deflates text', async () => {
    const { worthDeflating } = await import('../platform/archive-writer');
    const { randomBytes } = await import('node:crypto');
    const { gzipSync } = await import('node:zlib');
    expect(worthDeflating(randomBytes(100_000))).toBe(false);
    expect(worthDeflating(gzipSync(randomBytes(50_000).toString('base64')))).toBe(false);
    expect(worthDeflating(Buffer.from('A skill explains a task. '.repeat(100)))).toBe(true);
    expect(worthDeflating(Buffer.from('tiny'))).toBe(false);
  });

  it('counts bytes as a plain loop does, at any start and length inside a larger buffer', async () => {
    const { byteCounts } = await import('../platform/archive-writer');
    const { randomBytes } = await import('node:crypto');
    const whole = Buffer.concat([randomBytes(3000), Buffer.alloc(500, 7)]);
    for (const start of [0, 1, 2, 3, 5])
      for (const length of [0, 1, 2, 3, 4, 7, 64, 1001, 3495 - start]) {
        const bytes = whole.subarray(start, start + length);
        const plain = new Uint32Array(256);
        for (const b of bytes) plain[b]++;
        expect([...byteCounts(bytes)]).toEqual([...plain]);
      }
  });
});
