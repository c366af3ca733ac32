import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import {
  GetSkillResultSchema,
  ListSkillsResultSchema,
  parseJuneIndex,
  ReadDirectoryResultSchema,
} from '../../shared/sep';
import type { SkillEntry } from '../../shared/sep';
import { startHttpHost } from './http-host';
import type { HttpHost } from './http-host';
import { LiveCatalog } from './live-catalog';
import type { RequestLogEntry } from './mcp-server';
import {
  BINARY_BYTES,
  bundleCli,
  makeTestLibrary,
  skillMd,
  tempDir,
  TEST_LIBRARY_SERVED,
  writeTree,
} from '../testing/skill-library';

const Loose = z.looseObject({});

function sha(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

async function listAll(client: Client): Promise<{ skills: SkillEntry[]; pages: number }> {
  const skills: SkillEntry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await client.request(
      { method: 'skills/list', params: cursor ? { cursor } : {} },
      ListSkillsResultSchema,
    );
    skills.push(...r.skills);
    cursor = r.nextCursor;
    pages++;
  } while (cursor);
  return { skills, pages };
}

async function expectInvalid(p: Promise<unknown>): Promise<McpError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(McpError);
    expect((e as McpError).code).toBe(-32602);
    return e as McpError;
  }
  throw new Error('expected -32602, got a result');
}

async function readDir(
  client: Client,
  uri: string,
): Promise<{ uri: string; name: string; mimeType?: string; size?: number }[]> {
  const out: { uri: string; name: string; mimeType?: string; size?: number }[] = [];
  let cursor: string | undefined;
  do {
    const r = await client.request(
      { method: 'resources/directory/read', params: cursor ? { uri, cursor } : { uri } },
      ReadDirectoryResultSchema,
    );
    out.push(...r.resources);
    cursor = r.nextCursor;
  } while (cursor);
  return out;
}

type AnyContent = { uri?: string; mimeType?: string; text?: string; blob?: string };

function first(r: { contents: unknown[] }): AnyContent {
  return r.contents[0] ?? {};
}

function contentBytes(c: { text?: unknown; blob?: unknown }): Uint8Array {
  return typeof c.text === 'string'
    ? Buffer.from(c.text, 'utf8')
    : Buffer.from(String(c.blob), 'base64');
}

const TRAVERSALS = [
  'skill://alpha/../escaper/SKILL.md',
  'skill://alpha/%2e%2e/escaper/SKILL.md',
  'skill://alpha/references%2f..%2f..%2fescaper/SKILL.md',
  'skill://alpha/references%5cguide.md',
  'skill://alpha\\references\\guide.md',
  'skill://alpha/SKILL.md?x=1',
  'skill://alpha/SKILL.md#frag',
  'skill://alpha//SKILL.md',
  'file:///etc/hosts',
  'skill://escaper/hosts-link',
  'skill://broken/SKILL.md',
];

/** The shared method suite, run over stdio and over HTTP. */
function methodSuite(
  name: string,
  connect: () => Promise<{ client: Client; libRoot: string }>,
): void {
  describe(`${name}: SEP-2640 methods and resources`, () => {
    let client: Client;
    let libRoot: string;
    beforeAll(async () => {
      ({ client, libRoot } = await connect());
    }, 60_000);

    it('declares the skills extension with directoryRead, and resources with subscribe', () => {
      const caps = client.getServerCapabilities() as Record<string, unknown> & {
        extensions?: Record<string, unknown>;
      };
      expect(caps.extensions?.['io.modelcontextprotocol/skills']).toEqual({ directoryRead: true });
      expect(caps.resources).toEqual({ subscribe: true, listChanged: true });
    });

    it('lists every servable skill with verbatim frontmatter and a manifest whose digests match the reads', async () => {
      const { skills } = await listAll(client);
      expect(skills.map((s) => s.uri)).toEqual(
        TEST_LIBRARY_SERVED.map((p) => `skill://${p}/SKILL.md`),
      );
      for (const s of skills) {
        const path = s.uri.slice('skill://'.length);
        const text = await readFile(join(libRoot, ...path.split('/')), 'utf8');
        const yaml = text.split('\n---\n')[0]?.replace(/^---\n/, '') ?? '';
        expect(s.frontmatter).toEqual(parseYaml(yaml));
        expect(Array.isArray(s.resources)).toBe(true);
        for (const r of s.resources as { uri: string; digest: string; size: number }[]) {
          const read = await client.readResource({ uri: r.uri });
          const bytes = contentBytes(first(read));
          expect(bytes.length).toBe(r.size);
          expect(sha(bytes)).toBe(r.digest);
        }
      }
      const alpha = skills[0];
      expect((alpha.resources as { uri: string }[]).map((r) => r.uri)).toEqual([
        'skill://alpha/SKILL.md',
        'skill://alpha/assets/logo.png',
        'skill://alpha/references/deep/note.txt',
        'skill://alpha/references/guide.md',
        'skill://alpha/scripts/run.sh',
      ]);
    });

    it('gets a skill by URI and answers -32602 for anything that is not a served skill', async () => {
      const got = await client.request(
        { method: 'skills/get', params: { uri: 'skill://team/billing/refunds/SKILL.md' } },
        GetSkillResultSchema,
      );
      expect(got.skill.frontmatter.name).toBe('refunds');
      expect(got.skill.frontmatter['argument-hint']).toBe('[order-id] [reason]');
      await expectInvalid(
        client.request({ method: 'skills/get', params: { uri: 'skill://nope/SKILL.md' } }, Loose),
      );
      await expectInvalid(
        client.request(
          { method: 'skills/get', params: { uri: 'skill://alpha/references/guide.md' } },
          Loose,
        ),
      );
      await expectInvalid(
        client.request({ method: 'skills/get', params: { uri: 'skill://broken/SKILL.md' } }, Loose),
      );
      await expectInvalid(
        client.request(
          { method: 'skills/get', params: { uri: 'skill://alpha/../alpha/SKILL.md' } },
          Loose,
        ),
      );
    });

    it('reads text as text and other bytes as a base64 blob, with mime types', async () => {
      const md = await client.readResource({ uri: 'skill://alpha/SKILL.md' });
      expect(first(md)).toMatchObject({ uri: 'skill://alpha/SKILL.md', mimeType: 'text/markdown' });
      expect(first(md).text).toContain('# Alpha');
      const guide = await client.readResource({ uri: 'skill://alpha/references/guide.md' });
      expect(first(guide).text).toContain('café ✓');
      const png = await client.readResource({ uri: 'skill://alpha/assets/logo.png' });
      expect(first(png).mimeType).toBe('image/png');
      expect(first(png).text).toBeUndefined();
      expect(Buffer.from(String(first(png).blob), 'base64')).toEqual(Buffer.from(BINARY_BYTES));
      const sh = await client.readResource({ uri: 'skill://alpha/scripts/run.sh' });
      expect(first(sh).mimeType).toBe('application/x-sh');
    });

    it('reads a served file asked for with another spelling of its URI, answering with the canonical URI', async () => {
      // Served URIs are looked up as sent before any parsing: other spellings still go through the parser.
      for (const uri of [
        'SKILL://alpha/SKILL.md',
        'skill://%61lpha/SKILL.md',
        'skill://alpha/SKILL%2emd',
      ]) {
        const r = await client.readResource({ uri });
        expect(first(r)).toMatchObject({
          uri: 'skill://alpha/SKILL.md',
          mimeType: 'text/markdown',
        });
        expect(first(r).text).toContain('# Alpha');
      }
    });

    it('reads directories: direct children only, folders as inode/directory, -32602 otherwise', async () => {
      const root = await readDir(client, 'skill://alpha');
      expect(root.map((r) => [r.uri, r.mimeType])).toEqual([
        ['skill://alpha/SKILL.md', 'text/markdown'],
        ['skill://alpha/assets', 'inode/directory'],
        ['skill://alpha/references', 'inode/directory'],
        ['skill://alpha/scripts', 'inode/directory'],
      ]);
      const refs = await readDir(client, 'skill://alpha/references');
      expect(refs.map((r) => r.uri)).toEqual([
        'skill://alpha/references/deep',
        'skill://alpha/references/guide.md',
      ]);
      expect(refs[1]).toMatchObject({ name: 'guide.md', mimeType: 'text/markdown', size: 31 });
      await expectInvalid(
        client.request(
          { method: 'resources/directory/read', params: { uri: 'skill://alpha/SKILL.md' } },
          Loose,
        ),
      );
      await expectInvalid(
        client.request(
          { method: 'resources/directory/read', params: { uri: 'skill://team' } },
          Loose,
        ),
      );
      await expectInvalid(
        client.request(
          { method: 'resources/directory/read', params: { uri: 'skill://alpha', cursor: 'bogus' } },
          Loose,
        ),
      );
    });

    it('lists resources (every SKILL.md, paginated) and the skill:// template', async () => {
      const uris: string[] = [];
      let cursor: string | undefined;
      do {
        const r = await client.listResources(cursor ? { cursor } : {});
        uris.push(...r.resources.map((x) => x.uri));
        cursor = r.nextCursor;
      } while (cursor);
      for (const p of TEST_LIBRARY_SERVED) expect(uris).toContain(`skill://${p}/SKILL.md`);
      expect(uris).toContain('skill://index.json');
      expect(new Set(uris).size).toBe(uris.length);
      const t = await client.listResourceTemplates();
      expect(t.resourceTemplates.map((x) => x.uriTemplate)).toEqual(['skill://{+path}']);
    });

    it('refuses every traversal attempt with -32602 and reads nothing', async () => {
      for (const uri of TRAVERSALS) {
        const e = await expectInvalid(client.readResource({ uri }));
        expect(e.message.length).toBeGreaterThan(10);
        await expectInvalid(
          client.request({ method: 'resources/directory/read', params: { uri } }, Loose),
        );
      }
    });

    it('serves the legacy June-2026 index with reproducible .tar.gz and .zip archives', async () => {
      const idx = await client.readResource({ uri: 'skill://index.json' });
      const parsed = parseJuneIndex(String(first(idx).text));
      expect(parsed.problems).toEqual([]);
      expect(parsed.items.map((i) => i.url)).toEqual(
        TEST_LIBRARY_SERVED.map((p) => `skill://${p}/SKILL.md`),
      );
      const refunds = parsed.items.find((i) => i.url === 'skill://team/billing/refunds/SKILL.md');
      expect(refunds?.frontmatter.name).toBe('refunds');
      const tgz = refunds?.archives.find((a) => a.mimeType === 'application/gzip');
      expect(tgz?.url).toBe('skill://team/billing/refunds.tar.gz');
      const read = await client.readResource({ uri: tgz?.url ?? '' });
      const bytes = Buffer.from(String(first(read).blob), 'base64');
      expect(sha(bytes)).toBe(tgz?.digest);
      const tar = gunzipSync(bytes);
      expect(tar.subarray(0, 8).toString('latin1').replace(/\0.*$/, '')).toBe('SKILL.md');
      const again = await client.readResource({ uri: tgz?.url ?? '' });
      expect(first(again).blob).toBe(first(read).blob);
      const zip = refunds?.archives.find((a) => a.mimeType === 'application/zip');
      const zr = await client.readResource({ uri: zip?.url ?? '' });
      const zbytes = Buffer.from(String(first(zr).blob), 'base64');
      expect(sha(zbytes)).toBe(zip?.digest);
      expect(zbytes.readUInt32LE(0)).toBe(0x04034b50);
      expect(zbytes.subarray(30, 38).toString('utf8')).toBe('SKILL.md');
      expect(refunds?.digest).toBe(
        sha(await readFile(join(libRoot, 'team/billing/refunds/SKILL.md'))),
      );
    });

    it('maps x-personal-mcp skills to resource://skills/<id>/… with _meta, tags and version', async () => {
      const { resources } = await client.listResources();
      const doc = resources.find((r) => r.uri === 'resource://skills/personal-notes/document');
      expect(doc).toMatchObject({
        mimeType: 'text/markdown',
        _meta: {
          skill_id: 'personal-notes',
          version: '1.2.0',
          tags: ['notes', 'personal'],
          read_only: true,
        },
      });
      const ref = resources.find(
        (r) => r.uri === 'resource://skills/personal-notes/references/style-guide',
      );
      expect(ref).toMatchObject({
        title: 'Style guide',
        mimeType: 'text/markdown',
        _meta: { skill_id: 'personal-notes', ref_id: 'style-guide', path: 'references/style.md' },
      });
      const read = await client.readResource({
        uri: 'resource://skills/personal-notes/references/style-guide',
      });
      expect(first(read).text).toBe('# Style\n\nShort sentences.\n');
      const entry = await client.request(
        { method: 'skills/get', params: { uri: 'skill://personal-notes/SKILL.md' } },
        GetSkillResultSchema,
      );
      expect(entry.skill._meta?.['io.skillbench/x-personal-mcp']).toMatchObject({
        depends_on: ['alpha'],
      });
    });

    it('offers read-only tools; names are disambiguated by path', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['list_skills', 'read_skill', 'read_skill_file']);
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
      const list = await client.callTool({ name: 'list_skills', arguments: {} });
      const parsed = JSON.parse(String((list.content as { text: string }[])[0]?.text)) as {
        path: string;
      }[];
      expect(parsed.map((p) => p.path)).toEqual(TEST_LIBRARY_SERVED);
      const ambiguous = await client.callTool({
        name: 'read_skill',
        arguments: { name: 'refunds' },
      });
      expect(ambiguous.isError).toBe(true);
      expect(String((ambiguous.content as { text: string }[])[0]?.text)).toContain(
        'team/billing/refunds, team/support/refunds',
      );
      const byPath = await client.callTool({
        name: 'read_skill',
        arguments: { name: 'team/support/refunds' },
      });
      expect(String((byPath.content as { text: string }[])[0]?.text)).toContain('Explain refunds.');
      const file = await client.callTool({
        name: 'read_skill_file',
        arguments: { skill: 'alpha', path: 'references/guide.md' },
      });
      expect(String((file.content as { text: string }[])[0]?.text)).toContain('# Guide');
      const bin = await client.callTool({
        name: 'read_skill_file',
        arguments: { skill: 'alpha', path: 'assets/logo.png' },
      });
      expect(
        (bin.content as { type: string; resource: { blob: string } }[])[0]?.resource.blob,
      ).toBe(Buffer.from(BINARY_BYTES).toString('base64'));
      for (const path of [
        '../escaper/SKILL.md',
        'references/../../x',
        '/etc/hosts',
        'references\\guide.md',
      ]) {
        const bad = await client.callTool({
          name: 'read_skill_file',
          arguments: { skill: 'alpha', path },
        });
        expect(bad.isError).toBe(true);
      }
    });

    it('offers user-invocable skills as prompts with substituted arguments; shell lines are flagged, not run', async () => {
      const { prompts } = await client.listPrompts();
      const names = prompts.map((p) => p.name);
      expect(names).toEqual([
        'alpha',
        'personal-notes',
        'team/billing/refunds',
        'team/support/refunds',
      ]);
      const refunds = prompts.find((p) => p.name === 'team/billing/refunds');
      expect(refunds?.arguments?.[0]?.description).toContain('[order-id] [reason]');
      const got = await client.getPrompt({
        name: 'team/billing/refunds',
        arguments: { arguments: 'A-42 damaged box' },
      });
      const text = String((got.messages[0]?.content as { text: string }).text);
      expect(text).toContain('Refund order A-42 because damaged.');
      expect(text).toContain('All: A-42 damaged box');
      expect(text).toContain('First: A-42');
      expect(text).toContain('!`git status`');
      expect(got._meta?.['io.skillbench/shell-commands-not-run']).toEqual(['!`git status`']);
      await expectInvalid(client.getPrompt({ name: 'quiet' }));
    });
  });
}

describe('embedded skills server', () => {
  let lib: Awaited<ReturnType<typeof tempDir>>;
  let build: Awaited<ReturnType<typeof tempDir>>;
  let cli: string;
  let catalog: LiveCatalog;
  let host: HttpHost;
  const log: RequestLogEntry[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    lib = await tempDir();
    await makeTestLibrary(lib.path);
    build = await tempDir('skillbench-cli-');
    cli = await bundleCli(build.path);
    catalog = new LiveCatalog([lib.path], { watch: false });
    await catalog.load();
    host = await startHttpHost(catalog, {
      pageSizes: { skills: 2, resources: 3, directory: 2 },
      onRequest: (e) => log.push(e),
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await host?.close();
    catalog?.close();
    await lib?.remove();
    await build?.remove();
  });

  async function httpClient(h: HttpHost = host): Promise<Client> {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(h.url), {
        requestInit: { headers: { Authorization: `Bearer ${h.token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  async function stdioClient(args: string[] = []): Promise<Client> {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'serve', '--stdio', ...args, lib.path],
        stderr: 'pipe',
      }),
    );
    clients.push(client);
    return client;
  }

  methodSuite('stdio', async () => ({ client: await stdioClient(), libRoot: lib.path }));
  methodSuite('http', async () => ({ client: await httpClient(), libRoot: lib.path }));

  it('pages skills/list with an opaque cursor; entries are never split or repeated', async () => {
    const client = await httpClient();
    const { skills, pages } = await listAll(client);
    expect(pages).toBe(3);
    expect(skills.map((s) => s.uri)).toEqual(
      TEST_LIBRARY_SERVED.map((p) => `skill://${p}/SKILL.md`),
    );
    const first = await client.request(
      { method: 'skills/list', params: {} },
      ListSkillsResultSchema,
    );
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = await client.request(
      { method: 'skills/list', params: { cursor: first.nextCursor } },
      ListSkillsResultSchema,
    );
    expect(second.skills[0]?.uri).toBe(skills[2]?.uri);
    await expectInvalid(
      client.request({ method: 'skills/list', params: { cursor: 'not-a-cursor' } }, Loose),
    );
    const dir1 = await client.request(
      { method: 'resources/directory/read', params: { uri: 'skill://alpha' } },
      ReadDirectoryResultSchema,
    );
    expect(dir1.resources).toHaveLength(2);
    const dir2 = await client.request(
      {
        method: 'resources/directory/read',
        params: { uri: 'skill://alpha', cursor: dir1.nextCursor },
      },
      ReadDirectoryResultSchema,
    );
    expect(dir2.resources.map((r) => r.uri)).toEqual([
      'skill://alpha/references',
      'skill://alpha/scripts',
    ]);
    expect(dir2.nextCursor).toBeUndefined();
    // A directory cursor is bound to its folder.
    await expectInvalid(
      client.request(
        {
          method: 'resources/directory/read',
          params: { uri: 'skill://alpha/references', cursor: dir1.nextCursor },
        },
        Loose,
      ),
    );
  });

  it('logs requests with method, uri, status and time', async () => {
    const client = await httpClient();
    await client.readResource({ uri: 'skill://alpha/SKILL.md' });
    await client.readResource({ uri: 'skill://nope/SKILL.md' }).catch(() => undefined);
    const ok = log.find(
      (e) =>
        e.method === 'resources/read' && e.uri === 'skill://alpha/SKILL.md' && e.status === 'ok',
    );
    const bad = log.find((e) => e.method === 'resources/read' && e.uri === 'skill://nope/SKILL.md');
    expect(ok?.transport).toBe('http');
    expect(typeof ok?.ms).toBe('number');
    expect(bad?.status).toBe(-32602);
  });

  describe('HTTP hardening', () => {
    function raw(
      path: string,
      headers: Record<string, string>,
      body = '{}',
      method = 'POST',
    ): Promise<{ status: number; body: string }> {
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: host.port,
            path,
            method,
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...headers,
            },
          },
          (res) => {
            let data = '';
            res.on('data', (c: Buffer) => (data += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    }
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    });

    it('answers 401 without a token or with a wrong one', async () => {
      const none = await raw('/mcp', {}, init);
      expect(none.status).toBe(401);
      expect(none.body).toContain('bearer token');
      expect(
        (await raw('/mcp', { authorization: 'Bearer wrong-token-wrong-token' }, init)).status,
      ).toBe(401);
      expect((await raw('/mcp', { authorization: `Bearer ${host.token}` }, init)).status).toBe(200);
    });

    it('answers 403 for a foreign Host or Origin (DNS rebinding), even with the token', async () => {
      const auth = { authorization: `Bearer ${host.token}` };
      expect(
        (await raw('/mcp', { ...auth, host: `evil.example.com:${host.port}` }, init)).status,
      ).toBe(403);
      expect((await raw('/mcp', { ...auth, origin: 'http://evil.example.com' }, init)).status).toBe(
        403,
      );
      expect(
        (
          await raw(
            '/mcp',
            { ...auth, host: `localhost:${host.port}`, origin: `http://localhost:${host.port}` },
            init,
          )
        ).status,
      ).toBe(200);
    });

    it('bounds the request size and the path', async () => {
      const auth = { authorization: `Bearer ${host.token}` };
      expect(
        (await raw('/mcp', auth, JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }))).status,
      ).toBe(413);
      expect((await raw('/other', auth, init)).status).toBe(404);
      expect((await raw('/mcp', auth, '{not json')).status).toBe(400);
      expect(
        (await raw('/mcp', { ...auth, 'mcp-session-id': 'no-such-session' }, init)).status,
      ).toBe(404);
    });

    it('refuses non-loopback binds unless allowed, and the no-token mode anywhere but loopback', async () => {
      await expect(startHttpHost(catalog, { host: '0.0.0.0' })).rejects.toThrow(
        /Refusing to listen on 0\.0\.0\.0/,
      );
      await expect(
        startHttpHost(catalog, {
          host: '0.0.0.0',
          allowNonLoopback: true,
          insecureNoAuthLoopbackOnly: true,
        }),
      ).rejects.toThrow(/loopback/);
      await expect(startHttpHost(catalog, { token: 'short' })).rejects.toThrow(/16 characters/);
    });

    it('refuses the wildcard address even when allowed, since its Host check would refuse every client', async () => {
      for (const host of ['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0'])
        await expect(startHttpHost(catalog, { host, allowNonLoopback: true })).rejects.toThrow(
          `${host} means every address of this computer, but requests are accepted only when they are sent to the address the server listens on, so no client could use it.`,
        );
    });

    it('says in plain words why it cannot listen: a port in use, an address of another computer', async () => {
      await expect(startHttpHost(catalog, { port: host.port })).rejects.toThrow(
        `Port ${host.port} on 127.0.0.1 is already in use by another program. Choose another port, or leave the port out to use a free one.`,
      );
      // 192.0.2.1 is reserved for documentation: never an address of this computer.
      await expect(
        startHttpHost(catalog, { host: '192.0.2.1', allowNonLoopback: true }),
      ).rejects.toThrow(
        '192.0.2.1 is not an address of this computer, so nothing can listen there. Use 127.0.0.1.',
      );
    });

    it('bounds requests in flight', async () => {
      const tight = await startHttpHost(catalog, { maxConcurrent: 0 });
      try {
        const client = new Client({ name: 'test', version: '1.0.0' });
        await expect(
          client.connect(
            new StreamableHTTPClientTransport(new URL(tight.url), {
              requestInit: { headers: { Authorization: `Bearer ${tight.token}` } },
            }),
          ),
        ).rejects.toThrow();
      } finally {
        await tight.close();
      }
    });

    it('closes sessions when the token changes', async () => {
      const h = await startHttpHost(catalog, {});
      try {
        const client = await httpClient(h);
        await client.listResources();
        await h.setToken('a-brand-new-token-value');
        await expect(client.listResources()).rejects.toThrow();
      } finally {
        await h.close();
      }
    });
  });

  it('turns off legacy resources, tools and prompts with the switches', async () => {
    const client = await stdioClient(['--no-legacy', '--no-tools', '--no-prompts']);
    const caps = client.getServerCapabilities();
    expect(caps?.tools).toBeUndefined();
    expect(caps?.prompts).toBeUndefined();
    await expectInvalid(client.readResource({ uri: 'skill://index.json' }));
    await expectInvalid(client.readResource({ uri: 'skill://alpha.tar.gz' }));
    await expectInvalid(client.readResource({ uri: 'resource://skills/personal-notes/document' }));
    const { skills } = await listAll(client);
    expect(skills).toHaveLength(TEST_LIBRARY_SERVED.length);
  });

  it('reports excluded skills with reasons', () => {
    const ex = catalog.current.excluded.map((e) => [e.relativeDir, e.reasons.join(' ')]);
    expect(ex).toHaveLength(2);
    expect(ex[0]?.[0]).toBe('broken');
    expect(ex[0]?.[1]).toMatch(/name/i);
    expect(ex[1]?.[0]).toBe('escaper');
    expect(ex[1]?.[1]).toMatch(/outside the skill/);
  });
});

describe('change notifications after file edits', () => {
  async function setup(): Promise<{
    dir: Awaited<ReturnType<typeof tempDir>>;
    catalog: LiveCatalog;
    host: HttpHost;
    /** Resolves when the client's GET event stream is open (the host logs it). */
    opened: Promise<void>;
  }> {
    const dir = await tempDir();
    await writeTree(dir.path, {
      'one/SKILL.md': skillMd('name: one\ndescription: The first one.'),
      'one/notes.md': 'v1\n',
    });
    const catalog = new LiveCatalog([dir.path], { watch: true, debounceMs: 50 });
    await catalog.load();
    let streamOpened: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (streamOpened = resolve));
    const host = await startHttpHost(catalog, {
      onRequest: (e) => {
        if (e.method === 'HTTP GET' && e.status === 200) streamOpened();
      },
    });
    return { dir, catalog, host, opened };
  }

  function waitFor<T>(register: (resolve: (v: T) => void) => void, ms = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('timed out waiting for a notification')), ms);
      register((v) => {
        clearTimeout(t);
        resolve(v);
      });
    });
  }

  it('sends resources/updated to subscribers when a file changes, and the new digest agrees with the read (HTTP)', async () => {
    const { dir, catalog, host, opened } = await setup();
    const client = new Client({ name: 'test', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(host.url), {
          requestInit: { headers: { Authorization: `Bearer ${host.token}` } },
        }),
      );
      await client.subscribeResource({ uri: 'skill://one/notes.md' });
      const updated = waitFor<string>((resolve) =>
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) =>
          resolve(n.params.uri),
        ),
      );
      // Notifications go on the client's event stream, which it opens right after initialize.
      await opened;
      await writeFile(join(dir.path, 'one', 'notes.md'), 'v2 — edited\n');
      expect(await updated).toBe('skill://one/notes.md');
      const got = await client.request(
        { method: 'skills/get', params: { uri: 'skill://one/SKILL.md' } },
        GetSkillResultSchema,
      );
      const entry = (got.skill.resources as { uri: string; digest: string }[]).find(
        (r) => r.uri === 'skill://one/notes.md',
      );
      const read = await client.readResource({ uri: 'skill://one/notes.md' });
      expect(first(read).text).toBe('v2 — edited\n');
      expect(entry?.digest).toBe(sha(Buffer.from('v2 — edited\n')));
    } finally {
      await client.close();
      await host.close();
      catalog.close();
      await dir.remove();
    }
  });

  it('sends resources/list_changed when a skill appears or disappears (stdio)', async () => {
    const dir = await tempDir();
    const build = await tempDir('skillbench-cli-');
    await writeTree(dir.path, {
      'one/SKILL.md': skillMd('name: one\ndescription: The first one.'),
    });
    const cli = await bundleCli(build.path);
    const client = new Client({ name: 'test', version: '1.0.0' });
    try {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [cli, 'serve', '--stdio', dir.path],
          stderr: 'pipe',
        }),
      );
      let changes = 0;
      let onChange: () => void = () => undefined;
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        changes++;
        onChange();
      });
      const appeared = waitFor<void>((resolve) => (onChange = resolve));
      await writeTree(dir.path, {
        'two/SKILL.md': skillMd('name: two\ndescription: The second one.'),
      });
      await appeared;
      expect((await listAll(client)).skills.map((s) => s.uri)).toEqual([
        'skill://one/SKILL.md',
        'skill://two/SKILL.md',
      ]);
      const gone = waitFor<void>((resolve) => (onChange = resolve));
      await rm(join(dir.path, 'two'), { recursive: true });
      await gone;
      expect(changes).toBeGreaterThanOrEqual(2);
      expect((await listAll(client)).skills.map((s) => s.uri)).toEqual(['skill://one/SKILL.md']);
    } finally {
      await client.close();
      await dir.remove();
      await build.remove();
    }
  }, 60_000);
});
