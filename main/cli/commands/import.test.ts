import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleCli, tempDir } from '../../testing/skill-library';
import { craftTar, craftZip, photoSkillZip, truncatedTars } from '../../pack/craft-archives';
import { captureIO, type CapturedIO } from '../support/capture-io';
import { runCli } from '../run';

let tmp: string;
let lib: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-cli-import-'));
  lib = join(tmp, 'lib');
  await mkdir(lib);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A recording io (see main/cli/capture-io.ts). */
function capture(): CapturedIO {
  return captureIO(tmp, { HOME: join(tmp, 'home') });
}

const SKILL = Buffer.from(
  '---\nname: notes\ndescription: Turns notes into action items. Use when notes are pasted.\n---\n# Notes\n',
);

describe('skillbench import', () => {
  it('imports a zip into the library and lists the files', async () => {
    await writeFile(
      join(tmp, 'notes.zip'),
      craftZip([
        { name: 'notes/SKILL.md', data: SKILL },
        { name: 'notes/refs/a.md', data: Buffer.from('a\n') },
      ]),
    );
    const io = capture();
    expect(await runCli(['import', 'notes.zip', '--into', 'lib'], io)).toBe(0);
    expect(io.out).toContain(`Imported notes into ${join(lib, 'notes')} (2 files).`);
    expect(io.out).toContain('refs/a.md');
    expect(await readFile(join(lib, 'notes', 'refs', 'a.md'), 'utf8')).toBe('a\n');
  });

  it('refuses a hostile archive with exit 1, a plain message, and nothing written', async () => {
    await writeFile(
      join(tmp, 'evil.tgz'),
      gzipSync(
        craftTar([
          { name: 'notes/SKILL.md', data: SKILL },
          { name: 'notes/link', type: '2', linkname: '/etc/passwd' },
        ]),
      ),
    );
    const io = capture();
    expect(await runCli(['import', 'evil.tgz', '--into', 'lib'], io)).toBe(1);
    expect(io.err).toMatch(
      /^Refused: The archive contains a shortcut \(symbolic link\) \(notes\/link\)/,
    );
    expect(io.err).toContain('Nothing was written.');
    expect(await readdir(lib)).toEqual([]);
    expect((await readdir(tmp)).sort()).toEqual(['evil.tgz', 'lib']);
  });

  it('a folder with a link or a pipe is refused in words about a folder, not an archive', async () => {
    await mkdir(join(tmp, 'src', 'notes'), { recursive: true });
    await writeFile(join(tmp, 'src', 'notes', 'SKILL.md'), SKILL);
    await symlink('/dev/zero', join(tmp, 'src', 'notes', 'zero.md'));
    const io = capture();
    expect(await runCli(['import', 'src/notes', '--into', 'lib'], io)).toBe(1);
    expect(io.err).toMatch(
      /^Refused: The folder contains a shortcut \(symbolic link\) \(zero\.md\)\. A link can lead to files outside the skill/,
    );
    await rm(join(tmp, 'src', 'notes', 'zero.md'));
    execFileSync('mkfifo', [join(tmp, 'src', 'notes', 'pipe.md')]);
    const again = capture();
    expect(await runCli(['import', 'src/notes', '--into', 'lib'], again)).toBe(1);
    expect(again.err).toMatch(
      /^Refused: The folder contains a special file \(pipe, socket or device\) \(pipe\.md\), which is not a normal file, so the folder is not imported\./,
    );
    expect(await readdir(lib)).toEqual([]);
  });

  it('the path given that is itself a link or a pipe is refused in words about that path', async () => {
    await writeFile(join(tmp, 'notes.zip'), craftZip([{ name: 'notes/SKILL.md', data: SKILL }]));
    await symlink(join(tmp, 'notes.zip'), join(tmp, 'shortcut.zip'));
    const io = capture();
    expect(await runCli(['import', 'shortcut.zip', '--into', 'lib'], io)).toBe(1);
    expect(io.err).toMatch(
      /^Refused: \S*shortcut\.zip is a shortcut \(symbolic link\)\. Give the file or folder it leads to, so that what is imported is what you chose\./,
    );
    execFileSync('mkfifo', [join(tmp, 'pipe.zip')]);
    const pipe = capture();
    expect(await runCli(['import', 'pipe.zip', '--into', 'lib'], pipe)).toBe(1);
    expect(pipe.err).toMatch(
      /^Refused: \S*pipe\.zip is a special file \(pipe, socket or device\), not an archive, a folder or a SKILL\.md, so nothing was read from it\./,
    );
    expect(await readdir(lib)).toEqual([]);
  });

  it('applies --max-files and --max-bytes', async () => {
    await writeFile(
      join(tmp, 'n.zip'),
      craftZip([
        { name: 'notes/SKILL.md', data: SKILL },
        { name: 'notes/a.bin', data: Buffer.alloc(3000, 7), method: 0 },
      ]),
    );
    const few = capture();
    expect(await runCli(['import', 'n.zip', '--into', 'lib', '--max-files', '1'], few)).toBe(1);
    expect(few.err).toMatch(/more than 1 files/);
    const small = capture();
    expect(await runCli(['import', 'n.zip', '--into', 'lib', '--max-bytes', '2k'], small)).toBe(1);
    expect(small.err).toMatch(/unpacks to more than/);
    const ok = capture();
    expect(await runCli(['import', 'n.zip', '--into', 'lib', '--max-bytes', '1M'], ok)).toBe(0);
  });

  it('reports a name conflict with exit 1, then --rename and --replace resolve it', async () => {
    await writeFile(join(tmp, 'n.zip'), craftZip([{ name: 'SKILL.md', data: SKILL }]));
    await mkdir(join(lib, 'notes'));
    const conflict = capture();
    expect(await runCli(['import', 'n.zip', '--into', 'lib'], conflict)).toBe(1);
    expect(conflict.err).toContain('The library already has a skill folder named notes.');
    expect(conflict.err).toContain('--rename   import as notes-2');
    const renamed = capture();
    expect(await runCli(['import', 'n.zip', '--into', 'lib', '--rename'], renamed)).toBe(0);
    expect(await readFile(join(lib, 'notes-2', 'SKILL.md'), 'utf8')).toContain('name: notes-2');
    const replaced = capture();
    expect(await runCli(['import', 'n.zip', '--into', 'lib', '--replace'], replaced)).toBe(0);
    expect(await readdir(join(lib, 'notes'))).toEqual(['SKILL.md']);
    expect(await readdir(join(tmp, 'home', '.config', 'Skillbench', 'trash'))).toHaveLength(1);
    // The same archive again: the library holds it file for file, so there is nothing to do.
    const same = capture();
    expect(await runCli(['import', 'n.zip', '--into', 'lib'], same)).toBe(0);
    expect(same.out).toContain('The library already has notes, file for file the same');
    expect(same.out).toContain('Nothing was written.');
    expect(await readdir(lib)).toEqual(['notes', 'notes-2']);
  });

  it('asks to --pick when there are several skills; --dry-run writes nothing', async () => {
    await writeFile(
      join(tmp, 'two.zip'),
      craftZip([
        { name: 'a/SKILL.md', data: Buffer.from('---\nname: a\ndescription: d\n---\n') },
        { name: 'b/SKILL.md', data: Buffer.from('---\nname: b\ndescription: d\n---\n') },
      ]),
    );
    const choose = capture();
    expect(await runCli(['import', 'two.zip', '--into', 'lib'], choose)).toBe(1);
    expect(choose.err).toContain('--pick a');
    expect(choose.err).toContain('--pick b');
    const dry = capture();
    expect(await runCli(['import', 'two.zip', '--dry-run', '--pick', 'b'], dry)).toBe(0);
    expect(dry.out).toContain('Dry run: nothing was written.');
    expect(await readdir(lib)).toEqual([]);
    const picked = capture();
    expect(await runCli(['import', 'two.zip', '--into', 'lib', '--pick', 'b'], picked)).toBe(0);
    expect(await readdir(lib)).toEqual(['b']);
  });

  it('exits 2 on usage and I/O problems', async () => {
    await writeFile(join(tmp, 'x.zip'), craftZip([{ name: 'SKILL.md', data: SKILL }]));
    const cases: Array<[string[], RegExp]> = [
      [['import', 'x.zip'], /--into LIBRARY is required/],
      [['import', '--into', 'lib'], /Give the archive/],
      [['import', 'x.zip', '--into', 'lib', '--rename', '--replace'], /not both/],
      [
        ['import', 'x.zip', '--into', 'lib', '--max-bytes', 'lots'],
        /--max-bytes must be a number of bytes such as 16777216 or 16M, not "lots"\./,
      ],
      [
        ['import', 'x.zip', '--into', 'lib', '--max-files', '0'],
        /--max-files must be a whole number of files from 1 to 1000000, not "0"\./,
      ],
      [
        ['import', 'x.zip', '--into', 'lib', '--trust-anyway', 'I wrote it', '--trust-days', '400'],
        /--trust-days must be a whole number of days from 1 to 365, not "400"\./,
      ],
      [['import', 'x.zip', '--into', 'nowhere'], /nowhere does not exist\. Create it first/],
      [['import', 'x.zip', '--into', 'x.zip'], /x\.zip is a file, not a folder\./],
      [['import', 'missing.zip', '--into', 'lib'], /missing\.zip does not exist/],
      // A path under a file (x.zip/notes.skill) names nothing either: no system error code.
      [
        ['import', 'x.zip/notes.skill', '--into', 'lib'],
        /x\.zip\/notes\.skill does not exist\.\n$/,
      ],
    ];
    for (const [argv, message] of cases) {
      const io = capture();
      expect(await runCli(argv, io)).toBe(2);
      expect(io.err).toMatch(message);
    }
  });
});

describe('the real skillbench process refuses and lives on', () => {
  let build: Awaited<ReturnType<typeof tempDir>>;
  let cli: string;
  beforeAll(async () => {
    build = await tempDir('sb-cli-import-build-');
    cli = await bundleCli(build.path);
  }, 120_000);
  afterAll(async () => {
    await build.remove();
  });

  /** Run `skillbench import ARCHIVE --into lib` as a child process in tmp. */
  function importAsProcess(archive: string): {
    status: number | null;
    stdout: string;
    stderr: string;
  } {
    return spawnSync(process.execPath, [cli, 'import', archive, '--into', 'lib'], {
      cwd: tmp,
      encoding: 'utf8',
      env: { ...process.env, HOME: join(tmp, 'home') },
    });
  }

  /** What a crash prints: a stack frame or an uncaught error's name. */
  const CRASH = /^\s+at |TypeError|Uncaught|node:internal|Node\.js v/m;

  it('a zip of 20 photos of 1 MiB: exit 1, the refusal in plain words, no stack trace, nothing written', async () => {
    await writeFile(join(tmp, 'photos.zip'), photoSkillZip());
    const run = importAsProcess('photos.zip');
    expect(run.stderr).not.toMatch(CRASH);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^Refused: The archive is 21 MB, larger than a skill import accepts \(it may unpack to 16\.8 MB at most\)\./,
    );
    expect(run.stderr).toContain('Nothing was written.');
    expect(await readdir(lib)).toEqual([]);
  });

  for (const cut of truncatedTars()) {
    it(`${cut.name}: exit 1, refused as damaged, no stack trace, nothing written`, async () => {
      await writeFile(join(tmp, cut.file), cut.bytes);
      const run = importAsProcess(cut.file);
      expect(run.stderr).not.toMatch(CRASH);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^Refused: The archive is damaged: it ends too early/);
      expect(run.stdout).toBe('');
      expect(await readdir(lib)).toEqual([]);
    });
  }
});
