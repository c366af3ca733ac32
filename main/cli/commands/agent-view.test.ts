import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAgentLibrary, makeServedLibrary } from '../../testing/agent-library';
import { startEmbeddedHttp, type RunningServer } from '../../testing/inspector-servers';
import { bundleCli, runCliProcess as runProcess, tempDir } from '../../testing/skill-library';
import { serverHost, splitCommandLine } from '../support/remote-skills';

type Dir = Awaited<ReturnType<typeof tempDir>>;

/** The bundled CLI as a child process, its output as `out` and `err`. */
async function runCliProcess(
  cli: string,
  args: string[],
): Promise<{ code: number | null; out: string; err: string }> {
  const r = await runProcess(cli, args);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

/** `skillbench catalog`, `select` and `pack --target tools-*`, run as the bundled CLI in a child process. */
describe('skillbench catalog, select and tool targets (child process)', () => {
  let local: Dir;
  let served: Dir;
  let build: Dir;
  let cli: string;
  let http: RunningServer;

  beforeAll(async () => {
    local = await tempDir('skillbench-cli-agent-local-');
    served = await tempDir('skillbench-cli-agent-served-');
    build = await tempDir('skillbench-cli-agent-build-');
    await makeAgentLibrary(local.path);
    await makeServedLibrary(served.path);
    cli = await bundleCli(build.path);
    http = await startEmbeddedHttp(served.path);
  }, 90_000);

  afterAll(async () => {
    await http?.close();
    await local?.remove();
    await served?.remove();
    await build?.remove();
  });

  it('catalog prints the <available_skills> block, merging a stdio server started from the CLI itself', async () => {
    const r = await runCliProcess(cli, [
      'catalog',
      local.path,
      '--stdio',
      `"${process.execPath}" "${cli}" serve --stdio "${served.path}"`,
    ]);
    expect(r.code).toBe(0);
    expect(r.out.startsWith('<available_skills>\n  <skill>\n    <name>invoices</name>')).toBe(true);
    expect(r.out.trimEnd().endsWith('</available_skills>')).toBe(true);
    expect(r.out).toContain(`<location>${local.path}/notes/SKILL.md</location>`);
    expect(r.out).toContain('<location>skill://remote-only/SKILL.md</location>');
    expect(r.out).toContain('<directory>skill://remote-only</directory>');
    expect(r.out).not.toContain('The server copy of notes');
    expect(r.err).toContain('4 skills listed');
    expect(r.err).toMatch(/Name collision: notes — listed: .*\/notes\/SKILL\.md/);
    expect(r.err).toContain('left out: skill://notes/SKILL.md. A skill on disk wins');
  });

  it('catalog --format json lists skills, sources, collisions and footprint for an HTTP server with a token', async () => {
    const r = await runCliProcess(cli, [
      'catalog',
      local.path,
      '--http',
      http.url,
      '--token',
      http.token ?? '',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as {
      skills: { name: string; source: { kind: string; server?: string } }[];
      collisions: { name: string }[];
      footprint: { block: { bytes: number; tokens: number }; bodiesUnknown: number };
      xml: string;
    };
    expect(doc.skills.map((s) => [s.name, s.source.kind])).toEqual([
      ['invoices', 'library'],
      ['notes', 'library'],
      ['pdf-forms', 'library'],
      ['remote-only', 'server'],
    ]);
    expect(doc.skills[3]?.source.server).toBe(new URL(http.url).host);
    expect(doc.collisions.map((c) => c.name)).toEqual(['notes']);
    expect(doc.footprint.block.bytes).toBe(Buffer.byteLength(doc.xml));
    expect(doc.footprint.bodiesUnknown).toBe(1);
  });

  it('catalog --format json gives what Codex makes of the skills on disk: its lines in its order, the unlisted, the skipped', async () => {
    const lib = await tempDir('skillbench-cli-codex-');
    try {
      const skill = async (folder: string, text: string): Promise<void> => {
        await mkdir(join(lib.path, folder), { recursive: true });
        await writeFile(join(lib.path, folder, 'SKILL.md'), text);
      };
      await skill('zeta', '---\nname: zeta\ndescription: Last by name.\n---\n');
      await skill('Upper', '---\nname: Upper Case\ndescription: Codex lists it as written.\n---\n');
      await skill('unnamed', '---\ndescription: Named after the folder.\n---\n');
      await skill('no-description', '---\nname: no-description\n---\n# Body only\n');
      await skill('colon', '---\nname: colon\ndescription: Broken: yes\n---\n');
      await skill('quiet', '---\nname: quiet\ndescription: Only when named.\n---\n');
      await mkdir(join(lib.path, 'quiet', 'agents'));
      await writeFile(
        join(lib.path, 'quiet', 'agents', 'openai.yaml'),
        'policy:\n  allow_implicit_invocation: false\n',
      );
      // Why: an `agents` folder that is a link is not followed to a settings file outside the skill.
      await skill('linked-settings', '---\nname: linked-settings\ndescription: Listed.\n---\n');
      await symlink(join(lib.path, 'quiet', 'agents'), join(lib.path, 'linked-settings', 'agents'));
      const r = await runCliProcess(cli, ['catalog', lib.path, '--format', 'json']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.out) as { codex: Record<string, string>[] };
      const folder = (location: string | undefined): string =>
        (location ?? '').split('/').slice(-2)[0] ?? '';
      expect(
        doc.codex.map((e) => [folder(e['location']), e['line'] ?? e['unlisted'] ?? e['skipped']]),
      ).toEqual([
        ['Upper', '- Upper Case: Codex lists it as written.'],
        ['colon', '- colon: Broken: yes'],
        ['linked-settings', '- linked-settings: Listed.'],
        ['unnamed', '- unnamed: Named after the folder.'],
        ['zeta', '- zeta: Last by name.'],
        [
          'quiet',
          "Codex loads it for the user to name ($quiet) but keeps it out of the model's list: its agents/openai.yaml sets allow_implicit_invocation: false.",
        ],
        ['no-description', 'missing field `description`'],
      ]);
      expect(doc.codex.at(-1)?.['why']).toBe('Codex skips it: it has no description.');
    } finally {
      await lib.remove();
    }
  });

  it('catalog --format json gives what Gemini CLI makes of the skills on disk: what it lists, names it lists once, the skipped', async () => {
    const lib = await tempDir('skillbench-cli-gemini-');
    try {
      const skill = async (folder: string, text: string): Promise<void> => {
        await mkdir(join(lib.path, folder), { recursive: true });
        await writeFile(join(lib.path, folder, 'SKILL.md'), text);
      };
      // Each case is what Gemini CLI 0.61.0 did with such a file (docs/gemini-cli-listing.md).
      await skill('upper', '---\nname: Upper Case\ndescription: Listed as written.\n---\n');
      await skill('colon', '---\nname: "co:lon"\ndescription: Broken: yes\n---\n');
      await skill('one-a', '---\nname: shared\ndescription: First of a name.\n---\n');
      await skill('one-b', '---\nname: shared\ndescription: Second of a name.\n---\n');
      await skill('spaced', '--- \nname: spaced\ndescription: A space after the dashes.\n---\n');
      await skill('group/deep', '---\nname: deep\ndescription: Two folders down.\n---\n');
      const r = await runCliProcess(cli, ['catalog', lib.path, '--format', 'json']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.out) as {
        gemini: {
          location: string;
          name?: string;
          skipped?: string;
          oneOf?: string;
          otherwise?: string[];
        }[];
      };
      const folder = (location: string): string => location.split('/').slice(-2)[0] ?? '';
      expect(doc.gemini.map((e) => [folder(e.location), e.name ?? e.skipped])).toEqual([
        ['colon', '-co-lon-'],
        ['one-a', 'shared'],
        ['one-b', 'shared'],
        ['upper', 'Upper Case'],
        [
          'deep',
          'Gemini CLI does not see it: it looks for SKILL.md only in its skills folder and the folders directly in it, and this one is 2 folders down.',
        ],
        ['spaced', 'Gemini CLI skips it: its first line is not exactly `---`.'],
      ]);
      expect(doc.gemini[0]?.otherwise?.[0]).toMatch(/^its frontmatter is not YAML: it reads/);
      expect(doc.gemini[1]?.oneOf).toBe(
        '2 skills here are named “shared”: Gemini CLI lists one skill per name, the last its file search finds, so only one of them.',
      );
      expect(doc.gemini[3]?.oneOf).toBeUndefined();
    } finally {
      await lib.remove();
    }
  });

  it('catalog --format json gives what OpenCode makes of the skills on disk: by name, no description kept apart, the skipped', async () => {
    const lib = await tempDir('skillbench-cli-opencode-');
    try {
      const skill = async (folder: string, text: string): Promise<void> => {
        await mkdir(join(lib.path, folder), { recursive: true });
        await writeFile(join(lib.path, folder, 'SKILL.md'), text);
      };
      // Each case is what OpenCode 1.18.33 did with such a file (docs/opencode-listing.md).
      await skill('zeta', '---\nname: zeta\ndescription: Use when: last.\n---\n');
      await skill('quiet', '---\nname: Quiet One\n---\n# No description\n');
      await skill('toml', '---toml\nname: toml\ndescription: Another format.\n---\n');
      const r = await runCliProcess(cli, ['catalog', lib.path, '--format', 'json']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.out) as {
        opencode: {
          location: string;
          name?: string;
          description?: string;
          skipped?: string;
          otherwise?: string[];
        }[];
      };
      expect(
        doc.opencode.map((e) => [e.name ?? null, e.description ?? null, e.skipped ?? null]),
      ).toEqual([
        ['Quiet One', null, null],
        ['zeta', 'Use when: last.', null],
        [
          null,
          null,
          'OpenCode skips it: it has no frontmatter (its first line `---toml` names a format it cannot read).',
        ],
      ]);
      expect(doc.opencode[1]?.otherwise?.[0]).toMatch(/^its frontmatter is not YAML/);
    } finally {
      await lib.remove();
    }
  });

  it('catalog --token-file reads the token from a file (as inspect and serve do), never from the command line', async () => {
    const file = join(build.path, 'catalog-token');
    await writeFile(file, `${http.token ?? ''}\n`, { mode: 0o600 });
    const r = await runCliProcess(cli, ['catalog', '--http', http.url, '--token-file', file]);
    expect(r.err).not.toContain('warning');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('<name>remote-only</name>');
    // A file other users can read gives the token away: warned, and still used.
    await chmod(file, 0o644);
    const shared = await runCliProcess(cli, ['catalog', '--http', http.url, '--token-file', file]);
    expect(shared.code).toBe(0);
    expect(shared.err).toContain(`other users of this computer can read ${file}`);
    const empty = join(build.path, 'empty-token');
    await writeFile(empty, '\n', { mode: 0o600 });
    const none = await runCliProcess(cli, ['catalog', '--http', http.url, '--token-file', empty]);
    expect(none.code).toBe(2);
    expect(none.err).toContain(`The token file ${empty} is empty.`);
    const both = await runCliProcess(cli, [
      'catalog',
      '--http',
      http.url,
      '--token-file',
      file,
      '--token',
      'x',
    ]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('Give each --http server one token');
    const orphan = await runCliProcess(cli, ['catalog', local.path, '--token-file', file]);
    expect(orphan.code).toBe(2);
    expect(orphan.err).toContain('--token-file must follow the --http URL');
  });

  it('catalog refuses a --token without an --http before it, and an unreachable server, with exit 2', async () => {
    const usage = await runCliProcess(cli, ['catalog', local.path, '--token', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('--token must follow the --http URL');
    const down = await runCliProcess(cli, ['catalog', '--http', 'http://127.0.0.1:1/mcp']);
    expect(down.code).toBe(2);
    const missing = `${local.path}/no-such-folder`;
    const gone = await runCliProcess(cli, ['catalog', local.path, missing]);
    expect(gone.code).toBe(2);
    expect(gone.out).toContain('<name>pdf-forms</name>');
    const select = await runCliProcess(cli, ['select', 'a form', missing]);
    expect(select.code).toBe(2);
    expect(select.err).toContain('no-such-folder');
  });

  it('select --format json gives the selected skills in order with their reasons, and the rest as considered', async () => {
    const r = await runCliProcess(cli, [
      'select',
      'Fill in the form and the invoice',
      '--file',
      'scan.PDF',
      '--intent',
      'fill-form',
      '--format',
      'json',
      local.path,
    ]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as {
      threshold: number;
      selected: { name: string; score: number; reasons: { kind: string; trigger: string }[] }[];
      considered: { name: string; score: number; hint?: { sharedWords: string[] } }[];
    };
    expect(doc.threshold).toBe(3);
    expect(doc.selected.map((s) => [s.name, s.score])).toEqual([['pdf-forms', 8]]);
    expect(doc.selected[0]?.reasons.map((x) => [x.kind, x.trigger])).toEqual([
      ['file-type', '.pdf'],
      ['mention', 'form'],
      ['mention', 'fill in'],
      ['intent', 'fill-form'],
    ]);
    expect(doc.considered.map((s) => [s.name, s.score])).toEqual([
      ['invoices', 2],
      ['notes', 0],
    ]);
  });

  it('select prints the reasons, the tie-break and the hint for a skill without triggers', async () => {
    const r = await runCliProcess(cli, [
      'select',
      'an invoice for the meeting notes',
      '--threshold',
      '2',
      local.path,
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Threshold 2. Selected (1):');
    expect(r.out).toContain('1. invoices  score 2, priority 2');
    expect(r.out).toContain('+ The prompt mentions “invoice” (mention “invoice”, +2).');
    expect(r.out).toContain('It has no when_to_use triggers.');
    expect(r.out).toContain(
      'Hint, not part of the selection rules: its description shares “meeting”, “notes” with the prompt',
    );
  });

  it('select --eval reports precision and recall and fails (exit 1) when an example fails', async () => {
    const r = await runCliProcess(cli, ['select', '--eval', local.path]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('pdf-forms: precision 100% (1 of 1), recall 50% (1 of 2)');
    expect(r.out).toContain('FAIL should select: “a form” — selected: nothing');
    expect(r.out).toContain('invoices: precision 100% (1 of 1), recall 100% (1 of 1)');
    expect(r.out).toContain('Library: precision 100% (2 of 2), recall 67% (2 of 3)');
    const json = await runCliProcess(cli, ['select', '--eval', '--format', 'json', local.path]);
    expect((JSON.parse(json.out) as { library: { recall: number } }).library.recall).toBeCloseTo(
      2 / 3,
    );
  });

  it('pack --target tools-mcp and tools-claude print the tool definitions; tools-openai refuses a schema strict mode would refuse', async () => {
    const skill = `${local.path}/pdf-forms`;
    const mcp = await runCliProcess(cli, ['pack', skill, '--target', 'tools-mcp']);
    expect(mcp.code).toBe(0);
    expect(JSON.parse(mcp.out)).toEqual([
      {
        name: 'fill',
        description: 'Fill a form.',
        inputSchema: {
          type: 'object',
          properties: { path: { type: 'string' } },
          required: ['path'],
        },
      },
    ]);
    const claude = await runCliProcess(cli, ['pack', skill, '--target', 'tools-claude']);
    expect((JSON.parse(claude.out) as { input_schema: unknown }[])[0]?.input_schema).toBeDefined();
    const openai = await runCliProcess(cli, ['pack', skill, '--target', 'tools-openai']);
    expect(openai.code).toBe(1);
    expect(openai.out).toBe('');
    expect(openai.err).toContain(
      'Not written: OpenAI strict mode would refuse the tools of pdf-forms',
    );
    const none = await runCliProcess(cli, ['pack', `${local.path}/notes`, '--target', 'tools-mcp']);
    expect(none.code).toBe(1);
    expect(none.err).toContain('declares no tools');
  });

  it('names a mistyped server address in words, not "Invalid URL"', () => {
    expect(serverHost('http://127.0.0.1:8123/mcp')).toBe('127.0.0.1:8123');
    expect(() => serverHost('http://[::1/mcp')).toThrow(
      '"http://[::1/mcp" is not a web address. Use http://… or https://….',
    );
  });

  it('splits a --stdio command line on spaces, with quotes and backslashes', () => {
    expect(splitCommandLine(`node "my cli.js" serve --stdio 'a b' c\\ d ""`)).toEqual([
      'node',
      'my cli.js',
      'serve',
      '--stdio',
      'a b',
      'c d',
      '',
    ]);
  });
});
