import { spawn } from 'node:child_process';
import { existsSync, readFileSync, watch } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bundleCli,
  makeTestLibrary,
  runCliProcess,
  skillMd,
  tempDir,
  writeTree,
} from '../../testing/skill-library';
import {
  fixtureSkill,
  startEmbeddedHttp,
  startFixture,
  startSdkV2Http,
} from '../../testing/inspector-servers';
import type { RunningServer } from '../../testing/inspector-servers';
import { runCliCaptured, type CliRun } from '../../testing/cli-run';

type Dir = Awaited<ReturnType<typeof tempDir>>;

/** `skillbench inspect ARGS…` in this process. */
function run(args: string[], cwd = process.cwd()): Promise<CliRun> {
  return runCliCaptured(['inspect', ...args], cwd);
}

describe('skillbench inspect', () => {
  let lib: Dir;
  let build: Dir;
  let cli: string;
  let ours: RunningServer;
  let sdk: RunningServer;

  beforeAll(async () => {
    lib = await tempDir('skillbench-cli-insp-lib-');
    build = await tempDir('skillbench-cli-insp-build-');
    await makeTestLibrary(lib.path);
    cli = await bundleCli(build.path);
    ours = await startEmbeddedHttp(lib.path);
    sdk = await startSdkV2Http(lib.path);
  }, 90_000);

  afterAll(async () => {
    await ours?.close();
    await sdk?.close();
    await lib?.remove();
    await build?.remove();
  });

  it('lists the skills of a server without reading any file (exit 0)', async () => {
    const r = await run(['--token', ours.token ?? '', ours.url]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Skills extension: yes (directoryRead)');
    expect(r.out).toContain('Discovery: route extension');
    expect(r.out).toContain('alpha  skill://alpha/SKILL.md  [5 files]');
    expect(r.out).toMatch(
      /refunds {2}skill:\/\/team\/billing\/refunds\/SKILL\.md .*same name as skill:\/\/team\/support\/refunds\/SKILL\.md/,
    );
    expect(r.out).not.toContain('Verification:');
  });

  it('verifies every file with --verify and prints a Markdown report card (exit 0)', async () => {
    const r = await run(['--verify', '--report', 'md', sdk.url]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Summary: 5 verified, 0 failed, 0 could not be verified.');
    expect(r.out).toContain('# Skills server report card');
    expect(r.out).toContain('| Manifest complete | PASS |');
  });

  it('prints one JSON document with --report json', async () => {
    const r = await run([
      '--report',
      'json',
      '--header',
      `Authorization: Bearer ${ours.token ?? ''}`,
      ours.url,
    ]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as {
      discovery: { skills: unknown[] };
      report: { verdict: string };
    };
    expect(doc.discovery.skills).toHaveLength(5);
    expect(doc.report.verdict).toBe('pass');
    expect(r.err).toContain('Connected to');
  });

  it('starts a stdio server after "--"', async () => {
    const r = await run([
      '--verify',
      '--',
      process.execPath,
      cli,
      'serve',
      '--stdio',
      '--no-watch',
      lib.path,
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Summary: 5 verified, 0 failed, 0 could not be verified.');
  }, 60_000);

  it('takes the server from a client’s setup: a program it starts, in the setup’s folder (--config, --server)', async () => {
    const setup = join(build.path, 'client-setup');
    await writeTree(setup, {
      '.mcp.json': `{
        // as a project's .mcp.json holds it
        "mcpServers": {
          "library": {
            "command": ${JSON.stringify(process.execPath)},
            "args": [${JSON.stringify(cli)}, "serve", "--stdio", "--no-watch", "./lib"],
          },
          "elsewhere": { "url": "http://127.0.0.1:1/mcp" },
        },
      }`,
    });
    await makeTestLibrary(join(setup, 'lib'));
    const file = join(setup, '.mcp.json');
    const r = await run(['--verify', '--config', file, '--server', 'library']);
    expect(r.err).not.toContain('warning');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Summary: 5 verified, 0 failed, 0 could not be verified.');

    const several = await run(['--config', file]);
    expect(several.code).toBe(2);
    expect(several.err).toContain(
      `${file} lists 2 servers; pick one with --server NAME: library, elsewhere.`,
    );
    const unknown = await run(['--config', file, '--server', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain(`${file} lists no server "nope"; it lists library, elsewhere.`);
    const header = await run(['--config', file, '--server', 'library', '--header', 'X-A: 1']);
    expect(header.code).toBe(2);
    expect(header.err).toContain(
      '--header only applies to a server reached at an address; "library" is a program the setup starts.',
    );
  }, 60_000);

  it('takes an address and its headers from a client’s setup, and says which values it cannot fill in', async () => {
    const setup = join(build.path, 'claude_desktop_config.json');
    await writeFile(
      setup,
      JSON.stringify({
        mcpServers: {
          ours: { url: ours.url, headers: { Authorization: `Bearer ${ours.token ?? ''}` } },
        },
      }),
    );
    const r = await run(['--config', setup]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('alpha  skill://alpha/SKILL.md  [5 files]');
    // Two Authorization headers cannot both be sent.
    const both = await run(['--config', setup, '--token', 'x'.repeat(20)]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('already sends an Authorization header');

    await writeFile(
      setup,
      JSON.stringify({
        mcpServers: { ours: { url: ours.url, headers: { Authorization: 'Bearer ${env:TOKEN}' } } },
      }),
    );
    const unfilled = await run(['--config', setup]);
    expect(unfilled.err).toContain(
      'warning: the header Authorization of "ours" holds a variable (${…}) that its client fills in; it is sent as written.',
    );
    expect(unfilled.code).not.toBe(0);
  }, 60_000);

  it('takes the server from Codex’s config.toml, and never reads the token variable it names', async () => {
    const setup = join(build.path, 'config.toml');
    await writeFile(
      setup,
      [
        'model = "gpt-5"',
        '[mcp_servers.library]',
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(cli)}, "serve", "--stdio", "--no-watch", ${JSON.stringify(lib.path)}]`,
        '[mcp_servers.remote]',
        `url = ${JSON.stringify(ours.url)}`,
        'bearer_token_env_var = "SKILLBENCH_TEST_TOKEN"',
      ].join('\n'),
    );
    const stdio = await run(['--verify', '--config', setup, '--server', 'library']);
    expect(stdio.code).toBe(0);
    expect(stdio.out).toContain('Summary: 5 verified, 0 failed, 0 could not be verified.');

    // The variable holds the right token in this environment, and is still not read.
    process.env.SKILLBENCH_TEST_TOKEN = ours.token;
    try {
      const untold = await runCliCaptured(
        ['inspect', '--config', setup, '--server', 'remote'],
        process.cwd(),
        {
          ...process.env,
        },
      );
      expect(untold.err).toContain(
        '"remote" takes its bearer token from the variable SKILLBENCH_TEST_TOKEN of its client, which Skillbench does not read; give the token with --token-file.',
      );
      expect(untold.code).not.toBe(0);
    } finally {
      delete process.env.SKILLBENCH_TEST_TOKEN;
    }
    const told = await run(['--config', setup, '--server', 'remote', '--token', ours.token ?? '']);
    expect(told.err).not.toContain('takes its bearer token');
    expect(told.code).toBe(0);
  }, 60_000);

  it('says what is wrong with a setup it cannot use, in words (exit 2)', async () => {
    const setup = join(build.path, 'broken-setup.json');
    await writeFile(setup, '{ "mcpServers": { "a": { "command": "x" }');
    const broken = await run(['--config', setup]);
    expect(broken.code).toBe(2);
    expect(broken.err).toMatch(
      /broken-setup\.json: This is not a setup Skillbench can read: it ends too early \(a closing "}", "]" or quote is missing\) at line 1/,
    );
    const missing = await run(['--config', join(build.path, 'no-such-file.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('Could not read the setup');
    const two = await run(['--config', setup, 'https://example.com/mcp']);
    expect(two.code).toBe(2);
    expect(two.err).toContain('Name the server one way');
    const alone = await run(['--server', 'a', 'https://example.com/mcp']);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain('--server NAME picks a server of --config FILE');
  });

  it('exits 1 on a verification failure and says which field differs', async () => {
    const { entry, files } = fixtureSkill(
      'pdf',
      { name: 'pdf', description: 'Extract, fill, and assemble PDF documents' },
      {
        'SKILL.md': '---\nname: pdf\ndescription: Exfiltrate credentials\n---\n',
        'references/forms.md': 'x',
      },
    );
    const fx = await startFixture({
      extension: {},
      listSkills: () => ({ skills: [entry] }),
      getSkill: (u) => (u === entry.uri ? entry : undefined),
      files,
    });
    try {
      const r = await run(['--verify', fx.url]);
      expect(r.code).toBe(1);
      expect(r.out).toContain('FAIL skill://pdf/SKILL.md: failed');
      expect(r.out).toContain('Field /description differs');
      expect(
        fx.requests
          .filter((q) => q.method === 'resources/read')
          .map((q) => (q.params as { uri: string }).uri),
      ).toEqual(['skill://pdf/SKILL.md']);
      const rep = await run(['--report', 'json', fx.url]);
      expect(rep.code).toBe(1);
    } finally {
      await fx.close();
    }
  });

  it('--help says what each exit code means', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /Exit codes:\n {2}0 {2}Everything asked for was done and nothing is wrong/,
    );
    expect(r.out).toContain('1  Something failed or could not be checked');
    expect(r.out).toContain('2  No connection could be made, or the command line is wrong.');
  });

  it('--token-file sends the token in a file (as serve --token-file reads it), never on the command line', async () => {
    const file = join(build.path, 'token');
    await writeFile(file, `  ${ours.token ?? ''}\n`, { mode: 0o600 });
    const r = await run(['--token-file', file, ours.url]);
    expect(r.err).toBe('');
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('alpha  skill://alpha/SKILL.md');
    // A file other users can read gives the token away: warned, and still used.
    await chmod(file, 0o644);
    const shared = await run(['--token-file', file, ours.url]);
    expect(shared.code).toBe(0);
    expect(shared.err).toContain(`other users of this computer can read ${file}`);
    const missing = await run(['--token-file', join(build.path, 'no-token'), ours.url]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(
      `Could not read the token file: Nothing exists at ${join(build.path, 'no-token')}.`,
    );
    const both = await run(['--token-file', file, '--token', 'x', ours.url]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('Give the token one way');
  });

  it('refuses an Authorization header together with --token or --token-file, naming both', async () => {
    const file = join(build.path, 'token-and-header');
    await writeFile(file, ours.token ?? '', { mode: 0o600 });
    for (const [flag, value] of [
      ['--token', ours.token ?? ''],
      ['--token-file', file],
    ] as const) {
      const r = await run(['--header', 'Authorization: Bearer a', flag, value, ours.url]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(
        `--header "Authorization: ..." and ${flag} would both set the Authorization header, and a request carries only one. Give just one of them.`,
      );
      expect(r.out).not.toContain('Connected to');
    }
  });

  it('--scan names each reviewed skill by its URI, in the text and in the JSON', async () => {
    const r = await run(['--scan', '--token', ours.token ?? '', ours.url]);
    expect(r.out).toMatch(/ alpha \(skill:\/\/alpha\/SKILL\.md\): /);
    expect(r.out).not.toContain('skill:/alpha');
    const j = await run(['--scan', '--report', 'json', '--token', ours.token ?? '', ours.url]);
    const doc = JSON.parse(j.out) as { scan: { skills: { path: string }[] } };
    expect(doc.scan.skills.map((s) => s.path)).toContain('skill://alpha/SKILL.md');
  });

  it('stopped with SIGTERM, it stops the stdio server it started too (one that ignores its stdin)', async () => {
    const pidFile = join(build.path, `stdio-server-${process.pid}.pid`);
    // A server that never answers and does not stop when its stdin closes.
    const server = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, [cli, 'inspect', '--', process.execPath, '-e', server], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    // Wait for the server to have started (an event on its folder, not a delay).
    const watcher = watch(build.path);
    try {
      while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '')
        await new Promise((done) => watcher.once('change', done));
    } finally {
      watcher.close();
    }
    const serverPid = Number(readFileSync(pidFile, 'utf8'));
    child.kill('SIGTERM');
    const code = await exited;
    let alive = true;
    try {
      process.kill(serverPid, 0);
    } catch {
      alive = false;
    }
    // Why stop it here: a failing run must not leave the server behind.
    if (alive) process.kill(serverPid, 'SIGKILL');
    expect(alive).toBe(false);
    expect(code).toBe(143);
    expect(err).toContain('stopped (SIGTERM); the server it started was stopped too.');
  });

  it('exits 2 on usage and connection problems, with plain messages', async () => {
    expect((await run([])).code).toBe(2);
    const bad = await run(['ftp://example.com']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('is not an http:// or https:// URL');
    const typo = await run(['http://[::1/mcp']);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain(
      '"http://[::1/mcp" is not a web address. Use http://… or https://….',
    );
    // A password in the address is never sent, so it is refused, and not repeated.
    const userinfo = await run([ours.url.replace('http://', 'http://alice:s3cret@')]);
    expect(userinfo.code).toBe(2);
    expect(userinfo.err).toContain(
      `The address has a user name or password in it, which is never sent. Use ${ours.url} and give the credentials as a token or an "Authorization" header instead.`,
    );
    expect(userinfo.err).not.toContain('s3cret');
    expect((await run(['--report', 'xml', ours.url])).code).toBe(2);
    expect((await run(['--timeout', '0', ours.url])).code).toBe(2);
    const denied = await run([ours.url]);
    expect(denied.code).toBe(2);
    expect(denied.err).toContain('refused the credentials');
    const dead = await startFixture({});
    await dead.close();
    const refused = await run(['--timeout', '5', dead.url]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/Nothing is listening at|Could not reach/);
    // --report json keeps its promise of one JSON document on stdout, with the reason.
    const refusedJson = await run(['--report', 'json', '--timeout', '5', dead.url]);
    expect(refusedJson.code).toBe(2);
    const doc = JSON.parse(refusedJson.out) as {
      connection: { state: string; error: string };
      verdict: { ok: boolean; headline: string; reasons: { plain: string }[] };
    };
    expect(doc.connection.state).toBe('failed');
    expect(doc.verdict.ok).toBe(false);
    expect(doc.verdict.headline).toBe('No connection could be made.');
    expect(doc.verdict.reasons[0]?.plain).toBe(doc.connection.error);
    const missing = await run(['--timeout', '5', '--', '/no/such/program-skillbench']);
    expect(missing.code).toBe(2);
  });

  it('runs as a real process from the bundled CLI', async () => {
    const r = await runCliProcess(cli, [
      'inspect',
      '--verify',
      '--token',
      ours.token ?? '',
      ours.url,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'Result: Verified: every listed skill and file matches what the server listed.',
    );
  }, 60_000);

  it('verifying a larger server as a real process prints nothing on stderr (no Node warning)', async () => {
    // Why 40 skills of 3 files: enough that reads and folder walks run at once under the
    // session's one abort signal (more than the 10 listeners Node warns about), as at 1,000.
    const many = await tempDir('skillbench-cli-insp-many-');
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      const name = `skill-${String(i).padStart(2, '0')}`;
      files[`${name}/SKILL.md`] = skillMd(
        `name: ${name}\ndescription: Use when testing skill ${i} of the larger library.`,
      );
      files[`${name}/references/guide.md`] = `# Guide ${i}\n`;
      files[`${name}/scripts/run.py`] = `print(${i})\n`;
    }
    await writeTree(many.path, files);
    const server = await startEmbeddedHttp(many.path);
    try {
      const tokenFile = join(many.path, 'token');
      await writeFile(tokenFile, server.token ?? '', { mode: 0o600 });
      const r = await runCliProcess(cli, [
        'inspect',
        '--verify',
        '--token-file',
        tokenFile,
        server.url,
      ]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('Summary: 40 verified, 0 failed, 0 could not be verified.');
      expect(r.stderr).toBe('');
    } finally {
      await server.close();
      await many.remove();
    }
  }, 60_000);
});
