import { readdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/skill-library';
import { InspectorService } from './service';
import { fixtureSkill, startFixture, startSseFixture } from '../testing/inspector-servers';
import type { FixtureSpec } from '../testing/inspector-servers';
import { inspectionVerdict } from './verdict';
import { sha256Digest } from './verify';
import type { InspectorLimits } from './types';

const SKILL_MD =
  '---\nname: pdf\ndescription: Work with PDF files.\n---\n# PDF\n\nSee references/forms.md.\n';
const FORMS = '# Forms\n\nFill them in.\n';

/** A well-formed skill `pdf` with two files, as entry + files. */
function pdfSkill(): ReturnType<typeof fixtureSkill> {
  return fixtureSkill(
    'pdf',
    { name: 'pdf', description: 'Work with PDF files.' },
    { 'SKILL.md': SKILL_MD, 'references/forms.md': FORMS },
  );
}

/** An extension server serving the given entries and files. */
function extensionSpec(
  entries: unknown[],
  files: FixtureSpec['files'],
  extra: Partial<FixtureSpec> = {},
): FixtureSpec {
  return {
    extension: {},
    listSkills: () => ({ skills: entries }),
    getSkill: (uri) => entries.find((e) => (e as { uri: string }).uri === uri),
    files,
    ...extra,
  };
}

async function withService<T>(
  spec: FixtureSpec,
  limits: Partial<InspectorLimits>,
  fn: (ctx: {
    service: InspectorService;
    requests: { method: string; params: unknown }[];
    target: string;
  }) => Promise<T>,
): Promise<T> {
  const server = await startFixture(spec);
  const data = await tempDir('skillbench-insp-data-');
  const target = await tempDir('skillbench-insp-target-');
  const service = new InspectorService({ dataDir: data.path, limits });
  try {
    await service.connect({ label: 'fixture', kind: 'http', url: server.url });
    return await fn({ service, requests: server.requests, target: target.path });
  } finally {
    await service.close();
    await server.close();
    await data.remove();
    await target.remove();
  }
}

function readsOf(requests: { method: string; params: unknown }[]): string[] {
  return requests
    .filter((r) => r.method === 'resources/read')
    .map((r) => (r.params as { uri: string }).uri);
}

describe('legacy discovery routes (labelled "legacy, unverified")', () => {
  it('reads an April 2026 skill://index.json: skill-md entries, archives and templates', async () => {
    const index = {
      $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
      skills: [
        {
          name: 'pdf',
          type: 'skill-md',
          description: 'Work with PDF files.',
          url: 'skill://pdf/SKILL.md',
          digest: sha256Digest(Buffer.from(SKILL_MD)),
        },
        {
          name: 'zipper',
          type: 'archive',
          description: 'Packed.',
          url: 'skill://zipper.tar.gz',
          digest: sha256Digest(Buffer.from('x')),
        },
        {
          type: 'mcp-resource-template',
          description: 'Docs per product.',
          url: 'skill://docs/{product}/SKILL.md',
        },
      ],
    };
    const spec: FixtureSpec = {
      files: {
        'skill://index.json': { text: JSON.stringify(index), mimeType: 'application/json' },
        'skill://pdf/SKILL.md': { text: SKILL_MD, mimeType: 'text/markdown' },
      },
    };
    await withService(spec, {}, async ({ service, requests, target }) => {
      const d = await service.discover('fixture');
      expect(d.route).toBe('index-april-2026');
      expect(d.skills.map((s) => [s.name, s.uri, s.label, s.route])).toEqual([
        ['pdf', 'skill://pdf/SKILL.md', 'legacy, unverified', 'index-april-2026'],
        ['zipper', 'skill://zipper/SKILL.md', 'legacy, unverified', 'index-april-2026'],
      ]);
      expect(d.skills[1]?.archives).toEqual([
        {
          url: 'skill://zipper.tar.gz',
          digest: sha256Digest(Buffer.from('x')),
          mimeType: 'application/gzip',
        },
      ]);
      expect(d.templates).toEqual([
        { uriTemplate: 'skill://docs/{product}/SKILL.md', description: 'Docs per product.' },
      ]);
      expect(readsOf(requests)).toEqual(['skill://index.json']);
      const v = await service.verify(d.skills[0]?.key ?? '');
      expect(v.verdict).toBe('unverifiable');
      expect(v.files[0]).toMatchObject({
        status: 'unverifiable',
        actual: { digest: sha256Digest(Buffer.from(SKILL_MD)) },
      });
      const view = await service.view(d.skills[0]?.key ?? '');
      expect(view.text).toBe(SKILL_MD);
      expect(await service.saveToLibrary(d.skills[0]?.key ?? '', target)).toMatchObject({
        ok: false,
        reason: 'verification',
      });
      expect(await readdir(target)).toEqual([]);
    });
  });

  it('reads a June 2026 skill://index.json and catches a SKILL.md that does not match its digest', async () => {
    const tampered = SKILL_MD.replace('Fill', 'Exfiltrate');
    const index = {
      skills: [
        {
          url: 'skill://acme/pdf/SKILL.md',
          digest: sha256Digest(Buffer.from(SKILL_MD)),
          frontmatter: { name: 'pdf', description: 'Work with PDF files.' },
        },
        {
          url: 'skill://acme/bad/SKILL.md',
          digest: sha256Digest(Buffer.from(SKILL_MD)),
          frontmatter: { name: 'bad', description: 'Tampered.' },
          archives: [
            {
              url: 'skill://acme/bad.tar.gz',
              mimeType: 'application/gzip',
              digest: sha256Digest(Buffer.from('y')),
            },
          ],
        },
      ],
    };
    const spec: FixtureSpec = {
      files: {
        'skill://index.json': { text: JSON.stringify(index) },
        'skill://acme/pdf/SKILL.md': { text: SKILL_MD, mimeType: 'text/markdown' },
        'skill://acme/bad/SKILL.md': { text: `${tampered}extra`, mimeType: 'text/markdown' },
      },
    };
    await withService(spec, {}, async ({ service }) => {
      const d = await service.discover('fixture');
      expect(d.route).toBe('index-june-2026');
      expect(d.skills.map((s) => [s.name, s.skillPath, s.frontmatter?.description])).toEqual([
        ['pdf', 'acme/pdf', 'Work with PDF files.'],
        ['bad', 'acme/bad', 'Tampered.'],
      ]);
      const good = await service.verify(d.skills[0]?.key ?? '');
      expect(good.files[0]?.status).toBe('unverifiable');
      const bad = await service.readFile(d.skills[1]?.key ?? '', 'skill://acme/bad/SKILL.md');
      expect(bad.verification.status).toBe('mismatch');
      expect(bad.content).toBeUndefined();
    });
  });

  it('finds FastMCP skills by their _manifest and reads the manifest only when the skill is opened', async () => {
    const manifest = {
      skill: 'pdf',
      files: [
        {
          path: 'SKILL.md',
          size: Buffer.byteLength(SKILL_MD),
          hash: sha256Digest(Buffer.from(SKILL_MD)),
        },
        {
          path: 'references/forms.md',
          size: Buffer.byteLength(FORMS),
          hash: sha256Digest(Buffer.from('other')),
        },
      ],
    };
    const spec: FixtureSpec = {
      resources: [
        {
          uri: 'skill://pdf/SKILL.md',
          name: 'pdf',
          mimeType: 'text/markdown',
          description: 'Work with PDF files.',
        },
        { uri: 'skill://pdf/_manifest', name: 'pdf manifest', mimeType: 'application/json' },
        { uri: 'skill://notes/SKILL.md', name: 'notes', mimeType: 'text/markdown' },
      ],
      files: {
        'skill://pdf/SKILL.md': { text: SKILL_MD, mimeType: 'text/markdown' },
        'skill://pdf/references/forms.md': { text: FORMS },
        'skill://pdf/_manifest': { text: JSON.stringify(manifest), mimeType: 'application/json' },
      },
    };
    await withService(spec, {}, async ({ service, requests }) => {
      const d = await service.discover('fixture');
      expect(d.route).toBe('fastmcp-manifest');
      expect(d.skills.map((s) => [s.uri, s.route])).toEqual([
        ['skill://pdf/SKILL.md', 'fastmcp-manifest'],
        ['skill://notes/SKILL.md', 'resources-list'],
      ]);
      expect(d.steps.filter((s) => s.outcome === 'used').map((s) => s.route)).toEqual([
        'fastmcp-manifest',
        'resources-list',
      ]);
      expect(readsOf(requests).filter((u) => u !== 'skill://index.json')).toEqual([]);
      const v = await service.verify(d.skills[0]?.key ?? '');
      expect(readsOf(requests)).toContain('skill://pdf/_manifest');
      expect(v.files.map((f) => [f.path, f.status])).toEqual([
        ['SKILL.md', 'unverifiable'],
        ['references/forms.md', 'mismatch'],
      ]);
      expect(v.verdict).toBe('failed');
    });
  });

  it('falls back to resource templates with a URI the user supplies', async () => {
    const spec: FixtureSpec = {
      templates: [{ uriTemplate: 'skill://docs/{product}/SKILL.md', name: 'docs' }],
      files: {
        'skill://docs/widgets/SKILL.md': {
          text: '---\nname: widgets\ndescription: Widget docs.\n---\nBody\n',
          mimeType: 'text/markdown',
        },
      },
    };
    await withService(spec, {}, async ({ service }) => {
      const empty = await service.discover('fixture');
      expect(empty.route).toBeUndefined();
      expect(empty.templates).toEqual([
        { uriTemplate: 'skill://docs/{product}/SKILL.md', name: 'docs' },
      ]);
      expect(empty.steps.map((s) => [s.route, s.outcome])).toEqual([
        ['extension', 'not-offered'],
        ['index-june-2026', 'not-offered'],
        ['fastmcp-manifest', 'empty'],
        ['resources-list', 'empty'],
        ['resource-template', 'empty'],
      ]);
      const d = await service.discover('fixture', {
        templateUris: ['skill://docs/widgets/SKILL.md', 'file:///etc/passwd'],
      });
      expect(d.route).toBe('resource-template');
      expect(d.skills.map((s) => [s.uri, s.label])).toEqual([
        ['skill://docs/widgets/SKILL.md', 'legacy, unverified'],
      ]);
      expect(d.problems.join(' ')).toMatch(/file: URI, which is refused/);
      const view = await service.view(d.skills[0]?.key ?? '');
      expect(view.frontmatter).toEqual({ name: 'widgets', description: 'Widget docs.' });
    });
  });
});

describe('hostile servers: each problem is detected and reported, nothing is saved', () => {
  it('a tampered supporting file: digest mismatch, content withheld, report fails, save refused', async () => {
    const { entry, files } = pdfSkill();
    files['skill://pdf/references/forms.md'] = { text: FORMS.replace('Fill', 'Burn') };
    await withService(extensionSpec([entry], files), {}, async ({ service, target }) => {
      const [skill] = (await service.discover('fixture')).skills;
      const v = await service.verify(skill?.key ?? '');
      expect(v.verdict).toBe('failed');
      const forms = v.files.find((f) => f.path === 'references/forms.md');
      expect(forms?.status).toBe('mismatch');
      expect(forms?.reasons.join(' ')).toMatch(/does not match the listed digest/);
      expect(
        (await service.readFile(skill?.key ?? '', 'skill://pdf/references/forms.md')).content,
      ).toBeUndefined();
      const report = await service.report('fixture');
      expect(report.checks.find((c) => c.id === 'digests-sizes')).toMatchObject({ status: 'fail' });
      expect(report.verdict).toBe('fail');
      const saved = await service.saveToLibrary(skill?.key ?? '', target);
      expect(saved).toMatchObject({ ok: false, reason: 'verification' });
      expect(await readdir(target)).toEqual([]);
      expect(await service.provenance()).toEqual([]);
    });
  });

  it('a manifest without SKILL.md is a faulty entry in the listing already: the listing-only verdict is a no, and verifying reads nothing', async () => {
    const { entry, files } = pdfSkill();
    entry.resources = entry.resources.filter((r) => !r.uri.endsWith('/SKILL.md'));
    await withService(extensionSpec([entry], files), {}, async ({ service, requests }) => {
      const discovery = await service.discover('fixture');
      const problem = "The manifest does not list the skill's own SKILL.md.";
      expect(discovery.skills[0]?.problems).toEqual([problem]);
      expect(inspectionVerdict({ discovery }).ok).toBe(false);
      const v = await service.verify(discovery.skills[0]?.key ?? '');
      expect(v.verdict).toBe('failed');
      expect(v.problems).toEqual([problem]);
      expect(readsOf(requests)).toEqual([]);
    });
  });

  it('a size mismatch is a failure on its own', async () => {
    const { entry, files } = pdfSkill();
    const forms = entry.resources.find((r) => r.uri.endsWith('forms.md'));
    if (forms) forms.size += 7;
    await withService(extensionSpec([entry], files), {}, async ({ service, target }) => {
      const [skill] = (await service.discover('fixture')).skills;
      const v = await service.verify(skill?.key ?? '');
      const f = v.files.find((x) => x.path === 'references/forms.md');
      expect(f?.status).toBe('mismatch');
      expect(f?.reasons).toEqual([
        `The listing says ${Buffer.byteLength(FORMS) + 7} bytes, the server sent ${Buffer.byteLength(FORMS)}.`,
      ]);
      expect((await service.saveToLibrary(skill?.key ?? '', target)).ok).toBe(false);
      expect(await readdir(target)).toEqual([]);
    });
  });

  it("a frontmatter mismatch fails SKILL.md field by field, and the skill's other files are never read", async () => {
    const { entry, files } = pdfSkill();
    entry.frontmatter = {
      name: 'pdf',
      description: 'Extract, fill, and assemble PDF documents',
      license: 'MIT',
    };
    await withService(extensionSpec([entry], files), {}, async ({ service, requests, target }) => {
      const [skill] = (await service.discover('fixture')).skills;
      const v = await service.verify(skill?.key ?? '');
      expect(v.files[0]?.status).toBe('mismatch');
      expect(v.files[0]?.frontmatterDiffs).toEqual([
        {
          field: '/description',
          kind: 'different',
          entry: 'Extract, fill, and assemble PDF documents',
          file: 'Work with PDF files.',
        },
        { field: '/license', kind: 'missing-in-file', entry: 'MIT' },
      ]);
      expect(v.files[1]).toMatchObject({
        status: 'pending',
        reasons: ['Not read: SKILL.md failed verification, so the skill was not loaded.'],
      });
      expect(readsOf(requests)).toEqual(['skill://pdf/SKILL.md']);
      const report = await service.report('fixture');
      expect(report.checks.find((c) => c.id === 'frontmatter-identical')?.status).toBe('fail');
      expect((await service.saveToLibrary(skill?.key ?? '', target)).ok).toBe(false);
      expect(await readdir(target)).toEqual([]);
    });
  });

  it('an unlisted file in a folder walk fails verification and the manifest-complete check, and is never read', async () => {
    const { entry, files } = pdfSkill();
    files['skill://pdf/scripts/evil.sh'] = { text: 'rm -rf ~\n' };
    const dirs: Record<string, { uri: string; name: string; mimeType: string }[]> = {
      'skill://pdf': [
        { uri: 'skill://pdf/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown' },
        { uri: 'skill://pdf/references', name: 'references', mimeType: 'inode/directory' },
        { uri: 'skill://pdf/scripts', name: 'scripts', mimeType: 'inode/directory' },
      ],
      'skill://pdf/references': [
        { uri: 'skill://pdf/references/forms.md', name: 'forms.md', mimeType: 'text/markdown' },
      ],
      'skill://pdf/scripts': [
        { uri: 'skill://pdf/scripts/evil.sh', name: 'evil.sh', mimeType: 'text/x-sh' },
      ],
    };
    const spec = extensionSpec([entry], files, {
      extension: { directoryRead: true },
      readDirectory: (uri) => (dirs[uri] ? { resources: dirs[uri] } : undefined),
    });
    await withService(spec, {}, async ({ service, requests, target }) => {
      const [skill] = (await service.discover('fixture')).skills;
      const v = await service.verify(skill?.key ?? '');
      expect(v.verdict).toBe('failed');
      expect(v.files.find((f) => f.path === 'scripts/evil.sh')).toMatchObject({
        status: 'unlisted',
      });
      const direct = await service.readFile(skill?.key ?? '', 'skill://pdf/scripts/evil.sh');
      expect(direct.verification.status).toBe('unlisted');
      const report = await service.report('fixture');
      const complete = report.checks.find((c) => c.id === 'manifest-complete');
      expect(complete?.status).toBe('fail');
      expect(complete?.evidence.join(' ')).toContain(
        'skill://pdf/scripts/evil.sh is served in the folder but missing from the manifest',
      );
      expect(readsOf(requests)).not.toContain('skill://pdf/scripts/evil.sh');
      expect((await service.saveToLibrary(skill?.key ?? '', target)).ok).toBe(false);
      expect(await readdir(target)).toEqual([]);
    });
  });

  it('a folder walk stays within its page bound on endless nesting and reports the same way every time', async () => {
    const { entry, files } = pdfSkill();
    // Every folder holds one unlisted file and a new folder below it, forever.
    const deeper = (uri: string) => ({
      resources: [
        { uri: `${uri}/x.sh`, name: 'x.sh', mimeType: 'text/x-sh' },
        { uri: `${uri}/d`, name: 'd', mimeType: 'inode/directory' },
        { uri: `${uri}/e`, name: 'e', mimeType: 'inode/directory' },
      ],
    });
    const spec = extensionSpec([entry], files, {
      extension: { directoryRead: true },
      readDirectory: (uri) => (uri.startsWith('skill://pdf') ? deeper(uri) : undefined),
    });
    const reports: string[] = [];
    for (let round = 0; round < 3; round++) {
      await withService(spec, { maxPages: 12 }, async ({ service, requests }) => {
        const [skill] = (await service.discover('fixture')).skills;
        const v = await service.verify(skill?.key ?? '');
        const walked = requests.filter((r) => r.method === 'resources/directory/read');
        expect(walked).toHaveLength(12);
        expect(v.verdict).not.toBe('verified');
        expect(v.problems.join(' ')).toMatch(/Stopped walking skill:\/\/pdf after 12 pages/);
        const unlisted = v.files.filter((f) => f.status === 'unlisted').map((f) => f.uri);
        expect(unlisted.length).toBeGreaterThan(0);
        expect(unlisted).toEqual([...unlisted].sort());
        expect(readsOf(requests).some((u) => u.endsWith('/x.sh'))).toBe(false);
        reports.push(JSON.stringify({ unlisted, problems: v.problems }));
      });
    }
    expect(new Set(reports).size).toBe(1);
  });

  it('a folder that hands out the same cursor twice ends the walk as partial', async () => {
    const { entry, files } = pdfSkill();
    const spec = extensionSpec([entry], files, {
      extension: { directoryRead: true },
      readDirectory: (uri) =>
        uri === 'skill://pdf'
          ? {
              resources: [
                { uri: 'skill://pdf/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown' },
              ],
              nextCursor: 'again',
            }
          : undefined,
    });
    await withService(spec, {}, async ({ service, requests }) => {
      const [skill] = (await service.discover('fixture')).skills;
      const v = await service.verify(skill?.key ?? '');
      expect(v.verdict).not.toBe('verified');
      expect(v.problems.join(' ')).toMatch(/returned the same cursor twice; the walk is partial/);
      expect(requests.filter((r) => r.method === 'resources/directory/read')).toHaveLength(2);
    });
  });

  it('an endless cursor stops at the page bound and the listing is marked partial', async () => {
    const { entry, files } = pdfSkill();
    let n = 0;
    const spec = extensionSpec([entry], files, {
      listSkills: () => ({ skills: n === 0 ? [entry] : [], nextCursor: `page-${++n}` }),
    });
    await withService(spec, { maxPages: 5 }, async ({ service, requests }) => {
      const d = await service.discover('fixture');
      expect(d.partial).toBe(true);
      expect(d.problems.join(' ')).toMatch(/Stopped skills\/list after 5 pages/);
      expect(requests.filter((r) => r.method === 'skills/list')).toHaveLength(5);
      expect(d.skills).toHaveLength(1);
      const report = await service.report('fixture');
      expect(report.checks.find((c) => c.id === 'pagination')?.status).toBe('fail');
    });
  });

  it('a cursor that repeats is caught at once', async () => {
    const { entry, files } = pdfSkill();
    const spec = extensionSpec([entry], files, {
      listSkills: () => ({ skills: [entry], nextCursor: 'same' }),
    });
    await withService(spec, {}, async ({ service }) => {
      const d = await service.discover('fixture');
      expect(d.partial).toBe(true);
      expect(d.problems.join(' ')).toMatch(/same cursor twice/);
      expect(d.problems.join(' ')).toMatch(/listed more than once/);
    });
  });

  it('an oversized resource is refused: beyond the bound when listed so, a mismatch when listed small', async () => {
    const big = 'x'.repeat(5000);
    const honest = fixtureSkill(
      'big',
      { name: 'big', description: 'Big.' },
      { 'SKILL.md': '---\nname: big\ndescription: Big.\n---\n', 'data.txt': big },
    );
    const liar = fixtureSkill(
      'liar',
      { name: 'liar', description: 'Lies.' },
      { 'SKILL.md': '---\nname: liar\ndescription: Lies.\n---\n', 'data.txt': 'small' },
    );
    const files = { ...honest.files, ...liar.files, 'skill://liar/data.txt': { text: big } };
    await withService(
      extensionSpec([honest.entry, liar.entry], files),
      { maxResourceBytes: 1024 },
      async ({ service, requests, target }) => {
        const [a, b] = (await service.discover('fixture')).skills;
        const va = await service.verify(a?.key ?? '');
        expect(va.files.find((f) => f.path === 'data.txt')).toMatchObject({
          status: 'unverifiable',
        });
        expect(readsOf(requests)).not.toContain('skill://big/data.txt');
        const vb = await service.verify(b?.key ?? '');
        const f = vb.files.find((x) => x.path === 'data.txt');
        expect(f?.status).toBe('mismatch');
        expect(f?.reasons.join(' ')).toMatch(/5,000 bytes, more than the 1,024-byte bound/);
        expect((await service.saveToLibrary(a?.key ?? '', target)).ok).toBe(false);
        expect((await service.saveToLibrary(b?.key ?? '', target)).ok).toBe(false);
        expect(await readdir(target)).toEqual([]);
      },
    );
  });

  it('cuts off a response larger than the message bound on the wire', async () => {
    const huge = 'y'.repeat(3 * 1024 * 1024);
    const s = fixtureSkill(
      'huge',
      { name: 'huge', description: 'Huge.' },
      { 'SKILL.md': '---\nname: huge\ndescription: Huge.\n---\n', 'data.txt': 'tiny' },
    );
    s.files['skill://huge/data.txt'] = { text: huge };
    await withService(
      extensionSpec([s.entry], s.files),
      { maxResourceBytes: 1024, requestTimeoutMs: 5000 },
      async ({ service }) => {
        const [skill] = (await service.discover('fixture')).skills;
        const r = await service.readFile(skill?.key ?? '', 'skill://huge/data.txt');
        expect(r.verification.status).toBe('mismatch');
        expect(r.verification.reasons.join(' ')).toMatch(
          /more than [\d,]+ bytes in one response|bytes, more than/,
        );
        expect(r.content).toBeUndefined();
      },
    );
  });

  it('file: URIs are refused by parsed scheme, in entries and in manifests, and never requested', async () => {
    const { entry, files } = pdfSkill();
    const withFile = {
      ...entry,
      resources: [
        ...entry.resources,
        { uri: 'FILE:///etc/passwd', digest: sha256Digest(Buffer.from('root')), size: 4 },
      ],
    };
    const fileEntry = {
      uri: 'file:///tmp/evil/SKILL.md',
      frontmatter: { name: 'evil', description: 'Evil.' },
      resources: [],
    };
    await withService(
      extensionSpec([withFile, fileEntry], files),
      {},
      async ({ service, requests, target }) => {
        const d = await service.discover('fixture');
        expect(d.skills.map((s) => s.uri)).toEqual(['skill://pdf/SKILL.md']);
        expect(d.problems.join(' ')).toMatch(
          /file:\/\/\/tmp\/evil\/SKILL.md" is a file: URI, which is refused/,
        );
        const v = await service.verify(d.skills[0]?.key ?? '');
        expect(v.verdict).toBe('failed');
        expect(v.files.find((f) => f.uri === 'FILE:///etc/passwd')).toMatchObject({
          status: 'mismatch',
        });
        expect(readsOf(requests).some((u) => /^file:/i.test(u))).toBe(false);
        const report = await service.report('fixture');
        expect(report.checks.find((c) => c.id === 'entry-shape')?.evidence.join(' ')).toMatch(
          /file: URI, which is refused/,
        );
        expect((await service.saveToLibrary(d.skills[0]?.key ?? '', target)).ok).toBe(false);
        expect(await readdir(target)).toEqual([]);
      },
    );
  });

  it("another skill's file in a manifest is never requested: not by a verify, a single read or the report card", async () => {
    const { entry, files } = pdfSkill();
    const foreign = 'skill://admin/credentials.md';
    const withForeign = {
      ...entry,
      resources: [
        ...entry.resources,
        { uri: foreign, digest: sha256Digest(Buffer.from('token')), size: 5 },
      ],
    };
    await withService(
      extensionSpec([withForeign], { ...files, [foreign]: { text: 'token' } }),
      {},
      async ({ service, requests }) => {
        const [skill] = (await service.discover('fixture')).skills;
        const v = await service.verify(skill?.key ?? '');
        expect(v.verdict).toBe('failed');
        expect(v.files.find((f) => f.uri === foreign)).toMatchObject({ status: 'mismatch' });
        const direct = await service.readFile(skill?.key ?? '', foreign);
        expect(direct.verification).toMatchObject({
          status: 'mismatch',
          reasons: [
            '"skill://admin/credentials.md" is outside the skill folder skill://pdf. It was not read.',
          ],
        });
        expect(direct.content).toBeUndefined();
        const report = await service.report('fixture');
        expect(report.checks.find((c) => c.id === 'entry-shape')?.status).toBe('fail');
        expect(readsOf(requests)).not.toContain(foreign);
      },
    );
  });

  it('a slow server times out with a plain message; cancel stops a request in flight', async () => {
    const { entry, files } = pdfSkill();
    await withService(
      extensionSpec([entry], files, { delayMs: 3000 }),
      { requestTimeoutMs: 300 },
      async ({ service }) => {
        const d = await service.discover('fixture');
        expect(d.steps[0]).toMatchObject({ route: 'extension', outcome: 'failed' });
        expect(d.steps[0]?.detail).toMatch(/did not answer within 0\.3 seconds/);
      },
    );
    await withService(
      extensionSpec([entry], files, { delayMs: 3000 }),
      { requestTimeoutMs: 10_000 },
      async ({ service }) => {
        const pending = service.report('fixture');
        setTimeout(() => service.cancel('fixture'), 100);
        await expect(pending).rejects.toThrow(/Cancelled/);
      },
    );
  });

  it('a missing server fails to connect with a plain message', async () => {
    const data = await tempDir('skillbench-insp-data-');
    const service = new InspectorService({
      dataDir: data.path,
      limits: { connectTimeoutMs: 5000 },
    });
    try {
      const dead = await startFixture({});
      const url = dead.url;
      await dead.close();
      await expect(service.connect({ label: 'dead', kind: 'http', url })).rejects.toThrow(
        /Nothing is listening at http:\/\/127\.0\.0\.1:\d+\/mcp|Could not reach/,
      );
      expect(service.status()[0]).toMatchObject({ label: 'dead', state: 'failed' });
      await expect(
        service.connect({ label: 'bad', kind: 'http', url: 'file:///etc/passwd' }),
      ).rejects.toThrow(/not an http:\/\/ or https:\/\/ address/);
    } finally {
      await service.close();
      await data.remove();
    }
  });
});

describe('legacy HTTP+SSE transport', () => {
  it('connects with a bearer token, discovers and verifies', async () => {
    const { entry, files } = pdfSkill();
    const server = await startSseFixture({
      extension: {},
      listSkills: () => ({ skills: [entry] }),
      getSkill: (u) => (u === entry.uri ? entry : undefined),
      files,
      requireToken: 'sse-token-value',
    });
    const data = await tempDir('skillbench-insp-data-');
    const service = new InspectorService({ dataDir: data.path });
    try {
      const status = await service.connect({
        label: 'sse',
        kind: 'sse',
        url: server.url,
        bearerToken: 'sse-token-value',
      });
      expect(status).toMatchObject({ state: 'connected', kind: 'sse', skillsExtension: true });
      const d = await service.discover('sse');
      expect(d.skills.map((s) => s.uri)).toEqual(['skill://pdf/SKILL.md']);
      expect((await service.verify(d.skills[0]?.key ?? '')).verdict).toBe('verified');
      expect(readsOf(server.requests)).toEqual([
        'skill://pdf/SKILL.md',
        'skill://pdf/references/forms.md',
      ]);
      await expect(
        service.connect({ label: 'sse-no-token', kind: 'sse', url: server.url }),
      ).rejects.toThrow(/refused the credentials/);
    } finally {
      await service.close();
      await server.close();
      await data.remove();
    }
  });

  /** Writes one event that never ends (lines of data, never an empty line) on `res`. */
  const floodOneEvent = (res: ServerResponse): void => {
    const line = `data: ${'z'.repeat(4000)}\n`;
    const go = (): void => {
      while (!res.destroyed && res.write(line));
      if (!res.destroyed) res.once('drain', go);
    };
    go();
  };

  /**
   * A raw loopback server speaking the legacy SSE transport as `handle` does, and a service whose
   * message bound is about 1 MB (a resource of 1 KB, base64, plus 1 MiB of framing).
   */
  async function withRawSse(
    handle: (req: IncomingMessage, res: ServerResponse) => void,
    fn: (service: InspectorService, url: string) => Promise<void>,
  ): Promise<void> {
    const server = createServer(handle);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const data = await tempDir('skillbench-insp-data-');
    const service = new InspectorService({
      dataDir: data.path,
      limits: { maxResourceBytes: 1024, requestTimeoutMs: 120_000 },
    });
    try {
      await fn(service, `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`);
    } finally {
      await service.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await data.remove();
    }
  }

  it('a server whose event stream starts an event and never ends it is cut off, not held in memory', async () => {
    // Before: the event source read this stream with the global fetch, unbounded, and held the
    // event until the process ran out of memory (3 GB in 20 s here) or the connection timed out.
    await withRawSse(
      (req, res) => {
        if (req.method !== 'GET') return void res.writeHead(202).end();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: endpoint\ndata: /messages\n\n');
        floodOneEvent(res);
      },
      async (service, url) => {
        await expect(service.connect({ label: 'endless', kind: 'sse', url })).rejects.toThrow(
          /^The server sent more than 1,049,942 bytes in one response; it was cut off\.$/,
        );
      },
    );
  });

  it('a connected session whose stream later starts an endless event closes, and says why', async () => {
    // A server that answers initialize over its stream, then floods one event on any request.
    let stream: ServerResponse | undefined;
    await withRawSse(
      (req, res) => {
        if (req.method === 'GET') {
          stream = res;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('event: endpoint\ndata: /messages\n\n');
          return;
        }
        let body = '';
        req.on('data', (d: Buffer) => (body += d.toString()));
        req.on('end', () => {
          res.writeHead(202).end();
          const m = JSON.parse(body) as { id?: number; method: string };
          const result = {
            protocolVersion: '2024-11-05',
            capabilities: { resources: {} },
            serverInfo: { name: 'flood', version: '1' },
          };
          if (m.method === 'initialize')
            stream?.write(
              `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, result })}\n\n`,
            );
          else if (m.id !== undefined && stream) floodOneEvent(stream);
        });
      },
      async (service, url) => {
        await service.connect({ label: 'later', kind: 'sse', url });
        const discovery = await service.discover('later');
        const details = discovery.steps.map((step) => step.detail ?? '');
        // The request in flight when the stream was cut fails with the reason…
        expect(details).toContain(
          'Reading skill://index.json failed: The server sent more than 1,049,942 bytes in one response; it was cut off.',
        );
        // …and every one after it finds the session closed, and says why.
        expect(
          details.some((d) => /was closed: The server sent more than 1,049,942 bytes/.test(d)),
        ).toBe(true);
        await expect(service.discover('later')).rejects.toThrow(/"later" is not connected/);
      },
    );
  });
});
