import { execFileSync } from 'node:child_process';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureIO, type CapturedIO } from '../support/capture-io';
import { runCli } from '../run';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-cli-pack-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A recording io (see main/cli/capture-io.ts). */
function capture(): CapturedIO {
  return captureIO(tmp, { HOME: join(tmp, 'home') });
}

/** A small skill folder. */
async function skill(
  name = 'notes',
  frontmatter = 'when_to_use: after meetings\n',
): Promise<string> {
  const dir = join(tmp, name);
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Turns notes into action items. Use when notes are pasted.\n${frontmatter}---\n# Notes\n`,
  );
  await writeFile(join(dir, 'scripts', 'run.sh'), '#!/bin/sh\n');
  await chmod(join(dir, 'scripts', 'run.sh'), 0o755);
  await writeFile(join(dir, '.env'), 'TOKEN=x\n');
  return dir;
}

describe('skillbench pack', () => {
  it('packs for claude.ai, says what changed and what was left out, and prints the sha256', async () => {
    await skill();
    const io = capture();
    const code = await runCli(['pack', 'notes', '--target', 'claude-ai', '--sha256'], io);
    expect(io.err).toBe('');
    expect(code).toBe(0);
    expect(io.out).toMatch(/when_to_use: moved to metadata\.when_to_use/);
    expect(io.out).toMatch(
      /\.env: \.env usually holds passwords or API keys\. It is left out unless you choose to keep it\. \(use --keep to include it\)/,
    );
    const sha = /sha256 ([0-9a-f]{64})/.exec(io.out)?.[1];
    expect(sha).toBeDefined();
    expect(await readFile(join(tmp, 'notes.zip.sha256'), 'utf8')).toBe(`${sha}  notes.zip\n`);
    expect(
      execFileSync('unzip', ['-Z1', join(tmp, 'notes.zip')], { encoding: 'utf8' })
        .trim()
        .split('\n'),
    ).toEqual(['notes/', 'notes/SKILL.md', 'notes/scripts/', 'notes/scripts/run.sh']);
  });

  it('--keep includes a file left out as secret-looking', async () => {
    await skill();
    const io = capture();
    expect(
      await runCli(
        [
          'pack',
          'notes/SKILL.md',
          '--target',
          'archive-tgz',
          '--out',
          'out/n.tgz',
          '--keep',
          '.env',
          '--project-frontmatter',
        ],
        io,
      ),
    ).toBe(0);
    expect(
      execFileSync('tar', ['-tzf', join(tmp, 'out', 'n.tgz')], { encoding: 'utf8' }),
    ).toContain('.env');
    expect(io.out).toMatch(/You chose to include \.env/);
  });

  it('--out names a folder to put the archive in: one that exists, a link to one, or a path ending in /', async () => {
    await skill();
    await mkdir(join(tmp, 'there'));
    await symlink('there', join(tmp, 'linked'));
    const cases: [string, string][] = [
      ['there', join('there', 'notes.skill')],
      ['linked', join('there', 'notes.zip')],
      ['new/dist/', join('new', 'dist', 'notes.skill')],
    ];
    for (const [out, expected] of cases) {
      const io = capture();
      const target = out === 'linked' ? 'claude-ai' : 'skill';
      expect(await runCli(['pack', 'notes', '--target', target, '--out', out], io), io.err).toBe(0);
      expect(execFileSync('unzip', ['-Z1', join(tmp, expected)], { encoding: 'utf8' })).toContain(
        'notes/SKILL.md',
      );
    }
    expect((await lstat(join(tmp, 'linked'))).isSymbolicLink()).toBe(true);
  });

  it("a skill's name never moves what is written out of the folder --out names", async () => {
    await skill('notes', 'when_to_use: after meetings\n');
    const md = join(tmp, 'notes', 'SKILL.md');
    await writeFile(md, (await readFile(md, 'utf8')).replace('name: notes', 'name: ../escape'));
    const io = capture();
    const code = await runCli(
      ['pack', 'notes', '--target', 'folder', '--out', 'dist/', '--force-folder'],
      io,
    );
    expect(code, io.err).toBe(0);
    expect(await readdir(join(tmp, 'dist'))).toEqual(['notes']);
    expect(await readdir(tmp)).not.toContain('escape');
    // Nor does a hidden name (.git) land beside the hidden folders of the destination.
    await writeFile(md, (await readFile(md, 'utf8')).replace('name: ../escape', 'name: .git'));
    const hidden = capture();
    expect(
      await runCli(
        ['pack', 'notes', '--target', 'folder', '--out', 'dist2/', '--force-folder'],
        hidden,
      ),
      hidden.err,
    ).toBe(0);
    expect(await readdir(join(tmp, 'dist2'))).toEqual(['notes']);
    // An archive for upload with that name is not written at all (the name is an error there).
    expect(await runCli(['pack', 'notes', '--target', 'skill', '--out', 'dist/'], capture())).toBe(
      1,
    );
    expect(await readdir(join(tmp, 'dist'))).toEqual(['notes']);
  });

  it('exits 1 and writes nothing when the destination would reject the skill', async () => {
    await skill('claude-notes');
    const io = capture();
    const code = await runCli(['pack', 'claude-notes', '--target', 'skill'], io);
    expect(code).toBe(1);
    expect(io.out).toMatch(/error/);
    expect(io.out).toMatch(/claude/);
    expect(io.err).toMatch(
      /Not written: .* would make skill-creator package \(\.skill\) reject this skill/,
    );
    expect(await readdir(tmp)).toEqual(['claude-notes']);
  });

  it('installs for Claude Code, shows the diff instead of overwriting, then overwrites on request', async () => {
    const dir = await skill();
    const dest = join(tmp, 'home', '.claude', 'skills', 'notes');
    const first = capture();
    expect(await runCli(['pack', 'notes', '--target', 'claude-code'], first)).toBe(0);
    expect(first.out).toContain(`Wrote ${dest}`);
    await writeFile(join(dir, 'extra.md'), 'x\n');
    const second = capture();
    expect(await runCli(['pack', 'notes', '--target', 'claude-code'], second)).toBe(1);
    expect(second.err).toContain('+ extra.md (new)');
    expect(second.err).toContain('--overwrite');
    expect(await readdir(dest)).not.toContain('extra.md');
    const third = capture();
    expect(await runCli(['pack', 'notes', '--target', 'claude-code', '--overwrite'], third)).toBe(
      0,
    );
    expect(await readdir(dest)).toContain('extra.md');
    expect(third.out).toContain(join(tmp, 'home', '.config', 'Skillbench', 'trash'));
  });

  it('--force-folder copies despite errors, for folder targets only', async () => {
    await skill('notes', 'name: twice\n');
    const blocked = capture();
    expect(await runCli(['pack', 'notes', '--target', 'folder', '--out', 'copies'], blocked)).toBe(
      1,
    );
    expect(blocked.err).toMatch(/--force-folder/);
    const forced = capture();
    expect(
      await runCli(
        ['pack', 'notes', '--target', 'folder', '--out', 'copies', '--force-folder'],
        forced,
      ),
    ).toBe(0);
    expect(await readdir(join(tmp, 'copies', 'notes'))).toContain('SKILL.md');
    const refused = capture();
    expect(
      await runCli(['pack', 'notes', '--target', 'archive-zip', '--force-folder'], refused),
    ).toBe(2);
    expect(refused.err).toMatch(/--force-folder works only with --target claude-code or folder/);
  });

  it('a project whose .claude is a link: refused for that, without offering the --force-folder just given', async () => {
    await skill();
    await mkdir(join(tmp, 'project'));
    await mkdir(join(tmp, 'elsewhere'));
    await symlink('../elsewhere', join(tmp, 'project', '.claude'));
    for (const extra of [[], ['--force-folder']]) {
      const io = capture();
      const args = ['pack', 'notes', '--target', 'claude-code', '--out', 'project', ...extra];
      expect(await runCli(args, io)).toBe(1);
      expect(io.err).toBe(
        '\nNot written: the destination is reached through a link (above); make it a real folder, or choose another --out.\n',
      );
    }
    expect(await readdir(join(tmp, 'elsewhere'))).toEqual([]);
  });

  it('a folder copy refuses a file over 16 MiB as an install does, and never reads gigabytes', async () => {
    const dir = await skill();
    await writeFile(join(dir, 'model.bin'), Buffer.alloc(17 * 1024 * 1024, 1));
    const sentence =
      'model.bin is 17.8 MB; Skillbench copies files of up to 16.8 MB into a skill folder. Move large data out of the skill.';
    const blocked = capture();
    expect(await runCli(['pack', 'notes', '--target', 'folder', '--out', 'copies'], blocked)).toBe(
      1,
    );
    expect(blocked.out + blocked.err).toContain(sentence);
    // The same file, the same words, from an install into an agent.
    const installed = capture();
    await mkdir(join(tmp, 'home', '.claude'), { recursive: true });
    expect(await runCli(['install', 'notes', '--agent', 'claude-code', '--copy'], installed)).toBe(
      1,
    );
    expect(installed.out + installed.err).toContain(`so nothing was installed: ${sentence}`);
    // Forced past its bound, a folder copy still never reads a file of gigabytes whole.
    await truncate(join(dir, 'model.bin'), 5 * 1024 ** 3);
    const forced = capture();
    expect(
      await runCli(
        ['pack', 'notes', '--target', 'folder', '--out', 'copies', '--force-folder'],
        forced,
      ),
    ).toBe(2);
    expect(forced.err).toMatch(/model\.bin is 5\.4 GB; Skillbench reads files of up to 30 MB\./);
    expect(await readdir(join(tmp, 'copies')).catch(() => [])).toEqual([]);
  });

  it('exits 2 on usage and I/O problems', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['pack', 'notes'], /--target is required/],
      [['pack', 'notes', '--target', 'dropbox'], /Unknown target "dropbox"/],
      [['pack', '--target', 'claude-ai'], /Give the skill folder/],
      [['pack', 'notes', '--target', 'claude-ai', '--bogus'], /There is no option --bogus/],
      [['pack', 'notes', '--target', 'folder'], /needs --out DIR/],
      [['pack', 'missing', '--target', 'claude-ai'], /does not exist/],
    ];
    for (const [argv, message] of cases) {
      const io = capture();
      expect(await runCli(argv, io)).toBe(2);
      expect(io.err).toMatch(message);
    }
    await mkdir(join(tmp, 'empty'));
    const io = capture();
    expect(await runCli(['pack', 'empty', '--target', 'claude-ai'], io)).toBe(2);
    expect(io.err).toMatch(/has no SKILL\.md file/);
  });
});

describe('skillbench pack --target tools-*: what each host would refuse', () => {
  it('refuses every tool target while a tool input_schema is not an object schema, and names the host', async () => {
    await skill(
      'lister',
      'tools:\n  - name: list\n    description: List notes.\n    input_schema:\n      type: array\n',
    );
    for (const [target, host] of [
      ['tools-mcp', 'MCP'],
      ['tools-claude', 'the Claude API'],
      ['tools-openai', 'OpenAI strict mode'],
    ] as const) {
      const io = capture();
      expect(await runCli(['pack', 'lister', '--target', target], io)).toBe(1);
      expect(io.out).toBe('');
      expect(io.err).toContain(`Not written: ${host} would refuse the tools of lister:`);
      expect(io.err).toContain(
        'The input_schema of list must be an object schema (type: object) at the top level.',
      );
    }
  });

  it('says when a tool without a name is left out', async () => {
    await skill(
      'lister',
      'tools:\n  - name: list\n    description: List notes.\n    input_schema: {type: object}\n  - description: No name.\n    input_schema: {type: object}\n',
    );
    const io = capture();
    expect(await runCli(['pack', 'lister', '--target', 'tools-mcp'], io)).toBe(0);
    expect((JSON.parse(io.out) as { name: string }[]).map((t) => t.name)).toEqual(['list']);
    expect(io.err).toContain(
      'skillbench pack: 1 entry of tools in the frontmatter has no name, so it was left out. Give each tool a name.',
    );
  });
});
