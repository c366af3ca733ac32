import { reviewSkillFolder, trustAnyway } from '../safety/service';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { GetSkillResultSchema, ListSkillsResultSchema } from '../../shared/sep';
import { startHttpHost, type HttpHost } from '../mcp-server/http-host';
import { LiveCatalog } from '../mcp-server/live-catalog';
import { exportSkill } from '../pack';
import { walkTree } from '../platform/walk';
import { bundleCli } from '../testing/skill-library';

// One skill folder holding everything a real folder gathers over time: version control of
// three kinds, dependencies, caches, OS litter, a secret, and a link to a file inside the
// skill. Served, copied and zipped, it must give the same file set: SKILL.md,
// references/guide.md and scripts/run.py, and nothing else.
const EXPECTED = ['SKILL.md', 'references/guide.md', 'scripts/run.py'];

let tmp: string;
let skillDir: string;
let catalog: LiveCatalog;
let host: HttpHost;
let client: Client;

async function put(path: string, content: string): Promise<void> {
  await mkdir(dirname(join(skillDir, path)), { recursive: true });
  await writeFile(join(skillDir, path), content);
}

/** Every file under a folder (links included as files), relative, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const tree = await walkTree(dir);
  const out: string[] = [];
  for (const list of tree.children.values())
    for (const e of list) if (e.kind !== 'directory') out.push(e.path);
  return out.sort();
}

/** The file names in a tar (ustar/pax) archive, from its headers. */
function tarNames(tar: Buffer): string[] {
  const names: string[] = [];
  let pax: string | undefined;
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, len: number): string =>
      header
        .subarray(from, from + len)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const body = tar.subarray(at + 512, at + 512 + size);
    if (type === 'x') pax = /path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
    else if (type === '0' || type === '') {
      const prefix = field(345, 155);
      names.push(pax ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100)));
      pax = undefined;
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return names.sort();
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-one-file-set-'));
  skillDir = join(tmp, 'lib', 'file-set');
  await put(
    'SKILL.md',
    '---\nname: file-set\ndescription: Shows that every part of Skillbench sees one file set.\n---\n# Use\n\nRead references/guide.md, then run scripts/run.py.\n',
  );
  await put('references/guide.md', '# Guide\n');
  await put('scripts/run.py', 'print("hi")\n');
  await put('.git/HEAD', 'ref: refs/heads/main\n');
  await put('.git/config', '[core]\n');
  await put('.hg/x', 'hg');
  await put('.svn/x', 'svn');
  await put('node_modules/dep/index.js', 'module.exports = 1;\n');
  await put('__pycache__/run.cpython-311.pyc', 'bytecode');
  await put('.DS_Store', 'mac');
  await put('Thumbs.db', 'win');
  await put('.env', 'ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123\n');
  await symlink('references/guide.md', join(skillDir, 'guide-link.md'));
  catalog = new LiveCatalog([join(tmp, 'lib')], { watch: false });
  await catalog.load();
  host = await startHttpHost(catalog);
  client = new Client({ name: 'one-file-set-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(host.url), {
      requestInit: { headers: { Authorization: `Bearer ${host.token}` } },
    }),
  );
}, 60_000);

afterAll(async () => {
  await client?.close();
  await host?.close();
  catalog?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('one skill folder, one file set', () => {
  it('the embedded server lists and serves exactly the skill files, nothing withheld', async () => {
    const listed = await client.request(
      { method: 'skills/list', params: {} },
      ListSkillsResultSchema,
    );
    expect(listed.skills).toHaveLength(1);
    const entry = listed.skills[0];
    const resources = entry?.resources;
    expect(Array.isArray(resources)).toBe(true);
    const paths = (resources as { uri: string }[])
      .map((r) => r.uri.replace('skill://file-set/', ''))
      .sort();
    expect(paths).toEqual(EXPECTED);
    const got = await client.request(
      { method: 'skills/get', params: { uri: 'skill://file-set/SKILL.md' } },
      GetSkillResultSchema,
    );
    expect(got.skill.resources).toEqual(resources);
    // Withheld files are not readable either, whatever URI a client tries.
    for (const hidden of ['.env', 'Thumbs.db', '.hg/x', '.svn/x', '.git/HEAD', 'guide-link.md'])
      await expect(client.readResource({ uri: `skill://file-set/${hidden}` })).rejects.toThrow();
    const env = await client.readResource({ uri: 'skill://file-set/references/guide.md' });
    expect(env.contents[0]).toMatchObject({ text: '# Guide\n' });
  });

  it('the stdio server (skillbench serve --stdio) lists the same files', async () => {
    const cli = await bundleCli(join(tmp, 'cli'));
    // Why trusted first: the served check runs the safety review, which calls this folder (a real-
    // looking key in .env, compiled Python) "Don't trust"; the user accepted it, as the app lets them.
    const dataDir = join(tmp, 'user-data');
    await trustAnyway(
      dataDir,
      await reviewSkillFolder(skillDir),
      'The test fixture: my own .env',
      1,
    );
    const stdio = new Client({ name: 'one-file-set-stdio', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'serve', '--stdio', join(tmp, 'lib')],
        env: { ...(process.env as Record<string, string>), SKILLBENCH_USER_DATA: dataDir },
        stderr: 'pipe',
      }),
    );
    try {
      const listed = await stdio.request(
        { method: 'skills/list', params: {} },
        ListSkillsResultSchema,
      );
      const resources = listed.skills[0]?.resources as { uri: string }[];
      expect(resources.map((r) => r.uri.replace('skill://file-set/', '')).sort()).toEqual(EXPECTED);
      await expect(stdio.readResource({ uri: 'skill://file-set/.env' })).rejects.toThrow();
    } finally {
      await stdio.close();
    }
  }, 60_000);

  it("the server's legacy archive holds the same files", async () => {
    const tarGz = await client.readResource({ uri: 'skill://file-set.tar.gz' });
    const blob = (tarGz.contents[0] as { blob: string }).blob;
    expect(tarNames(gunzipSync(Buffer.from(blob, 'base64')))).toEqual(EXPECTED);
  });

  it('a folder copy holds the same files', async () => {
    const out = join(tmp, 'copy');
    const result = await exportSkill(skillDir, 'folder', { out, trashDir: join(tmp, 'trash') });
    expect(result.status).toBe('written');
    expect(await filesUnder(join(out, 'file-set'))).toEqual(EXPECTED);
  });

  it('the claude.ai zip holds the same files in its one top folder', async () => {
    const out = join(tmp, 'file-set.zip');
    const result = await exportSkill(skillDir, 'claude-ai', { out });
    expect(result.status).toBe('written');
    const names = execFileSync('unzip', ['-Z1', out], { encoding: 'utf8' })
      .split('\n')
      .filter((n) => n !== '' && !n.endsWith('/'))
      .sort();
    expect(names).toEqual(EXPECTED.map((p) => `file-set/${p}`));
  });
});
