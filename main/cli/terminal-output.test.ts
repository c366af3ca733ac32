import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { fixtureSkill, startFixture, type RunningServer } from '../testing/inspector-servers';
import { bundleCli, tempDir } from '../testing/skill-library';
import { craftZip } from '../pack/craft-archives';

type Dir = Awaited<ReturnType<typeof tempDir>>;

const ESC = '\u001b';
/** Escape sequences a hostile file carries: window title, clear screen, colour, bell. */
const HOSTILE = `${ESC}]0;owned${ESC}\\${ESC}[2J${ESC}[31m`;

/**
 * Characters that must never reach the terminal raw: C0 controls other than \n and \t, DEL, C1
 * controls, bidi and zero-width format characters.
 */
const RAW_CONTROL =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

/** Bytes below 0x20 other than \n and \t, on the raw bytes. */
function lowBytes(bytes: Buffer): number[] {
  return [...bytes].filter((b) => b < 0x20 && b !== 0x0a && b !== 0x09);
}

/** A finished CLI process: exit code and raw output. */
interface Finished {
  code: number | null;
  stdout: Buffer;
  stderr: Buffer;
}

let build: Dir;
let cli: string;
beforeAll(async () => {
  build = await tempDir('sb-cli-terminal-build-');
  cli = await bundleCli(build.path);
}, 120_000);
afterAll(async () => {
  await build.remove();
});

let tmp: Dir;
beforeEach(async () => {
  tmp = await tempDir('sb-cli-terminal-');
  await mkdir(join(tmp.path, 'lib'));
});
afterEach(async () => {
  await tmp.remove();
});

/**
 * Run the bundled CLI as a child process and collect its raw output. Why not spawnSync: the
 * inspect case talks to a server running in this process, which must keep answering.
 */
function runCli(args: string[], stopWhen?: RegExp): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: tmp.path,
      env: { ...process.env, HOME: join(tmp.path, 'home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      out.push(chunk);
      if (stopWhen?.test(Buffer.concat(out).toString('utf8'))) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }),
    );
  });
}

/** Assert that neither stream carries a raw control, and that the hostile text is shown escaped. */
function expectInert(run: Finished, shows: string = '\\x1b'): void {
  for (const [stream, bytes] of [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
  ] as const) {
    expect([stream, lowBytes(bytes)]).toEqual([stream, []]);
    expect([stream, RAW_CONTROL.exec(bytes.toString('utf8'))?.[0]]).toEqual([stream, undefined]);
  }
  expect(run.stdout.toString('utf8') + run.stderr.toString('utf8')).toContain(shows);
  expect(run.stderr.toString('utf8')).not.toMatch(/^\s+at /m);
}

/** A SKILL.md whose values, key and body carry escape sequences (YAML's `\e` is ESC). */
const HOSTILE_SKILL = [
  '---',
  'name: "notes\\e]0;owned\\a\\e[2J"',
  'description: "Use it\\e[31m now.\\e[0m\\u202e"',
  '"x\\e[1mkey": 1',
  '---',
  `# Notes ${HOSTILE}`,
  '',
].join('\n');

describe('text from a file never drives the terminal: the real skillbench process', () => {
  it('import: a refusal naming an entry with escape sequences and one with a NUL', async () => {
    await writeFile(
      join(tmp.path, 'esc.zip'),
      craftZip([
        { name: 'demo/SKILL.md', data: Buffer.from('---\nname: demo\ndescription: d\n---\n') },
        { name: `demo/${HOSTILE}.md`, data: Buffer.from('x') },
      ]),
    );
    const esc = await runCli(['import', 'esc.zip', '--into', 'lib']);
    expect(esc.code).toBe(1);
    expect(esc.stderr.toString('utf8')).toMatch(/^Refused: The archive has a file named "/);
    expectInert(esc, '\\x1b]0;owned\\x1b\\\\x1b[2J');
    await writeFile(
      join(tmp.path, 'nul.zip'),
      craftZip([
        { name: 'demo/SKILL.md', data: Buffer.from('---\nname: demo\ndescription: d\n---\n') },
        { name: `demo/a\u0000${ESC}[2J.md`, data: Buffer.from('x') },
      ]),
    );
    const nul = await runCli(['import', 'nul.zip', '--into', 'lib']);
    expect(nul.code).toBe(1);
    expectInert(nul, 'entry "demo/a\\x00\\x1b[2J.md"');
  });

  it('import: a skill whose frontmatter values carry escape sequences, previewed and imported', async () => {
    await writeFile(
      join(tmp.path, 'notes.zip'),
      craftZip([{ name: 'SKILL.md', data: Buffer.from(HOSTILE_SKILL) }]),
    );
    const dry = await runCli(['import', 'notes.zip', '--dry-run']);
    expect(dry.code).toBe(0);
    expectInert(dry, 'The skill calls itself "notes\\x1b]0;owned\\x07\\x1b[2J"');
    const real = await runCli(['import', 'notes.zip', '--into', 'lib']);
    expect(real.code).toBe(0);
    expectInert(real, 'x\\x1b[1mkey');
    expect(real.stdout.toString('utf8')).toContain('Imported notes into');
  });

  it('validate: the text report escapes names, values and paths; JSON keeps them exact', async () => {
    const folder = join(tmp.path, 'lib', `evil${ESC}[31m`);
    await mkdir(folder);
    await writeFile(join(folder, 'SKILL.md'), HOSTILE_SKILL);
    const text = await runCli(['validate', 'lib']);
    expect(text.code).toBe(1);
    expectInert(text, 'lib/evil\\x1b[31m/SKILL.md');
    expect(text.stdout.toString('utf8')).toContain('x\\x1b[1mkey');
    const json = await runCli(['validate', 'lib', '--format', 'json']);
    const doc = JSON.parse(json.stdout.toString('utf8')) as {
      skills: { folder: string; name: string }[];
    };
    expect(doc.skills[0]?.folder).toBe(`lib/evil${ESC}[31m`);
    expect(doc.skills[0]?.name).toBe(`notes${ESC}]0;owned\u0007${ESC}[2J`);
  });

  it('pack: the plan, its checks and the refusal to write escape what the skill carries', async () => {
    const folder = join(tmp.path, `evil${ESC}[31m`);
    await mkdir(folder);
    await writeFile(join(folder, 'SKILL.md'), HOSTILE_SKILL);
    const run = await runCli(['pack', `evil${ESC}[31m`, '--target', 'claude-ai']);
    expect(run.code).toBe(1);
    expectInert(run, 'x\\x1b[1mkey');
    expect(run.stderr.toString('utf8')).toContain('Not written:');
  });

  it('serve: the list of skills not served escapes their folders and reasons', async () => {
    const folder = join(tmp.path, 'lib', `evil${ESC}[31m`);
    await mkdir(folder);
    await writeFile(join(folder, 'SKILL.md'), HOSTILE_SKILL);
    const run = await runCli(['serve', '--stdio', '--no-watch', 'lib']);
    expect(run.code).toBe(0);
    expectInert(run, 'not served: ');
    expect(run.stderr.toString('utf8')).toContain('evil\\x1b[31m');
  });

  it('web: the reason line and the address are printed inert', async () => {
    await mkdir(join(tmp.path, 'renderer'));
    await writeFile(join(tmp.path, 'renderer', 'index.html'), '<!doctype html>');
    const run = await runCli(
      [
        'web',
        '--renderer-dir',
        join(tmp.path, 'renderer'),
        '--user-data',
        join(tmp.path, 'userdata'),
        '--reason',
        `Electron is missing${HOSTILE}`,
      ],
      /\?token=\S+/,
    );
    expectInert(run, 'Electron is missing\\x1b]0;owned');
  });

  describe('inspect: what a hostile server says', () => {
    let server: RunningServer;
    beforeAll(async () => {
      const skill = fixtureSkill(
        'evil',
        { name: `evil${HOSTILE}`, description: `Looks fine.${HOSTILE}\u202e` },
        {
          'SKILL.md': `---\nname: "evil\\e[2J"\ndescription: "Looks fine."\n---\n# ${HOSTILE}\n`,
        },
      );
      server = await startFixture({
        name: `evil-server${HOSTILE}`,
        extension: { directoryRead: false },
        listSkills: () => ({ skills: [skill.entry] }),
        getSkill: (uri) => (uri === skill.entry.uri ? skill.entry : undefined),
        files: skill.files,
      });
    });
    afterAll(async () => {
      await server.close();
    });

    it('the text listing, the verification and the Markdown report card are inert', async () => {
      const run = await runCli(['inspect', '--verify', '--report', 'md', server.url]);
      expectInert(run, `evil-server\\x1b]0;owned`);
      expect(run.stdout.toString('utf8')).toContain('Looks fine.\\x1b]0;owned');
    });

    it('--report json stays exact', async () => {
      const run = await runCli(['inspect', '--report', 'json', server.url]);
      const doc = JSON.parse(run.stdout.toString('utf8')) as {
        connection: { serverInfo?: { name: string } };
      };
      expect(doc.connection.serverInfo?.name).toBe(`evil-server${HOSTILE}`);
      expect(lowBytes(run.stderr)).toEqual([]);
    });
  });
});
