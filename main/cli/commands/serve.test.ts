/**
 * `skillbench serve --http` takes its token from SKILLBENCH_TOKEN or --token-file, so it never
 * appears in the process list that every local user can read; `--token` still works but warns.
 * The servers run as real child processes on 127.0.0.1 and stop with SIGTERM.
 */
import { readFile, rename, symlink, writeFile, chmod } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { captureIO } from '../support/capture-io';
import { runCli } from '../run';
import {
  bundleCli,
  makeTestLibrary,
  runCliProcess,
  skillMd,
  startServeProcess,
  tempDir,
  writeTree,
} from '../../testing/skill-library';
import type { ServeProcess } from '../../testing/skill-library';

const TOKEN = 'a-token-nobody-else-can-read-0123';

let lib: Awaited<ReturnType<typeof tempDir>>;
let build: Awaited<ReturnType<typeof tempDir>>;
let cli: string;

beforeAll(async () => {
  lib = await tempDir();
  await makeTestLibrary(lib.path);
  build = await tempDir('skillbench-cli-');
  cli = await bundleCli(build.path);
}, 120_000);

afterAll(async () => {
  await lib?.remove();
  await build?.remove();
});

/** Connect with `token`, list resources, and close; rejects when the server refuses the token. */
async function canUse(url: string, token: string): Promise<boolean> {
  const client = new Client({ name: 'serve-test', version: '1' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    await client.listResources();
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** What every local user can read about the process: its command line. */
async function commandLine(server: ServeProcess): Promise<string> {
  return (await readFile(`/proc/${server.child.pid}/cmdline`, 'utf8')).split('\0').join(' ');
}

async function withServer(
  args: string[],
  env: Record<string, string | undefined>,
  check: (server: ServeProcess) => Promise<void>,
): Promise<void> {
  const server = await startServeProcess(cli, [...args, '--no-watch', lib.path], { env });
  let failure: Error | undefined;
  try {
    await check(server);
  } catch (e) {
    failure = e instanceof Error ? e : new Error(String(e));
  }
  // Stop first, then report the check's failure: the process must not outlive the test.
  const code = await server.stop();
  if (failure) throw failure;
  expect(code).toBe(0);
}

describe('serve --http: where the token comes from', () => {
  it('--help says to use SKILLBENCH_TOKEN or --token-file, that --token is visible to others, and the minimum length', async () => {
    const io = captureIO(lib.path);
    expect(await runCli(['serve', '--help'], io)).toBe(0);
    expect(io.out).toContain('SKILLBENCH_TOKEN');
    expect(io.out).toContain('--token-file PATH');
    expect(io.out).toContain('at least 16 characters');
    expect(io.out).toMatch(
      /--token T\s+Still accepted, but the token is then visible to every user/,
    );
  });

  it('reads the token from SKILLBENCH_TOKEN: it is not in the command line nor printed, and clients need it', async () => {
    await withServer(['--http'], { SKILLBENCH_TOKEN: TOKEN }, async (server) => {
      expect(await commandLine(server)).not.toContain(TOKEN);
      expect(server.stderr()).not.toContain(TOKEN);
      expect(server.stderr()).toContain('the SKILLBENCH_TOKEN environment variable');
      expect(await canUse(server.url, TOKEN)).toBe(true);
      expect(await canUse(server.url, `${TOKEN}-wrong`)).toBe(false);
    });
  });

  it('reads the token from --token-file, and warns when other users can read the file', async () => {
    const folder = await tempDir('skillbench-token-');
    const file = join(folder.path, 'token.txt');
    await writeFile(file, `${TOKEN}\n`);
    try {
      await chmod(file, 0o600);
      await withServer(['--http', '--token-file', file], {}, async (server) => {
        expect(await commandLine(server)).not.toContain(TOKEN);
        expect(server.stderr()).not.toContain('warning');
        expect(await canUse(server.url, TOKEN)).toBe(true);
      });
      await chmod(file, 0o644);
      await withServer(['--http', '--token-file', file], {}, async (server) => {
        expect(server.stderr()).toContain(`other users of this computer can read ${file}`);
        expect(await canUse(server.url, TOKEN)).toBe(true);
      });
    } finally {
      await folder.remove();
    }
  });

  it('--token still works, with a warning that other users can see it', async () => {
    await withServer(['--http', '--token', TOKEN], {}, async (server) => {
      expect(server.stderr()).toContain(
        'a token given with --token is visible to every user of this computer in the process list',
      );
      expect(await canUse(server.url, TOKEN)).toBe(true);
    });
  });

  it('refuses a token shorter than 16 characters, and two sources at once, with exit code 2', async () => {
    const short = captureIO(lib.path, { SKILLBENCH_TOKEN: 'too-short' });
    expect(await runCli(['serve', '--http', lib.path], short)).toBe(2);
    expect(short.err).toContain(
      'The token from the SKILLBENCH_TOKEN environment variable is 9 characters long; it must be at least 16.',
    );
    const both = captureIO(lib.path);
    expect(
      await runCli(['serve', '--http', '--token', TOKEN, '--token-file', 'x', lib.path], both),
    ).toBe(2);
    expect(both.err).toContain('Give the token one way');
    const stdio = captureIO(lib.path);
    expect(await runCli(['serve', '--stdio', '--token-file', 'x', lib.path], stdio)).toBe(2);
  });
});

/** Resolves once the server's stderr matches `pattern`; rejects when the process ends first. */
function stderrSays(server: ServeProcess, pattern: RegExp | string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const text = server.stderr();
      if (typeof pattern === 'string' ? !text.includes(pattern) : !pattern.test(text)) return;
      server.child.stderr?.off('data', check);
      resolve();
    };
    server.child.stderr?.on('data', check);
    void server.exited.then((code) =>
      reject(
        new Error(`serve exited (${code}) before saying ${String(pattern)}:\n${server.stderr()}`),
      ),
    );
    check();
  });
}

describe('serve --http: the address and port come first', () => {
  it('fails at once on a busy port, before reading the library, with the port in plain words', async () => {
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as AddressInfo;
    try {
      const run = await runCliProcess(
        cli,
        ['serve', '--http', '--port', String(port), '--no-watch', lib.path],
        { env: { SKILLBENCH_TOKEN: TOKEN } },
      );
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(
        `Port ${port} on 127.0.0.1 is already in use by another program. Choose another port, or leave the port out to use a free one.`,
      );
      // The library was never read: nothing was reported as served or not served.
      expect(run.stderr).not.toMatch(/serving \d+ skill|not served/);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  // Why Linux only: there every 127.x.x.x address is this computer's; macOS has only 127.0.0.1 unless more are added.
  it.runIf(process.platform === 'linux')(
    'serves on another loopback address, 127.0.0.2, without --allow-remote, and clients reach it',
    async () => {
      await withServer(['--host', '127.0.0.2'], { SKILLBENCH_TOKEN: TOKEN }, async (server) => {
        expect(server.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/mcp$/);
        expect(await canUse(server.url, TOKEN)).toBe(true);
      });
    },
  );

  it('refuses an address other computers reach, saying which addresses are used without --allow-remote', async () => {
    const run = await runCliProcess(cli, ['serve', '--http', '--host', '192.0.2.1', lib.path], {
      env: { SKILLBENCH_TOKEN: TOKEN },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      "Refusing to listen on 192.0.2.1: other computers on the network could reach it there. Only this computer's own loopback addresses (127.0.0.1, any other 127.x.x.x, ::1) are used",
    );
    expect(run.stderr).not.toMatch(/serving \d+ skill/);
  });
});

describe('serve: files of a served skill that clients cannot read', () => {
  it('names a link inside the skill, which is never served, and says why in plain words', async () => {
    const dir = await tempDir();
    await writeTree(dir.path, {
      'notes/SKILL.md': skillMd(
        'name: notes\ndescription: Take notes when asked.',
        'See [the guide](guide-link.md).',
      ),
      'notes/guide.md': 'How to take notes.\n',
    });
    await symlink('guide.md', join(dir.path, 'notes', 'guide-link.md'));
    const server = await startServeProcess(cli, ['--no-watch', dir.path], {
      env: { SKILLBENCH_TOKEN: TOKEN },
    });
    try {
      expect(server.stderr()).toContain('serving 1 skill from');
      expect(server.stderr()).toContain(
        '  served without some files: skill://notes/SKILL.md\n    - guide-link.md: It is a symbolic link, and links are never served, so clients cannot read it by this name. Refer to what it points to by its own name, or put a copy here instead.\n',
      );
    } finally {
      await server.stop();
      await dir.remove();
    }
  });
});

describe('serve: the folders change while serving', () => {
  it('says on stderr which skill is no longer served and why, for one edited into a mistake and one added broken', async () => {
    const dir = await tempDir();
    await writeTree(dir.path, {
      'notes/SKILL.md': skillMd('name: notes\ndescription: Take notes when asked.'),
    });
    const server = await startServeProcess(cli, [dir.path], { env: { SKILLBENCH_TOKEN: TOKEN } });
    try {
      expect(server.stderr()).toContain('serving 1 skill from');
      await writeTree(dir.path, {
        'notes/SKILL.md': skillMd('name: Notes Skill\ndescription: Take notes when asked.'),
      });
      await stderrSays(server, /no longer served: skill:\/\/notes\/SKILL\.md/);
      await stderrSays(server, /not served: \S+\/notes\n {4}- /);
      // A skill added broken changes nothing a client sees; the person serving it is told anyway.
      await writeTree(dir.path, {
        'later/SKILL.md': skillMd('name: other-name\ndescription: Added while serving.'),
      });
      await stderrSays(server, /not served: \S+\/later\n {4}- \S.*other-name/);
      expect(await canUse(server.url, TOKEN)).toBe(true);
    } finally {
      await server.stop();
      await dir.remove();
    }
  });
  it('says a library folder was moved away while served, what is still served, and serves it again when it is back', async () => {
    const moved = await tempDir();
    const kept = await tempDir();
    const lib1 = join(moved.path, 'LIB');
    await writeTree(lib1, {
      'notes/SKILL.md': skillMd('name: notes\ndescription: Take notes when asked.'),
    });
    await writeTree(kept.path, {
      'todo/SKILL.md': skillMd('name: todo\ndescription: Keep a to-do list when asked.'),
    });
    const server = await startServeProcess(cli, [lib1, kept.path], {
      env: { SKILLBENCH_TOKEN: TOKEN },
    });
    try {
      expect(server.stderr()).toContain('serving 2 skills');
      await rename(lib1, `${lib1}.x`);
      await stderrSays(
        server,
        `The library folder ${lib1} was moved or deleted while it was being served, so its skills are no longer served; the skills of the other library folders still are. Put it back at this path to serve them again.`,
      );
      expect(server.stderr()).toMatch(/the folders changed; serving 1 skill\./);
      expect(server.stderr()).toContain('no longer served: skill://notes/SKILL.md');
      expect(server.stderr()).not.toContain('Check the spelling');
      await rename(`${lib1}.x`, lib1);
      await stderrSays(server, 'now served: skill://notes/SKILL.md');
      expect(await canUse(server.url, TOKEN)).toBe(true);
    } finally {
      await server.stop();
      await moved.remove();
      await kept.remove();
    }
  });
});
