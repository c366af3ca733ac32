/**
 * Interop with independent implementations: the official MCP Inspector CLI,
 * the MCP conformance suite, and the official SDK v2 skills client. The first two download
 * from the npm registry through `npx` (Node 22 comes from the registry too, since they need
 * Node ≥ 22), so the timeouts are generous.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { startHttpHost } from './http-host';
import type { HttpHost } from './http-host';
import { LiveCatalog } from './live-catalog';
import { bundleCli, makeTestLibrary, tempDir, TEST_LIBRARY_SERVED } from '../testing/skill-library';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const CONFORMANCE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const NPX_TIMEOUT = 240_000;

function run(
  command: string,
  args: string[],
  timeout = NPX_TIMEOUT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { timeout, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_yes: 'true' } },
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

describe('interop with official MCP tools', () => {
  let lib: Awaited<ReturnType<typeof tempDir>>;
  let build: Awaited<ReturnType<typeof tempDir>>;
  let cli: string;
  let catalog: LiveCatalog;
  let open: HttpHost;
  let secured: HttpHost;

  beforeAll(async () => {
    lib = await tempDir();
    await makeTestLibrary(lib.path);
    build = await tempDir('skillbench-cli-');
    cli = await bundleCli(build.path);
    catalog = new LiveCatalog([lib.path], { watch: false });
    await catalog.load();
    // The conformance CLI cannot send an Authorization header: the test-only no-token mode, loopback only.
    open = await startHttpHost(catalog, { insecureNoAuthLoopbackOnly: true });
    secured = await startHttpHost(catalog, {});
  }, 120_000);

  afterAll(async () => {
    await open?.close();
    await secured?.close();
    catalog?.close();
    await lib?.remove();
    await build?.remove();
  });

  it(
    'MCP Inspector CLI: skills/list --verify against our stdio server exits 0',
    async () => {
      const server = [process.execPath, cli, 'serve', '--stdio', lib.path]
        .map(shellQuote)
        .join(' ');
      const r = await run('npx', [
        '-y',
        '-p',
        'node@22',
        '-p',
        INSPECTOR,
        '-c',
        `mcp-inspector --cli ${server} --method skills/list --verify`,
      ]);
      expect(r.stdout + r.stderr).toContain(`Verified ${TEST_LIBRARY_SERVED.length} skills`);
      expect(r.code).toBe(0);
    },
    NPX_TIMEOUT + 10_000,
  );

  for (const scenario of [
    'sep-2640-skills-enumeration',
    'sep-2640-skills-manifest',
    'sep-2640-skills-directory',
    'server-initialize',
    'dns-rebinding-protection',
  ]) {
    it(
      `MCP conformance suite: ${scenario} passes against our HTTP server`,
      async () => {
        const cmd = `conformance server --url ${open.url} --scenario ${scenario} --spec-version 2025-11-25 --force`;
        const r = await run('npx', ['-y', '-p', 'node@22', '-p', CONFORMANCE, '-c', cmd]);
        const out = r.stdout + r.stderr;
        expect(out).toMatch(/Passed: (\d+)\/\1, 0 failed/);
        expect(r.code).toBe(0);
      },
      NPX_TIMEOUT + 10_000,
    );
  }

  async function verifyAll(client: Client): Promise<number> {
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.uri)).toEqual(
      TEST_LIBRARY_SERVED.map((p) => `skill://${p}/SKILL.md`),
    );
    let files = 0;
    for (const entry of listing.skills) {
      const got = await skills.get(entry.uri);
      expect(got.skill).toEqual(entry);
      for (const r of entry.resources as { uri: string; digest: string; size: number }[]) {
        const file = await skills.read(entry, r.uri);
        expect(file.verified).toBe(true);
        expect(`sha256:${createHash('sha256').update(file.bytes).digest('hex')}`).toBe(r.digest);
        files++;
      }
      const dir = await skills.readDirectory(entry.uri.replace(/\/SKILL\.md$/, ''));
      expect(dir.resources.some((c) => c.uri === entry.uri)).toBe(true);
    }
    return files;
  }

  it('official SDK v2 SkillsClient lists, gets and reads every skill with verification (HTTP)', async () => {
    const client = new Client({ name: 'sdk-v2-interop', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(secured.url), {
        requestInit: { headers: { Authorization: `Bearer ${secured.token}` } },
      }),
    );
    try {
      expect(await verifyAll(client)).toBe(10);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('official SDK v2 SkillsClient lists and reads every skill with verification (stdio)', async () => {
    const client = new Client({ name: 'sdk-v2-interop', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'serve', '--stdio', lib.path],
        stderr: 'pipe',
      }),
    );
    try {
      expect(await verifyAll(client)).toBe(10);
    } finally {
      await client.close();
    }
  }, 60_000);
});
