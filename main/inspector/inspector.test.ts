import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli, makeTestLibrary, tempDir, TEST_LIBRARY_SERVED } from '../testing/skill-library';
import { InspectorService } from './service';
import { startEmbeddedHttp, startSdkV2Http } from '../testing/inspector-servers';
import type { RunningServer } from '../testing/inspector-servers';
import type { ConnectionInput, InspectedSkill } from './types';

type Dir = Awaited<ReturnType<typeof tempDir>>;

async function diskFiles(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await diskFiles(root, p)));
    else if (e.isFile()) out.push(p);
  }
  return out.sort();
}

function sha(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

interface Peer {
  name: string;
  /** Started with pages of 2, so listings and folders span several pages. */
  paged: boolean;
  start(lib: string, build: string): Promise<{ input: ConnectionInput; server?: RunningServer }>;
}

const PEERS: Peer[] = [
  {
    name: 'embedded server over HTTP',
    paged: true,
    async start(lib) {
      const server = await startEmbeddedHttp(lib, { pageSizes: { skills: 2, directory: 2 } });
      return {
        server,
        input: { label: 'ours-http', kind: 'http', url: server.url, bearerToken: server.token },
      };
    },
  },
  {
    name: 'embedded server over stdio',
    paged: false,
    async start(lib, build) {
      const cli = await bundleCli(build);
      return {
        input: {
          label: 'ours-stdio',
          kind: 'stdio',
          command: process.execPath,
          args: [cli, 'serve', '--stdio', '--no-watch', lib],
        },
      };
    },
  },
  {
    name: 'official SDK v2 skills server over HTTP',
    paged: true,
    async start(lib) {
      const server = await startSdkV2Http(lib, { pageSize: 2 });
      return { server, input: { label: 'sdk-v2', kind: 'http', url: server.url } };
    },
  },
];

for (const peer of PEERS) {
  describe(`inspector against the ${peer.name}`, () => {
    let lib: Dir;
    let build: Dir;
    let data: Dir;
    let server: RunningServer | undefined;
    let service: InspectorService;
    let label: string;
    let skills: InspectedSkill[];

    beforeAll(async () => {
      lib = await tempDir('skillbench-insp-lib-');
      build = await tempDir('skillbench-insp-build-');
      data = await tempDir('skillbench-insp-data-');
      await makeTestLibrary(lib.path);
      const started = await peer.start(lib.path, build.path);
      server = started.server;
      label = started.input.label;
      service = new InspectorService({ dataDir: data.path, trashDir: join(data.path, 'trash') });
      const status = await service.connect(started.input);
      expect(status.state).toBe('connected');
      expect(status.skillsExtension).toBe(true);
      expect(status.directoryRead).toBe(true);
    }, 90_000);

    afterAll(async () => {
      await service?.close();
      await server?.close();
      await lib?.remove();
      await build?.remove();
      await data?.remove();
    });

    it('discovers every served skill through the extension, paging to the end, without reading any file', async () => {
      const result = await service.discover(label);
      skills = result.skills;
      expect(result.route).toBe('extension');
      expect(result.steps[0]).toMatchObject({ route: 'extension', outcome: 'used' });
      expect(result.steps[0]?.pages).toBeGreaterThanOrEqual(peer.paged ? 3 : 1);
      expect(result.partial).toBe(false);
      expect(skills.map((s) => s.uri).sort()).toEqual(
        TEST_LIBRARY_SERVED.map((p) => `skill://${p}/SKILL.md`),
      );
      expect(skills.every((s) => s.label === undefined && s.key === `${label}\n${s.uri}`)).toBe(
        true,
      );
      const refunds = skills.filter((s) => s.name === 'refunds');
      expect(refunds).toHaveLength(2);
      expect(refunds[0]?.sameNameAs).toEqual([refunds[1]?.key]);
      const reads = service.log({ server: label, method: 'resources/read' });
      expect(reads).toHaveLength(0);
      expect(service.log({ server: label, method: 'skills/list', direction: 'out' }).length).toBe(
        result.steps[0]?.pages,
      );
    });

    it('verifies every file of every skill against the manifest, and the bytes are the ones on disk', async () => {
      for (const s of skills) {
        const v = await service.verify(s.key);
        expect(
          v.verdict,
          `${s.uri}: ${JSON.stringify(v.files.filter((f) => f.status !== 'verified'))}`,
        ).toBe('verified');
        const skillDir = join(lib.path, ...(s.skillPath ?? '').split('/'));
        expect(v.files.map((f) => f.path).sort()).toEqual(await diskFiles(skillDir));
        for (const f of v.files) {
          const bytes = await readFile(join(skillDir, ...(f.path ?? '').split('/')));
          expect(f.actual?.digest).toBe(sha(bytes));
          expect(f.actual?.size).toBe(bytes.length);
        }
      }
      const logo = service
        .fileStatuses(skills.find((s) => s.name === 'alpha')?.key ?? '')
        .find((f) => f.path === 'assets/logo.png');
      expect(logo).toMatchObject({ status: 'verified', actual: { encoding: 'blob' } });
    });

    it('pages through resources/directory/read and marks listed files', async () => {
      const alpha = skills.find((s) => s.name === 'alpha') as InspectedSkill;
      const names: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await service.readDirectory(alpha.key, alpha.rootUri, cursor);
        names.push(...page.entries.map((e) => e.path ?? e.uri));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(names.sort()).toEqual(['SKILL.md', 'assets', 'references', 'scripts']);
      expect(pages).toBeGreaterThanOrEqual(peer.paged ? 2 : 1);
    });

    it('shows a skill: verified SKILL.md, frontmatter, validation under a profile, the file tree', async () => {
      const alpha = skills.find((s) => s.name === 'alpha') as InspectedSkill;
      const view = await service.view(alpha.key, 'agentskills');
      expect(view.skillMd.verification.status).toBe('verified');
      expect(view.text).toContain('# Alpha');
      expect(view.frontmatter).toMatchObject({
        name: 'alpha',
        license: 'MIT',
        metadata: { owner: 'team-a', version: '2' },
      });
      expect(view.validation?.verdicts.agentskills).toBe('valid');
      const top = view.tree.children?.map((c) => c.name);
      expect(top).toEqual(['assets', 'references', 'scripts', 'SKILL.md']);
      const file = await service.readFile(alpha.key, `${alpha.rootUri}/references/guide.md`);
      expect(file.verification.status).toBe('verified');
      expect(file.content?.text).toContain('café ✓');
    });

    it('refuses to read a file the manifest does not list, without asking the server', async () => {
      const alpha = skills.find((s) => s.name === 'alpha') as InspectedSkill;
      const before = service.log({ server: label, method: 'resources/read' }).length;
      const r = await service.readFile(alpha.key, `${alpha.rootUri}/not-listed.md`);
      expect(r.verification.status).toBe('unlisted');
      expect(r.content).toBeUndefined();
      expect(service.log({ server: label, method: 'resources/read' }).length).toBe(before);
    });

    it('passes the report card', async () => {
      const report = await service.report(label);
      const failing = report.checks.filter((c) => c.status === 'fail');
      expect(failing, JSON.stringify(failing, null, 2)).toEqual([]);
      expect(report.verdict).toBe('pass');
      expect(report.skills).toBe(TEST_LIBRARY_SERVED.length);
      expect(report.checks.find((c) => c.id === 'manifest-complete')?.status).toBe('pass');
      expect(service.reportMarkdown(report)).toContain('| Digests and sizes | PASS |');
      expect(JSON.parse(service.reportJson(report))).toMatchObject({ verdict: 'pass' });
    }, 60_000);

    it('saves a verified skill into a library with provenance in the data folder; a second time asks, then keeps both or replaces', async () => {
      const target = await tempDir('skillbench-insp-target-');
      try {
        const alpha = skills.find((s) => s.name === 'alpha') as InspectedSkill;
        const saved = await service.saveToLibrary(alpha.key, target.path);
        expect(saved.ok).toBe(true);
        const folder = join(target.path, 'alpha');
        expect(await diskFiles(folder)).toEqual(await diskFiles(join(lib.path, 'alpha')));
        for (const f of await diskFiles(folder))
          expect(await readFile(join(folder, f))).toEqual(
            await readFile(join(lib.path, 'alpha', f)),
          );
        expect(await readdir(target.path)).toEqual(['alpha']);
        const records = await service.provenance();
        expect(records.at(-1)).toMatchObject({
          name: 'alpha',
          uri: alpha.uri,
          server: { label },
          folder,
        });
        expect(records.at(-1)?.files.find((f) => f.path === 'SKILL.md')?.digest).toMatch(
          /^sha256:[0-9a-f]{64}$/,
        );
        const again = await service.saveToLibrary(alpha.key, target.path);
        expect(again).toMatchObject({ ok: false, reason: 'conflict', suggestion: 'alpha-2' });
        expect(await readdir(target.path)).toEqual(['alpha']);

        // Keep both: the server's files under alpha-2, the SKILL.md name changed to match.
        const kept = await service.saveToLibrary(alpha.key, target.path, undefined, 'rename');
        expect(kept).toMatchObject({ ok: true, name: 'alpha-2', renamedFrom: 'alpha' });
        const second = join(target.path, 'alpha-2');
        expect(await diskFiles(second)).toEqual(await diskFiles(folder));
        const servedMd = await readFile(join(lib.path, 'alpha', 'SKILL.md'), 'utf8');
        expect(await readFile(join(second, 'SKILL.md'), 'utf8')).toBe(
          servedMd.replace(/^name: alpha$/m, 'name: alpha-2'),
        );
        expect((await service.provenance()).at(-1)).toMatchObject({
          name: 'alpha-2',
          renamedFrom: 'alpha',
          folder: second,
        });

        // Replace: the user's edited copy goes to the trash whole; the server's copy takes its place.
        await writeFile(join(folder, 'SKILL.md'), 'my edits');
        const replaced = await service.saveToLibrary(alpha.key, target.path, undefined, 'replace');
        expect(replaced).toMatchObject({ ok: true, name: 'alpha', folder });
        const trashedTo = replaced.ok ? (replaced.trashedTo as string) : '';
        expect(trashedTo.startsWith(join(data.path, 'trash', 'alpha-'))).toBe(true);
        expect(await readFile(join(trashedTo, 'SKILL.md'), 'utf8')).toBe('my edits');
        expect(await readFile(join(folder, 'SKILL.md'), 'utf8')).toBe(servedMd);
        expect((await readdir(target.path)).sort()).toEqual(['alpha', 'alpha-2']);
        const exported = await service.exportForUpload(alpha.key);
        expect(exported.ok).toBe(true);
        if (exported.ok)
          expect((await stat(join(exported.folder, 'SKILL.md'))).isFile()).toBe(true);
        // The copy made for one export is removed when the next one starts: none pile up in
        // the temp folder.
        const next = await service.exportForUpload(alpha.key);
        expect(next.ok).toBe(true);
        if (exported.ok && next.ok) {
          await expect(stat(exported.folder)).rejects.toMatchObject({ code: 'ENOENT' });
          expect((await stat(join(next.folder, 'SKILL.md'))).isFile()).toBe(true);
        }
      } finally {
        await target.remove();
      }
    });

    it('logs every message with direction, time and the duration of responses, filterable and exportable', () => {
      const all = service.log({ server: label });
      // The first message is the protocol-revision probe (every server here offers 2026-07-28).
      expect(all[0]).toMatchObject({
        direction: 'out',
        kind: 'request',
        method: 'server/discover',
      });
      const responses = service.log({ server: label, direction: 'in', kind: 'response' });
      expect(responses.length).toBeGreaterThan(5);
      expect(responses.every((r) => typeof r.durationMs === 'number' && r.durationMs >= 0)).toBe(
        true,
      );
      expect(
        service
          .log({ server: label, method: 'skills/' })
          .every((e) => e.method?.startsWith('skills/')),
      ).toBe(true);
      expect(service.log({ server: label, text: 'references/guide.md' }).length).toBeGreaterThan(0);
      const exported = JSON.parse(service.exportLog({ server: label, limit: 3 })) as {
        entries: unknown[];
      };
      expect(exported.entries).toHaveLength(3);
    });
  });
}

describe('one large file, the same verdict over stdio as over HTTP', () => {
  it('verifies an 11 MB reference over stdio (it was cut in two and called garbage) and over HTTP', async () => {
    const lib = await tempDir('skillbench-insp-lib-');
    const build = await tempDir('skillbench-insp-build-');
    const data = await tempDir('skillbench-insp-data-');
    const service = new InspectorService({ dataDir: data.path });
    let http: RunningServer | undefined;
    try {
      const dir = join(lib.path, 'bigfile');
      await mkdir(join(dir, 'references'), { recursive: true });
      await writeFile(
        join(dir, 'SKILL.md'),
        '---\nname: bigfile\ndescription: A skill with a large reference. Use when testing.\n---\nSee references/big.md\n',
      );
      // Over the SDK's own 10 MB stdio buffer, within the 16 MiB a skill may hold.
      await writeFile(
        join(dir, 'references', 'big.md'),
        `${'lorem ipsum dolor sit amet\n'.repeat(420_000)}`,
      );
      const cli = await bundleCli(build.path);
      http = await startEmbeddedHttp(lib.path);
      const inputs: ConnectionInput[] = [
        {
          label: 'stdio',
          kind: 'stdio',
          command: process.execPath,
          args: [cli, 'serve', '--stdio', '--no-watch', lib.path],
        },
        { label: 'http', kind: 'http', url: http.url, bearerToken: http.token },
      ];
      for (const input of inputs) {
        await service.connect(input);
        const [skill] = (await service.discover(input.label)).skills;
        const verified = await service.verify(skill?.key ?? '');
        expect([input.label, verified.verdict]).toEqual([input.label, 'verified']);
        expect(service.unreadableOutput(input.label).count).toBe(0);
      }
    } finally {
      await service.close();
      await http?.close();
      await lib.remove();
      await build.remove();
      await data.remove();
    }
  }, 90_000);
});
