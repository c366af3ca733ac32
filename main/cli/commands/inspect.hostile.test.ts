// The real `skillbench inspect --verify` (the bundled CLI as a child process) against servers that
// misbehave in one way each (main/testing/hostile-servers.ts): the exit code and the verdict in
// plain words tell the truth, and what the inspector must not read, the server's own request log
// shows it never asked for (SECURITY.md "Remote skill servers").
import { grouped } from '../../../shared/text/words';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture } from '../../testing/inspector-servers';
import {
  bundleHostileStdioServer,
  HOSTILE_SCENARIOS,
  OVER_16_MIB,
  PDF_FORMS,
  PDF_SKILL_MD,
} from '../../testing/hostile-servers';
import type { HostileName } from '../../testing/hostile-servers';
import { bundleCli, runCliProcess, tempDir } from '../../testing/skill-library';
import type { FinishedProcess } from '../../testing/skill-library';

type Dir = Awaited<ReturnType<typeof tempDir>>;

/** What a crash prints: a stack frame or an uncaught error's name. */
const CRASH = /^\s+at |TypeError|Uncaught|node:internal|Node\.js v/m;

interface Inspected extends FinishedProcess {
  /** Every request the server received, in order. */
  requests: { method: string; params: unknown }[];
  /** The URIs of its `resources/read` requests. */
  reads: string[];
  neverRead: string[];
}

function readsOf(requests: { method: string; params: unknown }[]): string[] {
  return requests
    .filter((r) => r.method === 'resources/read')
    .map((r) => (r.params as { uri: string }).uri);
}

let build: Dir;
let cli: string;
let stdioServer: string;
beforeAll(async () => {
  build = await tempDir('sb-inspect-hostile-');
  cli = await bundleCli(build.path);
  stdioServer = await bundleHostileStdioServer(build.path);
}, 120_000);
afterAll(async () => {
  await build?.remove();
});

/** `skillbench inspect --verify [args] URL` against the scenario served over Streamable HTTP. */
async function overHttp(name: HostileName, args: string[] = ['--verify']): Promise<Inspected> {
  const { spec, neverRead } = HOSTILE_SCENARIOS[name]();
  const server = await startFixture(spec);
  try {
    const run = await runCliProcess(cli, ['inspect', ...args, server.url], {
      cwd: build.path,
    });
    return { ...run, requests: server.requests, reads: readsOf(server.requests), neverRead };
  } finally {
    await server.close();
  }
}

/** `skillbench inspect [args] -- node hostile-stdio-server.mjs NAME LOG` (a child of the CLI). */
async function overStdio(name: HostileName, args: string[] = ['--verify']): Promise<Inspected> {
  const { neverRead } = HOSTILE_SCENARIOS[name]();
  const log = join(build.path, `${name}-${Date.now()}.jsonl`);
  await writeFile(log, '');
  const run = await runCliProcess(
    cli,
    ['inspect', ...args, '--', process.execPath, stdioServer, name, log],
    { cwd: build.path },
  );
  const requests = (await readFile(log, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method: string; params: unknown });
  return { ...run, requests, reads: readsOf(requests), neverRead };
}

/** Exit 1, the verdict "Not verified." with each plain sentence, nothing read that must not be. */
function expectNotVerified(r: Inspected, ...says: (string | RegExp)[]): void {
  expect(r.stdout).toContain('Result: Not verified.');
  expectExit1(r, ...says);
}

/** Exit 1 without a crash, each plain sentence on stdout, nothing read that must not be. */
function expectExit1(r: Inspected, ...says: (string | RegExp)[]): void {
  expect(r.stderr).not.toMatch(CRASH);
  expect(r.code, r.stdout + r.stderr).toBe(1);
  for (const s of says)
    if (typeof s === 'string') expect(r.stdout).toContain(s);
    else expect(r.stdout).toMatch(s);
  for (const uri of r.neverRead) expect(r.reads).not.toContain(uri);
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

describe('skillbench inspect --verify: exit 0 only when everything was verified', () => {
  it('an honest server over HTTP: exit 0, and each skill counts the bytes read for it alone', async () => {
    const r = await overHttp('honest');
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(
      'Result: Verified: every listed skill and file matches what the server listed.',
    );
    expect(r.stdout).toContain('Summary: 3 verified, 0 failed, 0 could not be verified.');
    // Three skills are verified at once; each line counts only its own files' bytes.
    const { files } = HOSTILE_SCENARIOS.honest().spec;
    const sum = (prefix: string): number =>
      Object.entries(files ?? {})
        .filter(([uri]) => uri.startsWith(prefix))
        .reduce((n, [, f]) => n + bytes(f.text ?? ''), 0);
    expect(r.stdout).toContain(
      `ok   skill://pdf/SKILL.md: verified (2 files, ${(bytes(PDF_SKILL_MD) + bytes(PDF_FORMS)).toLocaleString('en-US')} bytes read)`,
    );
    expect(r.stdout).toContain(
      `ok   skill://notes/SKILL.md: verified (1 file, ${sum('skill://notes/').toLocaleString('en-US')} bytes read)`,
    );
    expect(r.stdout).toContain(
      `ok   skill://charts/SKILL.md: verified (3 files, ${sum('skill://charts/').toLocaleString('en-US')} bytes read)`,
    );
  });

  it('an honest server over stdio: exit 0', async () => {
    const r = await overStdio('honest');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Summary: 3 verified, 0 failed, 0 could not be verified.');
    expect(r.reads).toHaveLength(6);
  });

  it('no server listening: exit 2, a plain sentence, no stack trace', async () => {
    const dead = await startFixture({});
    await dead.close();
    const r = await runCliProcess(cli, ['inspect', '--verify', '--timeout', '5', dead.url], {
      cwd: build.path,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Nothing is listening at|Could not reach/);
    expect(r.stderr).not.toMatch(CRASH);
  });
});

describe('skillbench inspect --verify exits 1 on a server that lies about its files', () => {
  it('wrong digest', async () => {
    expectNotVerified(
      await overHttp('wrong-digest'),
      'FAIL skill://pdf/SKILL.md: failed',
      'references/forms.md failed verification.',
      'does not match the listed digest',
      '1 skill failed verification',
    );
  });

  it('wrong digest, with --report only: the last line says the card failed and why', async () => {
    const r = await overHttp('wrong-digest', ['--report', 'md']);
    expectExit1(
      r,
      'Result: The server fails the report card.',
      'The report card failed 1 check.',
      'detail: Digests and sizes:',
    );
    expect(r.stdout).not.toContain('No file was read');
  });

  it('wrong size', async () => {
    expectNotVerified(
      await overHttp('wrong-size'),
      'references/forms.md failed verification.',
      `The listing says ${bytes(PDF_FORMS) + 7} bytes, the server sent ${bytes(PDF_FORMS)}.`,
    );
  });

  it('a file the manifest does not list, found by the folder walk: never read', async () => {
    const r = await overHttp('unlisted-file');
    expectNotVerified(
      r,
      "scripts/evil.sh is not in the skill's listing.",
      "the skill's manifest does not; it was not read",
    );
    expect(r.reads).toEqual(['skill://pdf/SKILL.md', 'skill://pdf/references/forms.md']);
  });

  it("the listing's frontmatter differs from the served SKILL.md: the skill's other files are never read", async () => {
    const r = await overHttp('frontmatter-mismatch');
    expectNotVerified(
      r,
      'SKILL.md failed verification.',
      'Field /description differs',
      'references/forms.md was not read.',
    );
    expect(r.reads).toEqual(['skill://pdf/SKILL.md']);
  });

  it('a file listed small but sent over 16 MiB: not used, a mismatch', async () => {
    expectNotVerified(
      await overHttp('oversize-file'),
      'references/forms.md failed verification.',
      `is ${grouped(OVER_16_MIB)} bytes, more than the 16,777,216-byte bound for one file; it was not used.`,
    );
  });
});

describe('skillbench inspect --verify exits 1 when it could not verify', () => {
  it('an endless cursor: the listing stops at the page bound', async () => {
    const r = await overHttp('endless-cursor', ['--verify', '--max-pages', '5']);
    expectNotVerified(
      r,
      "The server's list of skills could not be read to the end, so skills may be missing.",
      'Stopped skills/list after 5 pages',
    );
    expect(r.requests.filter((q) => q.method === 'skills/list')).toHaveLength(5);
  });

  it('a repeated cursor: the listing stops at once', async () => {
    const r = await overHttp('repeated-cursor');
    expectNotVerified(
      r,
      "The server's list of skills could not be read to the end, so skills may be missing.",
      'the server returned the same cursor twice',
    );
    expect(r.requests.filter((q) => q.method === 'skills/list')).toHaveLength(2);
  });

  it('a file listed at over 16 MiB: the skill is not read at all', async () => {
    const r = await overHttp('oversize-listed-file');
    expectNotVerified(
      r,
      'FAIL skill://pdf/SKILL.md: could not be verified',
      'more than the 16,777,216 bytes a host must accept; the skill was not read.',
      '1 skill could not be verified',
    );
    expect(r.reads).toEqual([]);
  });

  it('a listing of 513 files for one skill: the skill is not read at all', async () => {
    const r = await overHttp('oversize-listing');
    expectNotVerified(
      r,
      'The manifest lists 513 files, more than the 512 a host must accept; the skill was not read.',
      /513 files could not be checked: SKILL\.md, references\/forms\.md, .* and 508 more\./,
    );
    expect(r.reads).toEqual([]);
  });

  it('a read that never answers: a timeout, and no other file of the skill is read', async () => {
    // Why 5 s: far longer than any other answer of a local server takes on a busy machine; the
    // stalled read never answers at all, so the outcome does not depend on how long anything took.
    const r = await overHttp('read-never-answers', ['--verify', '--timeout', '5']);
    expectNotVerified(
      r,
      'FAIL skill://pdf/SKILL.md: could not be verified',
      'did not answer within 5 seconds',
      'references/forms.md was not read.',
    );
    expect(r.reads).toEqual(['skill://pdf/SKILL.md']);
  });

  it('the connection closes in the middle of the listing (HTTP)', async () => {
    const r = await overHttp('closes-mid-listing');
    expectNotVerified(r, 'Listing the skills failed, so skills may be missing.');
    // The second page was asked for; the server dropped it before its MCP handler saw it.
    expect(r.requests.filter((q) => q.method === 'skills/list')).toHaveLength(1);
  });

  it('the server exits in the middle of the listing (stdio)', async () => {
    const r = await overStdio('closes-mid-listing');
    expectNotVerified(
      r,
      'Listing the skills failed, so skills may be missing.',
      'closed the connection',
    );
    expect(r.requests.filter((q) => q.method === 'skills/list')).toHaveLength(2);
  });

  it('garbage on stdout (stdio): the skill verifies, the channel does not, shown inert', async () => {
    const r = await overStdio('garbage-on-stdout');
    expectNotVerified(
      r,
      'ok   skill://pdf/SKILL.md: verified',
      /The server wrote \d+ lines on its output that are not MCP messages, so its answers cannot be trusted\./,
    );
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('\\x1b');
  });
});

describe('skillbench inspect --verify exits 1 on a listing that reaches outside the skill, and never reads it', () => {
  const cases: [HostileName, string][] = [
    ['dot-dot', 'The URI tries to step to a parent folder ("..").'],
    ['encoded-dot-dot', 'The URI tries to step to a parent folder ("..").'],
    ['query-in-uri', 'The URI has a query ("?"), which no skill file has.'],
    ['file-uri', '"file:///etc/passwd" is a file: URI, which is refused'],
    ['other-skill-file', '"skill://admin/credentials.md" is outside the skill folder skill://pdf.'],
  ];
  for (const [name, reason] of cases) {
    it(`${name}: the skill fails and nothing of it is read`, async () => {
      const r = await overHttp(name);
      expectNotVerified(
        r,
        'FAIL skill://pdf/SKILL.md: failed',
        'The manifest lists a file that is not part of the skill:',
        reason,
        'It was not read.',
        'the listing of this skill is faulty, so the skill was not loaded',
      );
      expect(r.reads).toEqual([]);
    });
  }

  it("over stdio too: another skill's file is never read", async () => {
    const r = await overStdio('other-skill-file');
    expectNotVerified(r, '"skill://admin/credentials.md" is outside the skill folder skill://pdf.');
    expect(r.reads).toEqual([]);
  });

  it('a name that differs from the last segment of its URI fails the skill', async () => {
    const r = await overHttp('name-mismatch');
    expectNotVerified(
      r,
      'FAIL skill://pdf/SKILL.md: failed',
      'The skill is called "word", but its address ends in "pdf"; the two must be the same.',
    );
    expect(r.reads).toEqual([]);
  });
});

describe('skillbench inspect without --verify judges the listing alone, and reads nothing', () => {
  it('an honest listing: exit 0, and no file is read', async () => {
    const r = await overHttp('honest', []);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'Result: The whole listing was read. No file was read or verified (add --verify for that).',
    );
    expect(r.reads).toEqual([]);
  });

  it('a listing cut short: exit 1', async () => {
    const r = await overHttp('repeated-cursor', []);
    expectExit1(
      r,
      'Result: The listing is not complete or not clean.',
      "The server's list of skills could not be read to the end, so skills may be missing.",
    );
    expect(r.reads).toEqual([]);
  });

  it('a name that is not the last segment of its URI: exit 1', async () => {
    const r = await overHttp('name-mismatch', []);
    expectExit1(
      r,
      '1 skill in the listing breaks the rules, so it would fail verification.',
      'problem: The skill is called "word", but its address ends in "pdf"; the two must be the same.',
    );
    expect(r.reads).toEqual([]);
  });
});
