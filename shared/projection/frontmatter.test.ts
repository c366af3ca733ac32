import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { projectSkillText, renameSkillText, splitFrontmatter } from './frontmatter';

const upload = { frontmatter: 'upload', toolsJson: true } as const;

/** The frontmatter of a projected text as plain data. */
function fm(text: string): Record<string, unknown> {
  const split = splitFrontmatter(text);
  if (!split) throw new Error('no frontmatter');
  return parse(split.yaml) as Record<string, unknown>;
}

describe('splitFrontmatter', () => {
  it('splits at the fences and keeps the body', () => {
    const s = splitFrontmatter('---\nname: a\n---\n# Body\n');
    expect(s).toEqual({ open: '---\n', yaml: 'name: a\n', close: '---\n', body: '# Body\n' });
  });
  it('accepts a closing fence with trailing spaces and no final newline', () => {
    const s = splitFrontmatter('---\nname: a\n---  ');
    expect(s?.close).toBe('---  ');
    expect(s?.body).toBe('');
  });
  it('returns undefined without an opening fence or without a closing one', () => {
    expect(splitFrontmatter('\n---\nname: a\n---\n')).toBeUndefined();
    expect(splitFrontmatter('---\nname: a\n...\n')).toBeUndefined();
  });
});

describe('projectSkillText for uploads', () => {
  it('leaves a clean six-key skill byte for byte (apart from normalisation)', () => {
    const src =
      '---\nname: my-skill # the id\ndescription: "Use when: x"\nlicense: MIT\n---\n# Body\n';
    const r = projectSkillText(src, upload);
    expect(r.text).toBe(src);
    expect(r.changes).toEqual([]);
    expect(r.name).toBe('my-skill');
  });

  it('strips the BOM and CRLF', () => {
    const r = projectSkillText('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n', upload);
    expect(r.text).toBe('---\nname: a\ndescription: b\n---\nbody\n');
    expect(r.normalisations.map((n) => n.kind)).toEqual(['bom-stripped', 'crlf-to-lf']);
  });

  it('serialises the x-personal-mcp block into namespaced metadata strings', () => {
    const src = [
      '---',
      'name: notes-to-actions',
      'description: Turns notes into actions.',
      'x-personal-mcp:',
      '  id: notes-to-actions',
      '  version: 1.2.0',
      '  tags: [meetings, notes]',
      '  references:',
      '    style-guide: {path: references/style.md, mime_type: text/markdown}',
      '---',
      'Body',
      '',
    ].join('\n');
    const r = projectSkillText(src, upload);
    const data = fm(r.text);
    expect(Object.keys(data)).toEqual(['name', 'description', 'metadata']);
    expect(data.metadata).toEqual({
      'x-personal-mcp.id': 'notes-to-actions',
      'x-personal-mcp.version': '1.2.0',
      'x-personal-mcp.tags': '["meetings","notes"]',
      'x-personal-mcp.references':
        '{"style-guide":{"path":"references/style.md","mime_type":"text/markdown"}}',
    });
    expect(r.text).toContain('x-personal-mcp.version: "1.2.0"');
    expect(r.changes.filter((c) => c.action === 'moved-to-metadata').map((c) => c.to)).toContain(
      'metadata.x-personal-mcp.version',
    );
    expect(r.text.endsWith('---\nBody\n')).toBe(true);
  });

  it('moves Claude Code keys into metadata, drops hooks, and says why for each', () => {
    const src =
      '---\n# author note\nname: a\ndescription: b\nwhen_to_use: when asked\nmodel: opus\nuser-invocable: false\nhooks:\n  PreToolUse: echo hi\nmetadata:\n  author: me # keep this comment\n---\n';
    const r = projectSkillText(src, upload);
    const data = fm(r.text);
    expect(Object.keys(data)).toEqual(['name', 'description', 'metadata']);
    expect(data.metadata).toEqual({
      author: 'me',
      when_to_use: 'when asked',
      model: 'opus',
      'user-invocable': 'false',
    });
    const hooks = r.changes.find((c) => c.key === 'hooks');
    expect(hooks?.action).toBe('dropped');
    expect(hooks?.why).toMatch(/shell commands/);
    expect(r.changes.find((c) => c.key === 'when_to_use')?.why).toMatch(
      /keys only Claude Code reads/,
    );
    expect(r.text).toContain('# author note');
    expect(r.text).toContain('# keep this comment');
  });

  it('keeps the author metadata value when a moved key collides with it', () => {
    const r = projectSkillText(
      '---\nname: a\ndescription: b\nversion: 2.0.0\nmetadata:\n  version: "1.0"\n---\n',
      upload,
    );
    expect((fm(r.text).metadata as Record<string, string>).version).toBe('1.0');
    expect(r.changes.find((c) => c.key === 'version')?.action).toBe('dropped');
  });

  it('stringifies non-text metadata values and joins an allowed-tools list', () => {
    const r = projectSkillText(
      '---\nname: a\ndescription: b\nallowed-tools: [Read, Bash]\nmetadata: {count: 3, flags: [x]}\n---\n',
      upload,
    );
    const data = fm(r.text);
    expect(data['allowed-tools']).toBe('Read Bash');
    expect(data.metadata).toEqual({ count: '3', flags: '["x"]' });
  });

  it('writes Universal 2.1 tools as tools.json and out of the frontmatter', () => {
    const src =
      '---\nname: a\ndescription: b\nspec_version: "2.1"\ntools:\n  - name: run\n    input_schema: {type: object}\n---\n';
    const r = projectSkillText(src, upload);
    expect(JSON.parse(r.toolsJson ?? '')).toEqual([
      { name: 'run', input_schema: { type: 'object' } },
    ]);
    expect(fm(r.text).tools).toBeUndefined();
    expect(r.changes.find((c) => c.key === 'tools')).toMatchObject({
      action: 'written-to-file',
      to: 'tools.json',
    });
    expect((fm(r.text).metadata as Record<string, string>).spec_version).toBe('2.1');
  });

  it('leaves the frontmatter of unchanged targets alone but still writes tools.json', () => {
    const src = '---\nname: a\ndescription: b\nhooks: {x: y}\ntools: [{name: t}]\n---\n';
    const r = projectSkillText(src, { frontmatter: 'unchanged', toolsJson: true });
    expect(r.text).toBe(src);
    expect(r.toolsJson).toBe('[\n  {\n    "name": "t"\n  }\n]\n');
  });

  it('reports frontmatter it cannot read instead of guessing', () => {
    expect(projectSkillText('no fences', upload).problem?.message).toMatch(/no frontmatter/);
    expect(projectSkillText('---\nname: a\nname: b\n---\n', upload).problem?.detail).toMatch(
      /[Dd]uplicate|unique/,
    );
    expect(projectSkillText('---\n- a\n---\n', upload).problem).toBeDefined();
  });
});

describe('renameSkillText', () => {
  it('replaces only the name value', () => {
    expect(renameSkillText('---\nname: demo # c\ndescription: d\n---\nx', 'demo-2')).toBe(
      '---\nname: demo-2 # c\ndescription: d\n---\nx',
    );
  });
  it('handles quoted names, CRLF and a BOM', () => {
    expect(renameSkillText('\uFEFF---\r\nname: "demo"\r\n---\r\n', 'demo-2')).toBe(
      '\uFEFF---\r\nname: demo-2\r\n---\r\n',
    );
  });
  it('adds a name when there is none', () => {
    expect(renameSkillText('---\ndescription: d\n---\n', 'x')).toBe(
      '---\nname: x\ndescription: d\n---\n',
    );
  });
});
