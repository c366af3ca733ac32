/**
 * Interop with independent implementations, on both protocol revisions (README, "Interop"):
 * the official MCP Inspector CLI, the MCP conformance suite, and the official SDK v2 skills
 * client. The first two download from the npm registry through `npx` (Node 22 comes from the
 * registry too, since they need Node ≥ 22), so the timeouts are generous.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { startHttpHost } from './http-host';
import type { HttpHost } from './http-host';
import { LiveCatalog } from './live-catalog';
import {
  bundleCli,
  makeTestLibrary,
  makeTrickyLibrary,
  tempDir,
  TEST_LIBRARY_SERVED,
  TRICKY_LIBRARY_SERVED,
} from '../testing/skill-library';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
// The newest release of the suite, the first with the SEP-2640 scenarios (its `latest` tag, 0.1.16, has none).
const CONFORMANCE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const NPX_TIMEOUT = 240_000;
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

function run(
  command: string,
  args: string[],
  options: { timeout?: number; cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        timeout: options.timeout ?? NPX_TIMEOUT,
        cwd: options.cwd,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, npm_config_yes: 'true', npm_config_update_notifier: 'false' },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

function npx22(pkg: string, command: string, cwd?: string): ReturnType<typeof run> {
  return run('npx', ['-y', '-p', 'node@22', '-p', pkg, '-c', command], { cwd });
}

/**
 * The conformance suite's server scenarios we claim, with the wires each is run on: `default`
 * is the wire the suite picks itself (2026-07-28 for the Skills extension's scenarios and for
 * those the 2026-07-28 revision introduced, 2025-11-25 for the older ones).
 */
const SERVER_SCENARIOS: [scenario: string, wires: ('default' | typeof MODERN | typeof LEGACY)[]][] =
  [
    ['sep-2640-skills-enumeration', ['default', LEGACY]],
    ['sep-2640-skills-manifest', ['default', LEGACY]],
    ['sep-2640-skills-directory', ['default', LEGACY]],
    ['server-initialize', ['default']],
    ['dns-rebinding-protection', ['default', MODERN]],
    ['sep-2164-resource-not-found', ['default', LEGACY]],
    ['http-header-validation', ['default']],
    ['caching', ['default']],
    ['server-stateless', ['default']],
  ];

/**
 * Warnings the suite may give: the test library serves two skills named `refunds` on purpose
 * (SEP-2640: names SHOULD be unique but are not guaranteed to be; hosts must tell them apart).
 */
const ALLOWED_WARNINGS = ['sep-2640-names-should-be-unique'];

/**
 * Checks of `server-stateless` that need the suite's own diagnostic tools (`test_missing_capability`,
 * `test_trigger_prompt_change`), which a skills server does not have. The suite fails the run if
 * any of them starts passing (a stale baseline), so this list cannot hide a regression elsewhere.
 */
const EXPECTED_FAILURES = `server:
  - server-stateless:sep-2575-server-rejects-undeclared-capability
  - server-stateless:sep-2575-missing-capability-http-400
  - server-stateless:sep-2575-server-sends-prompts-list-changed-on-subscription
`;

describe('interop with official MCP tools', () => {
  let lib: Awaited<ReturnType<typeof tempDir>>;
  let tricky: Awaited<ReturnType<typeof tempDir>>;
  let build: Awaited<ReturnType<typeof tempDir>>;
  let cli: string;
  let baseline: string;
  let catalog: LiveCatalog;
  let trickyCatalog: LiveCatalog;
  let open: HttpHost;
  let secured: HttpHost;
  let trickyHost: HttpHost;
  const openLog: string[] = [];

  beforeAll(async () => {
    lib = await tempDir();
    await makeTestLibrary(lib.path);
    tricky = await tempDir('skillbench-tricky-');
    await makeTrickyLibrary(tricky.path);
    build = await tempDir('skillbench-cli-');
    cli = await bundleCli(build.path);
    baseline = join(build.path, 'expected-failures.yml');
    await writeFile(baseline, EXPECTED_FAILURES);
    catalog = new LiveCatalog([lib.path], { watch: false });
    await catalog.load();
    trickyCatalog = new LiveCatalog([tricky.path], { watch: false });
    await trickyCatalog.load();
    // The conformance CLI cannot send an Authorization header: the test-only no-token mode, loopback only.
    open = await startHttpHost(catalog, {
      insecureNoAuthLoopbackOnly: true,
      onRequest: (e) => openLog.push(e.method),
    });
    secured = await startHttpHost(catalog, {});
    trickyHost = await startHttpHost(trickyCatalog, {});
  }, 120_000);

  afterAll(async () => {
    await open?.close();
    await secured?.close();
    await trickyHost?.close();
    catalog?.close();
    trickyCatalog?.close();
    await lib?.remove();
    await tricky?.remove();
    await build?.remove();
  });

  it('the tricky library is served whole: every skill, every file', () => {
    expect(trickyCatalog.current.excluded).toEqual([]);
    expect(
      trickyCatalog.current.skills.map((s) => [s.skillPath, s.files.length] as [string, number]),
    ).toEqual(TRICKY_LIBRARY_SERVED);
  });

  describe('the official MCP Inspector CLI', () => {
    const stdioServer = (): string =>
      [process.execPath, cli, 'serve', '--stdio', lib.path].map(shellQuote).join(' ');

    it(
      `skills/list --verify against our stdio server exits 0 (${LEGACY}, its default)`,
      async () => {
        const r = await npx22(
          INSPECTOR,
          `mcp-inspector --cli ${stdioServer()} --method skills/list --verify`,
        );
        expect(r.stdout + r.stderr).toContain(`Verified ${TEST_LIBRARY_SERVED.length} skills`);
        expect(r.code).toBe(0);
      },
      NPX_TIMEOUT + 10_000,
    );

    it(
      `skills/list --verify --protocol-era modern against our stdio server exits 0 (${MODERN})`,
      async () => {
        // Why this proves the revision: "modern" pins 2026-07-28, with no fallback.
        const r = await npx22(
          INSPECTOR,
          `mcp-inspector --cli ${stdioServer()} --method skills/list --verify --protocol-era modern`,
        );
        expect(r.stdout + r.stderr).toContain(`Verified ${TEST_LIBRARY_SERVED.length} skills`);
        expect(r.code).toBe(0);
      },
      NPX_TIMEOUT + 10_000,
    );

    it(
      `skills/list --verify --protocol-era modern against our HTTP server exits 0 (${MODERN})`,
      async () => {
        const header = shellQuote(`Authorization: Bearer ${secured.token ?? ''}`);
        const r = await npx22(
          INSPECTOR,
          `mcp-inspector --cli ${secured.url} --header ${header} --method skills/list --verify --protocol-era modern`,
        );
        expect(r.stdout + r.stderr).toContain(`Verified ${TEST_LIBRARY_SERVED.length} skills`);
        expect(r.code).toBe(0);
      },
      NPX_TIMEOUT + 10_000,
    );
  });

  describe('the MCP conformance suite', () => {
    for (const [scenario, wires] of SERVER_SCENARIOS)
      for (const wire of wires)
        it(
          `${scenario} passes against our HTTP server (${wire === 'default' ? 'its default wire' : wire})`,
          async () => {
            const spec = wire === 'default' ? '' : ` --spec-version ${wire} --force`;
            const expected =
              scenario === 'server-stateless' ? ` --expected-failures ${baseline}` : '';
            const logged = openLog.length;
            const r = await npx22(
              CONFORMANCE,
              `conformance server --url ${open.url} --scenario ${scenario}${spec}${expected}`,
              build.path,
            );
            // eslint-disable-next-line no-control-regex -- the suite colours its output
            const out = (r.stdout + r.stderr).replace(/\x1b\[[0-9;]*m/g, '');
            if (expected) expect(out, out).toContain('Baseline check passed');
            else {
              expect(out, out).toMatch(/Passed: (\d+)\/\1, 0 failed/);
              const warned = [...out.matchAll(/\[([\w-]+)\s*\]\s*WARNING/g)].map((m) => m[1]);
              expect(warned, out).toEqual(
                warned.filter((id) => ALLOWED_WARNINGS.includes(id ?? '')),
              );
            }
            expect(r.code, out).toBe(0);
            // Which revision the suite spoke: only 2026-07-28 clients ask server/discover.
            if (scenario.startsWith('sep-2640-'))
              expect(openLog.slice(logged).includes('server/discover')).toBe(wire === 'default');
          },
          NPX_TIMEOUT + 10_000,
        );
  });

  async function verifyAll(
    client: Client,
    served: [string, number][],
    root: string,
  ): Promise<number> {
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.uri)).toEqual(served.map(([p]) => `skill://${p}/SKILL.md`));
    let files = 0;
    for (const entry of listing.skills) {
      const got = await skills.get(entry.uri);
      expect(got.skill).toEqual(entry);
      const resources = entry.resources as { uri: string; digest: string; size: number }[];
      expect(resources).toHaveLength(
        served.find(([p]) => entry.uri === `skill://${p}/SKILL.md`)?.[1] ?? -1,
      );
      for (const r of resources) {
        const file = await skills.read(entry, r.uri);
        expect(file.verified).toBe(true);
        expect(`sha256:${createHash('sha256').update(file.bytes).digest('hex')}`).toBe(r.digest);
        // The bytes are the ones on disk, whatever their encoding or name.
        const path = decodeURIComponent(r.uri.slice('skill://'.length)).split('/');
        expect(Buffer.from(file.bytes).equals(await readFile(join(root, ...path)))).toBe(true);
        files++;
      }
      const dir = await skills.readDirectory(entry.uri.replace(/\/SKILL\.md$/, ''));
      expect(dir.resources.some((c) => c.uri === entry.uri)).toBe(true);
    }
    return files;
  }

  const LIBRARY_FILES = 10;
  const TRICKY_FILES = TRICKY_LIBRARY_SERVED.reduce((n, [, count]) => n + count, 0);

  for (const era of ['legacy', 'auto'] as const) {
    const revision = era === 'auto' ? MODERN : LEGACY;
    const connectHttp = async (host: HttpHost): Promise<Client> => {
      const client = new Client(
        { name: 'sdk-v2-interop', version: '1.0.0' },
        { versionNegotiation: { mode: era } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(host.url), {
          requestInit: { headers: { Authorization: `Bearer ${host.token}` } },
        }),
      );
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      return client;
    };
    const connectStdio = async (root: string): Promise<Client> => {
      const client = new Client(
        { name: 'sdk-v2-interop', version: '1.0.0' },
        { versionNegotiation: { mode: era } },
      );
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [cli, 'serve', '--stdio', '--no-watch', root],
          stderr: 'pipe',
        }),
      );
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      return client;
    };

    it(`official SDK v2 SkillsClient lists, gets and reads every skill with verification (HTTP, ${revision})`, async () => {
      const client = await connectHttp(secured);
      try {
        expect(
          await verifyAll(
            client,
            TEST_LIBRARY_SERVED.map((p) => [p, files(p)]),
            lib.path,
          ),
        ).toBe(LIBRARY_FILES);
      } finally {
        await client.close();
      }
    }, 60_000);

    it(`official SDK v2 SkillsClient reads the tricky library byte for byte (HTTP, ${revision})`, async () => {
      const client = await connectHttp(trickyHost);
      try {
        expect(await verifyAll(client, TRICKY_LIBRARY_SERVED, tricky.path)).toBe(TRICKY_FILES);
      } finally {
        await client.close();
      }
    }, 60_000);

    it(`official SDK v2 SkillsClient reads both libraries with verification (stdio, ${revision})`, async () => {
      const a = await connectStdio(lib.path);
      try {
        expect(
          await verifyAll(
            a,
            TEST_LIBRARY_SERVED.map((p) => [p, files(p)]),
            lib.path,
          ),
        ).toBe(LIBRARY_FILES);
      } finally {
        await a.close();
      }
      const b = await connectStdio(tricky.path);
      try {
        expect(await verifyAll(b, TRICKY_LIBRARY_SERVED, tricky.path)).toBe(TRICKY_FILES);
      } finally {
        await b.close();
      }
    }, 60_000);
  }

  /** Files each skill of the standard library serves (main/testing/skill-library.ts). */
  function files(path: string): number {
    return catalog.current.bySkillUri.get(`skill://${path}/SKILL.md`)?.files.length ?? -1;
  }
});
