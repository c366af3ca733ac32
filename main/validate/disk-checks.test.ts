import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../shared/validation';
import { validateSkillFolder } from './service';

let tmp: string;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(tmp, path)), { recursive: true });
  await writeFile(join(tmp, path), text);
}

/** The SKILL.md text a diagnostic's range covers. */
async function covered(d: Diagnostic | undefined, file: string): Promise<string> {
  const text = await readFile(file, 'utf8');
  return d?.range ? text.slice(d.range.start.offset, d.range.end.offset) : '';
}

const ids = (ds: readonly Diagnostic[]): string[] => ds.map((d) => d.ruleId);

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-disk-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const PLAIN = (body: string): string =>
  `---\nname: my-skill\ndescription: Turns meeting notes into action items. Use when the user pastes notes.\n---\n${body}`;

describe('the link check of a huge body is bounded', () => {
  it('checks links only in the part of the body the rules read, and lists at most the findings bound', async () => {
    // 3 MiB of lines, each with a broken link: far past the 1 MiB the body rules read.
    const line = 'See [x](missing/file.md) here.\n';
    const body =
      line.repeat(Math.ceil((3 * 1024 * 1024) / line.length)) + '[last](also/missing.md)\n';
    await put('my-skill/SKILL.md', PLAIN(body));
    const result = await validateSkillFolder(join(tmp, 'my-skill'), { profiles: ['agentskills'] });
    const broken = result.diagnostics.filter((d) => d.ruleId === 'links/broken');
    expect(broken.length).toBeGreaterThan(0);
    expect(broken.length).toBeLessThanOrEqual(1000);
    // The link after the checked part is not looked at.
    expect(broken.some((d) => d.message.includes('also/missing.md'))).toBe(false);
  });
});

describe('relative Markdown links', () => {
  it('reports a broken link with the range of its destination, and a link leaving the skill', async () => {
    await put(
      'my-skill/SKILL.md',
      PLAIN(
        'See [guide](references/guide.md), [gone](references/nope.md#part) and ![up](../other/x.png).\n',
      ),
    );
    await put('my-skill/references/guide.md', '# Guide\n');
    const r = await validateSkillFolder(join(tmp, 'my-skill'));
    const broken = r.diagnostics.filter((d) => d.ruleId === 'links/broken');
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({
      severity: 'warning',
      profile: 'agentskills',
      range: { start: { line: 5 } },
    });
    expect(await covered(broken[0], r.file)).toBe('references/nope.md#part');
    const outside = r.diagnostics.find((d) => d.ruleId === 'links/outside-skill');
    expect(await covered(outside, r.file)).toBe('../other/x.png');
    expect(r.verdicts.agentskills).toBe('warning');
  });

  it('accepts links that resolve, URLs, anchors and links inside code', async () => {
    const body = [
      'Read [the guide](./references/guide.md) and [folder](references/) and [ref][g].',
      'Visit [site](https://example.com) or [top](#usage) or <https://example.org>.',
      'Inline `[not](a-link.md)` code.',
      '```',
      '[also not](missing.md)',
      '```',
      '[g]: references/guide.md "Guide"',
      '',
    ].join('\n');
    await put('my-skill/SKILL.md', PLAIN(body));
    await put('my-skill/references/guide.md', '# Guide\n');
    const r = await validateSkillFolder(join(tmp, 'my-skill'));
    expect(r.diagnostics).toEqual([]);
    expect(r.verdicts).toEqual({ agentskills: 'valid' });
  });

  it('reports a broken reference-style definition', async () => {
    await put('my-skill/SKILL.md', PLAIN('Use [the guide][g].\n\n[g]: references/missing.md\n'));
    const r = await validateSkillFolder(join(tmp, 'my-skill'));
    const d = r.diagnostics.find((x) => x.ruleId === 'links/broken');
    expect(await covered(d, r.file)).toBe('references/missing.md');
  });
});

describe('files the instructions name', () => {
  it('reports a missing script named in a command, once, at its first mention, with its range', async () => {
    const body = [
      'Fill the form:',
      '',
      '```bash',
      'python scripts/fill.py input.pdf',
      '```',
      '',
      'If it fails, run `python ${CLAUDE_SKILL_DIR}/scripts/fill.py --debug`.',
      'Read references/Guide.md first.',
      '',
    ].join('\n');
    await put('my-skill/SKILL.md', PLAIN(body));
    await put('my-skill/references/guide.md', '# Guide\n');
    const r = await validateSkillFolder(join(tmp, 'my-skill'));
    const named = r.diagnostics.filter((d) => d.ruleId === 'links/mentioned-missing');
    expect(named).toHaveLength(2);
    expect(named[0]).toMatchObject({ severity: 'warning', range: { start: { line: 8 } } });
    expect(named[0]?.message).toContain('"scripts/fill.py"');
    expect(named[0]?.message).toContain('cannot run it');
    expect(await covered(named[0], r.file)).toBe('scripts/fill.py');
    // A file that differs only in capital letters is named.
    expect(named[1]?.message).toContain('"references/guide.md"');
    expect(await covered(named[1], r.file)).toBe('references/Guide.md');
    expect(r.verdicts.agentskills).toBe('warning');
  });

  it('leaves alone files that exist, links, patterns, other folders, URLs and folder names', async () => {
    const body = [
      'Run `python scripts/fill.py` or `./scripts/fill.py`, see [guide](references/guide.md).',
      'Scripts match scripts/*.py and scripts/{name}.py; put output in out/scripts/result.json.',
      'Create src/scripts/build.ts in the project; docs at https://example.com/scripts/x.py.',
      'Everything else lives in references/ and assets/, or $HOME/scripts/x.sh.',
      '',
    ].join('\n');
    await put('my-skill/SKILL.md', PLAIN(body));
    await put('my-skill/scripts/fill.py', 'print(1)\n');
    await put('my-skill/references/guide.md', '# Guide\n');
    const r = await validateSkillFolder(join(tmp, 'my-skill'));
    expect(r.diagnostics).toEqual([]);
  });

  it("a missing file behind a link is the link check's finding alone", async () => {
    await put('my-skill/SKILL.md', PLAIN('See [the guide](references/guide.md).\n'));
    const r = await validateSkillFolder(join(tmp, 'my-skill'));
    expect(ids(r.diagnostics)).toEqual(['links/broken']);
  });
});

const XPM = (refPath: string): string => `---
name: notes-helper
description: Turns meeting notes into action items. Use when the user pastes meeting notes.
x-personal-mcp:
  id: notes-helper
  version: 1.2.0
  capabilities:
    - resource://skills/notes-helper/document
  references:
    style-guide:
      path: ${refPath}
      mime_type: text/markdown
---
# Notes helper
`;

describe('x-personal-mcp references', () => {
  it('reports a referenced file that is missing, at the path value', async () => {
    await put('notes-helper/SKILL.md', XPM('references/style.md'));
    const r = await validateSkillFolder(join(tmp, 'notes-helper'), {
      profiles: ['x-personal-mcp'],
    });
    const d = r.diagnostics.find((x) => x.ruleId === 'x-personal-mcp/reference-missing');
    expect(d?.severity).toBe('error');
    expect(await covered(d, r.file)).toBe('references/style.md');
    expect(r.verdicts['x-personal-mcp']).toBe('error');
  });

  it('passes when the referenced file exists', async () => {
    await put('notes-helper/SKILL.md', XPM('references/style.md'));
    await put('notes-helper/references/style.md', '# Style\n');
    const r = await validateSkillFolder(join(tmp, 'notes-helper'), {
      profiles: ['x-personal-mcp'],
    });
    expect(r.diagnostics).toEqual([]);
  });
});

const TOOLS_YAML = `tools:
  - name: count-words
    description: Count words
    input_schema:
      type: object
      properties:
        path:
          type: string
      additionalProperties: false
    implementation:
      runtime: node
      entrypoint: scripts/count.mjs
`;
const TOOLS_JSON = {
  tools: [
    {
      name: 'count-words',
      description: 'Count words',
      input_schema: {
        type: 'object',
        properties: { path: { type: 'string' } },
        additionalProperties: false,
      },
      implementation: { runtime: 'node', entrypoint: 'scripts/count.mjs' },
    },
  ],
};
const UNIVERSAL = `---
spec_version: "2.1"
name: uni-tool
description: Counts words in a file. Use when the user asks how long a text is.
version: 1.0.0
${TOOLS_YAML}---
# Uni tool
`;

describe('Universal 2.1 entrypoints and tools.json', () => {
  it('reports a missing entrypoint at the entrypoint value', async () => {
    await put('uni-tool/SKILL.md', UNIVERSAL);
    const r = await validateSkillFolder(join(tmp, 'uni-tool'));
    expect(r.profiles).toEqual(['universal-2.1']);
    const d = r.diagnostics.find((x) => x.ruleId === 'tools/entrypoint-missing');
    expect(await covered(d, r.file)).toBe('scripts/count.mjs');
  });

  it('reports a stale tools.json and passes a fresh one', async () => {
    await put('uni-tool/SKILL.md', UNIVERSAL);
    await put('uni-tool/scripts/count.mjs', 'console.log(1);\n');
    await put(
      'uni-tool/tools.json',
      JSON.stringify({ tools: [{ ...TOOLS_JSON.tools[0], description: 'Old text' }] }),
    );
    const stale = await validateSkillFolder(join(tmp, 'uni-tool'));
    expect(ids(stale.diagnostics)).toEqual(['tools/tools-json-stale']);
    expect(stale.diagnostics[0]?.file).toBe('tools.json');

    await put('uni-tool/tools.json', JSON.stringify(TOOLS_JSON, null, 2));
    const fresh = await validateSkillFolder(join(tmp, 'uni-tool'));
    expect(fresh.diagnostics).toEqual([]);
    expect(fresh.verdicts).toEqual({ 'universal-2.1': 'valid' });
  });
});

describe('symlinks and package limits', () => {
  it('reports a symlink that leaves the skill (error for mcp-serve)', async () => {
    await put('my-skill/SKILL.md', PLAIN('# Body\n'));
    await put('secret.txt', 'x');
    await symlink(join(tmp, 'secret.txt'), join(tmp, 'my-skill/secret'));
    const r = await validateSkillFolder(join(tmp, 'my-skill'), {
      profiles: ['agentskills', 'mcp-serve'],
    });
    const found = r.diagnostics
      .filter((d) => d.ruleId === 'files/symlink-escapes')
      .map((d) => [d.profile, d.severity, d.file]);
    expect(found).toEqual([
      ['agentskills', 'warning', 'secret'],
      ['mcp-serve', 'error', 'secret'],
    ]);
  });

  it('names a symlink to another file of the skill: left out by the server, exports and copies, followed by Claude Code in place', async () => {
    await put('my-skill/SKILL.md', PLAIN('# Body\nRun scripts/x.sh\n'));
    await put('my-skill/scripts/real.sh', 'echo hi\n');
    await symlink('real.sh', join(tmp, 'my-skill/scripts/x.sh'));
    const r = await validateSkillFolder(join(tmp, 'my-skill'), {
      profiles: ['agentskills', 'mcp-serve', 'claude-code'],
    });
    const found = r.diagnostics.filter((d) => d.ruleId === 'files/symlink-inside');
    expect(found.map((d) => [d.profile, d.severity, d.file])).toEqual([
      ['agentskills', 'warning', 'scripts/x.sh'],
      ['mcp-serve', 'warning', 'scripts/x.sh'],
      ['claude-code', 'info', 'scripts/x.sh'],
    ]);
    expect(found[0]?.message).toContain(
      '"scripts/x.sh" is a shortcut (symbolic link) to "scripts/real.sh" in this skill.',
    );
    expect(ids(r.diagnostics)).not.toContain('files/symlink-escapes');
  });

  it('counts files and bytes per export target: 201 files fail the upload, 200 pass', async () => {
    await put('my-skill/SKILL.md', PLAIN('# Body\n'));
    await Promise.all(Array.from({ length: 199 }, (_, i) => put(`my-skill/assets/f${i}.txt`, 'x')));
    await put('my-skill/.DS_Store', 'junk'); // always excluded from packages (docs/skill-format.md §3)
    const ok = await validateSkillFolder(join(tmp, 'my-skill'), { profiles: ['claude-upload'] });
    expect(ok.size.files).toBe(200);
    expect(ids(ok.diagnostics)).not.toContain('package/too-many-files');
    expect(ok.targets.find((t) => t.target === 'claude-ai')?.fits).toBe(true);

    await put('my-skill/assets/one-more.txt', 'x');
    const over = await validateSkillFolder(join(tmp, 'my-skill'), { profiles: ['claude-upload'] });
    const d = over.diagnostics.find((x) => x.ruleId === 'package/too-many-files');
    expect(d).toMatchObject({
      severity: 'error',
      profile: 'claude-upload',
      detail: 'Zip contains too many files (maximum 200)',
    });
    expect(over.targets.find((t) => t.target === 'claude-ai')?.fits).toBe(false);
    expect(over.targets.find((t) => t.target === 'archive-tgz')?.fits).toBe(true);
  });

  it('reports a folder over 30 MB for upload and over 16 MiB for the archive', async () => {
    await put('my-skill/SKILL.md', PLAIN('# Body\n'));
    await put('my-skill/assets/big.bin', '');
    await truncate(join(tmp, 'my-skill/assets/big.bin'), 31_000_000); // sparse: no real disk use
    const r = await validateSkillFolder(join(tmp, 'my-skill'), {
      profiles: ['agentskills', 'claude-upload'],
    });
    const large = r.diagnostics
      .filter((d) => d.ruleId === 'package/too-large')
      .map((d) => [d.profile, d.severity]);
    expect(large).toEqual([
      ['agentskills', 'warning'],
      ['claude-upload', 'error'],
    ]);
  });
});
