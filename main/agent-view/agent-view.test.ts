import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectSkills } from '../../shared/agent-view';
import { InspectorService } from '../inspector/service';
import { makeAgentLibrary, makeServedLibrary } from '../testing/agent-library';
import { startEmbeddedHttp, type RunningServer } from '../testing/inspector-servers';
import { skillMd, tempDir, writeTree } from '../testing/skill-library';
import { evalsFrom, gatherCatalog } from './service';

type Dir = Awaited<ReturnType<typeof tempDir>>;

/**
 * Integration: a library on disk merged with a second library that Skillbench's own embedded
 * server serves on 127.0.0.1, discovered by the real inspector (docs/agent-view.md §1).
 */
describe('what the agent sees: a library and a real loopback MCP server', () => {
  let local: Dir;
  let served: Dir;
  let data: Dir;
  let server: RunningServer;
  let inspector: InspectorService;

  beforeAll(async () => {
    local = await tempDir('skillbench-agent-local-');
    served = await tempDir('skillbench-agent-served-');
    data = await tempDir('skillbench-agent-data-');
    await makeAgentLibrary(local.path);
    await makeServedLibrary(served.path);
    server = await startEmbeddedHttp(served.path);
    inspector = new InspectorService({ dataDir: data.path });
    await inspector.connect({
      label: 'team',
      kind: 'http',
      url: server.url,
      bearerToken: server.token,
      oauth: false,
    });
    await inspector.discover('team');
  }, 60_000);

  afterAll(async () => {
    await inspector?.close();
    await server?.close();
    await local?.remove();
    await served?.remove();
    await data?.remove();
  });

  it('merges both into one block: paths for disk skills, resource URIs for server skills', async () => {
    const { catalog } = await gatherCatalog({
      roots: [local.path],
      serverSkills: inspector.skills(),
    });
    expect(catalog.skills.map((s) => [s.name, s.source.kind])).toEqual([
      ['invoices', 'library'],
      ['notes', 'library'],
      ['pdf-forms', 'library'],
      ['remote-only', 'server'],
    ]);
    expect(catalog.xml).toContain(`<location>${local.path}/pdf-forms/SKILL.md</location>`);
    expect(catalog.xml).toContain(`<directory>${local.path}/pdf-forms</directory>`);
    expect(catalog.xml).toContain('<location>skill://remote-only/SKILL.md</location>');
    expect(catalog.xml).toContain('<directory>skill://remote-only</directory>');
    expect(catalog.xml).toContain('Fill in PDF forms &amp; check &lt;fields&gt;.');
  });

  it('lets the skill on disk win the name collision, and says which copy was left out and why', async () => {
    const { catalog } = await gatherCatalog({
      roots: [local.path],
      serverSkills: inspector.skills(),
    });
    expect(catalog.collisions).toHaveLength(1);
    const c = catalog.collisions[0];
    expect(c?.winner).toEqual({
      location: `${local.path}/notes/SKILL.md`,
      source: { kind: 'library', root: local.path },
    });
    expect(c?.hidden.map((h) => [h.location, h.source.kind])).toEqual([
      ['skill://notes/SKILL.md', 'server'],
    ]);
    expect(c?.hidden[0]?.why).toContain('A skill on disk wins');
    expect(catalog.xml).not.toContain('The server copy of notes');
  });

  it('selects over the merged catalog with the triggers the server sent in its frontmatter', async () => {
    const { catalog } = await gatherCatalog({
      roots: [local.path],
      serverSkills: inspector.skills(),
    });
    const r = selectSkills(catalog.skills, {
      prompt: 'summarise this spreadsheet into an invoice',
      files: ['hours.xlsx'],
    });
    // The same score (file type +3, mention +2): invoices' priority 2 beats no priority.
    expect(r.selected.map((s) => [s.name, s.score, s.order?.by])).toEqual([
      ['invoices', 5, 'score'],
      ['remote-only', 5, 'priority'],
    ]);
  });

  it('counts the footprint: the block always, bodies of disk skills on selection', async () => {
    const { catalog } = await gatherCatalog({
      roots: [local.path],
      serverSkills: inspector.skills(),
    });
    expect(catalog.footprint.bodiesUnknown).toBe(1);
    expect(catalog.footprint.bodies.bytes).toBe(
      ['# PDF forms\n\nFill the fields.\n', 'Make the invoice.\n', 'Notes.\n'].join('').length,
    );
    expect(catalog.footprint.block.bytes).toBe(Buffer.byteLength(catalog.xml));
  });

  it('reports a triggers.json that cannot be read instead of skipping it, and a folder that is not there', async () => {
    const broken = await tempDir('skillbench-agent-broken-');
    try {
      await writeTree(broken.path, {
        'odd/SKILL.md': skillMd('name: odd\ndescription: Odd one.'),
        'odd/evals/triggers.json': '{"should_trigger": ["x"]}',
      });
      const missing = `${broken.path}/missing`;
      const report = await evalsFrom({ roots: [broken.path, missing] });
      expect(report.skills).toEqual([
        expect.objectContaining({
          name: 'odd',
          error: expect.stringContaining('not in the expected shape') as string,
        }),
      ]);
      expect(report.problems.map((p) => p.path)).toEqual([missing]);
    } finally {
      await broken.remove();
    }
  });

  it('runs the trigger evals against the merged catalog', async () => {
    const report = await evalsFrom({ roots: [local.path], serverSkills: inspector.skills() });
    const invoices = report.skills.find((s) => s.name === 'invoices');
    expect(invoices?.metrics).toMatchObject({ truePositives: 1, falseNegatives: 0 });
    expect(invoices?.cases[0]?.stolenBy).toEqual(['remote-only']);
    expect(report.skills.find((s) => s.name === 'remote-only')?.took).toEqual([
      { prompt: 'an invoice for these billable hours', from: 'invoices' },
    ]);
    const pdf = report.skills.find((s) => s.name === 'pdf-forms');
    expect(pdf?.metrics).toMatchObject({ truePositives: 1, falseNegatives: 1, trueNegatives: 1 });
    expect(report.withoutEvals).toEqual(['notes', 'remote-only']);
  });
});
