import { describe, expect, it } from 'vitest';
import { RULES, validateSkill } from './index';
import type { FileView, ProfileId } from './index';
import { PROFILE_IDS } from './types';
import { applyEdits } from '../skill/text-edits';

const DESC = 'Turns meeting notes into action items. Use when the user pastes notes.';
const XPM = 'x-personal-mcp';

/** Top-level lines of a valid skill for each profile; a fixture overrides or removes keys. */
function baseFields(profile: ProfileId): Record<string, string> {
  if (profile === 'universal-2.1')
    return {
      spec_version: ' "2.1"',
      name: ' my-skill',
      description: ` ${DESC}`,
      version: ' 1.0.0',
    };
  const f: Record<string, string> = { name: ' my-skill', description: ` ${DESC}`, license: ' MIT' };
  if (profile === 'x-personal-mcp') {
    f[XPM] =
      '\n  id: my-skill\n  version: 1.0.0\n  capabilities:\n    - resource://skills/my-skill/document';
  }
  return f;
}

interface Input {
  text: string;
  fileView?: FileView;
}

const FOLDER: FileView = {
  folderName: 'my-skill',
  fileName: 'SKILL.md',
  entries: [{ path: 'SKILL.md', kind: 'file', size: 100 }],
};

/** A SKILL.md for `profile` with some keys replaced (string) or removed (null), extra lines, and a body. */
function mk(
  profile: ProfileId,
  over: Record<string, string | null> = {},
  extra = '',
  body = '# Body\n',
  fileView: FileView = FOLDER,
): Input {
  const f = { ...baseFields(profile) };
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete f[k];
    else f[k] = v;
  }
  const lines = Object.entries(f).map(([k, v]) => `${k}:${v}`);
  return { text: `---\n${lines.join('\n')}\n${extra}---\n${body}`, fileView };
}

function raw(text: string, fileView: FileView = FOLDER): Input {
  return { text, fileView };
}

type Fixture = (p: ProfileId) => Input;

/** For each rule: a fixture that raises it and one that does not (same shape where possible). */
const TABLE: Record<string, { fail: Fixture; pass: Fixture }> = {
  'frontmatter/bom': {
    fail: (p) => ({ ...mk(p), text: '\uFEFF' + mk(p).text }),
    pass: (p) => mk(p),
  },
  'frontmatter/missing': { fail: () => raw('# Just a heading\n'), pass: (p) => mk(p) },
  'frontmatter/not-at-start': {
    fail: (p) => ({ ...mk(p), text: '\n' + mk(p).text }),
    pass: (p) => mk(p),
  },
  'frontmatter/unclosed': {
    fail: (p) => ({ ...mk(p), text: mk(p).text.replace(/---\n# Body\n$/, '') }),
    pass: (p) => mk(p),
  },
  'frontmatter/dots-closer': {
    fail: (p) => ({ ...mk(p), text: mk(p).text.replace(/---\n# Body/, '...\n# Body') }),
    pass: (p) => mk(p),
  },
  'frontmatter/opener-whitespace': {
    fail: (p) => ({ ...mk(p), text: mk(p).text.replace(/^---\n/, '---  \n') }),
    pass: (p) => mk(p),
  },
  'frontmatter/delimiter-whitespace': {
    fail: (p) => ({ ...mk(p), text: mk(p).text.replace(/---\n# Body/, '---  \n# Body') }),
    pass: (p) => mk(p),
  },
  'frontmatter/not-mapping': { fail: () => raw('---\n- a\n- b\n---\n'), pass: (p) => mk(p) },
  'file/line-endings': {
    fail: (p) => ({ ...mk(p), text: mk(p).text.replace(/\n/g, '\r\n') }),
    pass: (p) => mk(p),
  },
  'file/wrong-name': {
    fail: (p) => ({ ...mk(p), fileView: { ...FOLDER, fileName: 'skill.md' } }),
    pass: (p) => mk(p),
  },
  'file/too-complex': {
    // 101 nested mappings: past VALIDATION_LIMITS.depth, so the frontmatter is not read.
    fail: (p) =>
      mk(p, {}, Array.from({ length: 101 }, (_, i) => `${'  '.repeat(i)}k${i}:\n`).join('')),
    pass: (p) => mk(p),
  },
  'yaml/syntax': { fail: (p) => mk(p, {}, 'license2: "open\n'), pass: (p) => mk(p) },
  'yaml/parser-warning': { fail: (p) => mk(p, {}, 'x: !custom 1\n'), pass: (p) => mk(p) },
  'yaml/unquoted-colon': {
    fail: (p) => mk(p, { description: ` Use when: ${DESC}` }),
    pass: (p) => mk(p, { description: ` "Use when: ${DESC}"` }),
  },
  'yaml/comment-truncates-value': {
    fail: (p) => mk(p, { description: ` ${DESC} C# #tags` }),
    pass: (p) => mk(p, { description: ` "${DESC} C# #tags"` }),
  },
  'yaml/triple-dash-in-value': {
    fail: (p) => mk(p, { description: ` ${DESC} A---B` }),
    pass: (p) => mk(p, { description: ` ${DESC} A-B` }),
  },
  // A metadata value: every reader takes a typed one, so it is the warning everywhere (a typed
  // name is an error where the reader refuses it, docs/skill-format.md §2).
  'yaml/ambiguous-scalar': {
    fail: (p) =>
      p === 'universal-2.1' ? mk(p, { name: ' yes' }) : mk(p, { metadata: '\n  v: 1.0' }),
    pass: (p) =>
      p === 'universal-2.1' ? mk(p, { name: ' "yes"' }) : mk(p, { metadata: '\n  v: "1.0"' }),
  },
  'yaml/flow-collection': {
    fail: (p) => mk(p, p === 'universal-2.1' ? { tags: ' [a, b]' } : { metadata: ' {a: b}' }),
    pass: (p) =>
      mk(p, p === 'universal-2.1' ? { tags: '\n  - a\n  - b' } : { metadata: '\n  a: b' }),
  },
  'yaml/anchor-alias': { fail: (p) => mk(p, { name: ' &n my-skill' }), pass: (p) => mk(p) },
  'yaml/explicit-tag': {
    fail: (p) =>
      p === 'universal-2.1'
        ? mk(p, { version: ' !!str 1.0.0' })
        : mk(p, { metadata: '\n  a: !!str b' }),
    pass: (p) => mk(p),
  },
  'yaml/unknown-tag': { fail: (p) => mk(p, { metadata: '\n  a: !custom b' }), pass: (p) => mk(p) },
  'yaml/duplicate-key': { fail: (p) => mk(p, {}, 'name: my-skill\n'), pass: (p) => mk(p) },
  'yaml/tab-indentation': {
    fail: (p) => mk(p, p === 'universal-2.1' ? { tags: '\n\t- a' } : { metadata: '\n\ta: b' }),
    pass: (p) => mk(p, p === 'universal-2.1' ? { tags: '\n  - a' } : { metadata: '\n  a: b' }),
  },
  'yaml/not-json': {
    fail: (p) => mk(p, { metadata: '\n  1: b' }),
    pass: (p) => mk(p, { metadata: '\n  "1": b' }),
  },
  'keys/unexpected': { fail: (p) => mk(p, { foo: ' bar' }), pass: (p) => mk(p) },
  'name/missing': { fail: (p) => mk(p, { name: null }), pass: (p) => mk(p) },
  'name/type': { fail: (p) => mk(p, { name: '\n  - my-skill' }), pass: (p) => mk(p) },
  'name/too-long': {
    fail: (p) =>
      mk(p, { name: ` ${'a'.repeat(65)}` }, '', '# Body\n', {
        ...FOLDER,
        folderName: 'a'.repeat(65),
      }),
    pass: (p) =>
      mk(p, { name: ` ${'a'.repeat(64)}` }, '', '# Body\n', {
        ...FOLDER,
        folderName: 'a'.repeat(64),
      }),
  },
  'name/uppercase': { fail: (p) => mk(p, { name: ' My-skill' }), pass: (p) => mk(p) },
  'name/pattern': { fail: (p) => mk(p, { name: ' my_skill' }), pass: (p) => mk(p) },
  'name/non-ascii': {
    fail: (p) => mk(p, { name: ' навык' }, '', '# Body\n', { ...FOLDER, folderName: 'навык' }),
    pass: (p) => mk(p),
  },
  'name/folder-mismatch': {
    fail: (p) => mk(p, {}, '', '# Body\n', { ...FOLDER, folderName: 'other' }),
    pass: (p) => mk(p),
  },
  'name/reserved-word': {
    fail: (p) =>
      mk(p, { name: ' claude-notes' }, '', '# Body\n', { ...FOLDER, folderName: 'claude-notes' }),
    pass: (p) => mk(p),
  },
  'name/xml-tag': { fail: (p) => mk(p, { name: ' "<b>"' }), pass: (p) => mk(p) },
  'description/missing': { fail: (p) => mk(p, { description: null }), pass: (p) => mk(p) },
  'description/type': { fail: (p) => mk(p, { description: '\n  a: b' }), pass: (p) => mk(p) },
  'description/empty': { fail: (p) => mk(p, { description: '' }), pass: (p) => mk(p) },
  'description/too-long': {
    fail: (p) => mk(p, { description: ` ${'x'.repeat(1025)}` }),
    pass: (p) => mk(p, { description: ` ${'x'.repeat(1024)}` }),
  },
  'description/too-short': { fail: (p) => mk(p, { description: ' Short.' }), pass: (p) => mk(p) },
  'description/template-text': {
    fail: (p) => mk(p, { description: ' "TODO: Describe when this skill should be used"' }),
    pass: (p) => mk(p, { description: ` Todo lists: ${DESC}` }),
  },
  'description/xml-tag': {
    fail: (p) => mk(p, { description: ` ${DESC} <input>` }),
    pass: (p) => mk(p),
  },
  'description/angle-bracket': {
    fail: (p) => mk(p, { description: ` ${DESC} a -> b` }),
    pass: (p) => mk(p),
  },
  'description/listing-truncated': {
    fail: (p) =>
      mk(p, { description: ` ${'word '.repeat(200)}`, when_to_use: ` ${'more '.repeat(200)}` }),
    pass: (p) => mk(p, { when_to_use: ' When notes arrive.' }),
  },
  'compatibility/too-long': {
    fail: (p) => mk(p, { compatibility: ` ${'y'.repeat(501)}` }),
    pass: (p) => mk(p, { compatibility: ` ${'y'.repeat(500)}` }),
  },
  'compatibility/type': {
    fail: (p) => mk(p, { compatibility: '\n  - linux' }),
    pass: (p) => mk(p, { compatibility: ' linux' }),
  },
  'metadata/type': {
    fail: (p) => mk(p, { metadata: '\n  - a' }),
    pass: (p) => mk(p, { metadata: '\n  a: b' }),
  },
  'metadata/non-string-value': {
    fail: (p) => mk(p, { metadata: '\n  a:\n    - b' }),
    pass: (p) => mk(p, { metadata: '\n  a: b' }),
  },
  'allowed-tools/list': {
    fail: (p) => mk(p, { 'allowed-tools': '\n  - Read\n  - Grep' }),
    pass: (p) => mk(p, { 'allowed-tools': ' Read Grep' }),
  },
  'allowed-tools/commas': {
    fail: (p) => mk(p, { 'allowed-tools': ' Read, Grep' }),
    pass: (p) => mk(p, { 'allowed-tools': ' Read Bash(git add:*, git commit:*)' }),
  },
  'allowed-tools/type': {
    fail: (p) => mk(p, { 'allowed-tools': '\n  a: b' }),
    pass: (p) => mk(p, { 'allowed-tools': ' Read Grep' }),
  },
  'argument-hint/list': {
    fail: (p) => mk(p, { 'argument-hint': ' [file]' }),
    pass: (p) => mk(p, { 'argument-hint': ' "[file]"' }),
  },
  'license/missing': { fail: (p) => mk(p, { license: null }), pass: (p) => mk(p) },
  'body/too-long': {
    fail: (p) => mk(p, {}, '', p === 'agentskills-mcp' ? 'x'.repeat(20001) : 'line\n'.repeat(501)),
    pass: (p) => mk(p, {}, '', 'line\n'.repeat(100)),
  },
  'body/placeholder': {
    fail: (p) => mk(p, {}, '', 'Summarise $ARGUMENTS\n'),
    pass: (p) => mk(p, {}, '', 'Costs 5 dollars\n'),
  },
  'body/shell-command': {
    fail: (p) => mk(p, {}, '', 'Status: !`git status`\n'),
    pass: (p) => mk(p, {}, '', 'Run `git status`\n'),
  },
  'x-personal-mcp/missing': { fail: (p) => mk(p, { [XPM]: null }), pass: (p) => mk(p) },
  'x-personal-mcp/id': {
    fail: (p) =>
      mk(p, {
        [XPM]:
          '\n  id: other\n  version: 1.0.0\n  capabilities:\n    - resource://skills/other/document',
      }),
    pass: (p) => mk(p),
  },
  'x-personal-mcp/version': {
    fail: (p) =>
      mk(p, {
        [XPM]:
          '\n  id: my-skill\n  version: "1.0"\n  capabilities:\n    - resource://skills/my-skill/document',
      }),
    pass: (p) => mk(p),
  },
  'x-personal-mcp/capabilities': {
    fail: (p) =>
      mk(p, { [XPM]: '\n  id: my-skill\n  version: 1.0.0\n  capabilities:\n    - tools' }),
    pass: (p) => mk(p),
  },
  'x-personal-mcp/tags': {
    fail: (p) => mk(p, {}, '  tags:\n    - Bad_Tag\n'),
    pass: (p) => mk(p, {}, '  tags:\n    - good-tag\n'),
  },
  'x-personal-mcp/reference': {
    fail: (p) =>
      mk(
        p,
        {},
        '  references:\n    guide:\n      path: ../guide.md\n      mime_type: text/markdown\n',
      ),
    pass: (p) =>
      mk(
        p,
        {},
        '  references:\n    guide:\n      path: references/guide.md\n      mime_type: text/markdown\n',
        '# Body\n',
        {
          ...FOLDER,
          entries: [...FOLDER.entries, { path: 'references/guide.md', kind: 'file', size: 10 }],
        },
      ),
  },
  'x-personal-mcp/reference-missing': {
    fail: (p) =>
      mk(
        p,
        {},
        '  references:\n    guide:\n      path: references/guide.md\n      mime_type: text/markdown\n',
      ),
    pass: (p) =>
      mk(
        p,
        {},
        '  references:\n    guide:\n      path: references/guide.md\n      mime_type: text/markdown\n',
        '# Body\n',
        {
          ...FOLDER,
          entries: [...FOLDER.entries, { path: 'references/guide.md', kind: 'file', size: 10 }],
        },
      ),
  },
  'tools/name': {
    fail: (p) => mk(p, { tools: tool('Bad_Name') }),
    pass: (p) => mk(p, { tools: tool('good-name') }),
  },
  'tools/input-schema': {
    fail: (p) => mk(p, { tools: tool('t', '      type: strin') }),
    pass: (p) => mk(p, { tools: tool('t') }),
  },
  'tools/input-schema-open': {
    fail: (p) => mk(p, { tools: tool('t', '      type: object') }),
    pass: (p) => mk(p, { tools: tool('t') }),
  },
  'tools/entrypoint': {
    fail: (p) => mk(p, { tools: tool('t', undefined, 'run.ts') }),
    pass: (p) => mk(p, { tools: tool('t') }, '', '# Body\n', withFile('run.mjs')),
  },
  'tools/entrypoint-missing': {
    fail: (p) => mk(p, { tools: tool('t') }),
    pass: (p) => mk(p, { tools: tool('t') }, '', '# Body\n', withFile('run.mjs')),
  },
  'tools/tools-json-stale': {
    fail: (p) =>
      mk(p, { tools: tool('t') }, '', '# Body\n', {
        ...withFile('run.mjs'),
        texts: { 'tools.json': '[]' },
      }),
    pass: (p) =>
      mk(p, { tools: tool('t') }, '', '# Body\n', {
        ...withFile('run.mjs'),
        texts: {
          'tools.json': JSON.stringify([
            {
              name: 't',
              description: 'A tool',
              input_schema: { type: 'object', additionalProperties: false },
              implementation: { runtime: 'node', entrypoint: 'run.mjs' },
            },
          ]),
        },
      }),
  },
  'permissions/overbroad': {
    fail: (p) => mk(p, { permissions: '\n  filesystem:\n    read:\n      - "**/*"' }),
    pass: (p) => mk(p, { permissions: '\n  filesystem:\n    read:\n      - "data/*.csv"' }),
  },
  'files/symlink-escapes': {
    fail: (p) =>
      mk(p, {}, '', '# Body\n', {
        ...FOLDER,
        entries: [...FOLDER.entries, { path: 'link', kind: 'symlink', size: 0, escapes: true }],
      }),
    pass: (p) =>
      mk(p, {}, '', '# Body\n', {
        ...FOLDER,
        entries: [...FOLDER.entries, { path: 'link', kind: 'symlink', size: 0, escapes: false }],
      }),
  },
  'files/symlink-inside': {
    fail: (p) =>
      mk(p, {}, '', '# Body\n', {
        ...FOLDER,
        entries: [
          ...FOLDER.entries,
          { path: 'guide.md', kind: 'file', size: 10 },
          { path: 'link.md', kind: 'symlink', size: 0, escapes: false, target: 'guide.md' },
        ],
      }),
    pass: (p) =>
      mk(p, {}, '', '# Body\n', {
        ...FOLDER,
        entries: [...FOLDER.entries, { path: 'guide.md', kind: 'file', size: 10 }],
      }),
  },
  'files/too-many': {
    fail: (p) => mk(p, {}, '', '# Body\n', files(513, 1)),
    pass: (p) => mk(p, {}, '', '# Body\n', files(512, 1)),
  },
  'files/too-large': {
    fail: (p) => mk(p, {}, '', '# Body\n', files(2, 9 * 1024 * 1024)),
    pass: (p) => mk(p, {}, '', '# Body\n', files(2, 8 * 1024 * 1024)),
  },
  'links/broken': {
    fail: (p) => mk(p, {}, '', 'See [the guide](references/guide.md).\n'),
    pass: (p) =>
      mk(p, {}, '', 'See [the guide](references/guide.md).\n', {
        ...FOLDER,
        entries: [...FOLDER.entries, { path: 'references/guide.md', kind: 'file', size: 10 }],
      }),
  },
  'links/mentioned-missing': {
    fail: (p) => mk(p, {}, '', 'Run `python scripts/fill.py`.\n'),
    pass: (p) =>
      mk(p, {}, '', 'Run `python scripts/fill.py`.\n', {
        ...FOLDER,
        entries: [...FOLDER.entries, { path: 'scripts/fill.py', kind: 'file', size: 10 }],
      }),
  },
  'links/outside-skill': {
    fail: (p) => mk(p, {}, '', 'See [notes](../other/notes.md).\n'),
    pass: (p) => mk(p, {}, '', 'See [notes](https://example.com/notes.md).\n'),
  },
  'schema/invalid': {
    fail: (p) =>
      p === 'universal-2.1'
        ? mk(p, { version: null })
        : p === 'claude-code'
          ? mk(p, { effort: ' extreme' })
          : p === 'agentskills-mcp'
            ? mk(p, { 'user-invocable': ' maybe' })
            : p === 'x-personal-mcp'
              ? mk(p, {}, '  depends_on: other\n')
              : mk(p, { license: '\n  - MIT' }),
    pass: (p) => mk(p),
  },
};

function tool(
  name: string,
  schema = '      type: object\n      additionalProperties: false',
  entry = 'run.mjs',
): string {
  return `\n  - name: ${name}\n    description: A tool\n    input_schema:\n${schema}\n    implementation:\n      runtime: node\n      entrypoint: ${entry}`;
}

function withFile(path: string): FileView {
  return { ...FOLDER, entries: [...FOLDER.entries, { path, kind: 'file', size: 10 }] };
}

function files(n: number, size: number): FileView {
  return {
    ...FOLDER,
    entries: Array.from({ length: n }, (_, i) => ({
      path: i === 0 ? 'SKILL.md' : `f${i}.txt`,
      kind: 'file' as const,
      size,
    })),
  };
}

/** Rules that only fire on inputs the engine cannot produce from a string (internal failures). */
const UNTESTABLE = new Set(['engine/rule-failed']);

describe('every rule has a failing and a passing fixture in every profile that checks it', () => {
  it('the table covers the whole catalog', () => {
    const missing = RULES.map((r) => r.id).filter((id) => !TABLE[id] && !UNTESTABLE.has(id));
    expect(missing).toEqual([]);
  });

  for (const rule of RULES) {
    const fx = TABLE[rule.id];
    if (!fx) continue;
    for (const profile of PROFILE_IDS) {
      const severity = rule.severity[profile];
      if (!severity) continue;
      it(`${rule.id} in ${profile}: ${severity}`, () => {
        const bad = fx.fail(profile);
        const r1 = validateSkill(bad.text, { profiles: [profile], fileView: bad.fileView });
        const hit = r1.diagnostics.filter((d) => d.ruleId === rule.id);
        expect(hit.length, JSON.stringify(r1.diagnostics.map((d) => d.ruleId))).toBeGreaterThan(0);
        for (const d of hit) {
          expect(d.severity).toBe(severity);
          expect(d.profile).toBe(profile);
          expect(d.message.length).toBeGreaterThan(10);
        }
        const good = fx.pass(profile);
        const r2 = validateSkill(good.text, { profiles: [profile], fileView: good.fileView });
        expect(r2.diagnostics.filter((d) => d.ruleId === rule.id)).toEqual([]);
      });
    }
  }

  it('a profile that does not check a rule stays silent on its failing fixture', () => {
    const fx = TABLE['name/reserved-word'];
    const input = fx?.fail('agentskills');
    const r = validateSkill(input?.text ?? '', {
      profiles: ['agentskills', 'claude-code'],
      fileView: input?.fileView,
    });
    expect(r.diagnostics.filter((d) => d.ruleId === 'name/reserved-word')).toEqual([]);
  });

  for (const profile of PROFILE_IDS) {
    it(`the base fixture is valid for ${profile}`, () => {
      const input = mk(profile);
      const r = validateSkill(input.text, { profiles: [profile], fileView: input.fileView });
      expect(r.diagnostics.map((d) => `${d.ruleId}: ${d.message}`)).toEqual([]);
      expect(r.verdicts[profile]).toBe('valid');
    });
  }
});

describe('allowed-tools separated by commas', () => {
  it('the safe fix separates the tools with spaces and keeps a tool’s parentheses whole', () => {
    const text =
      '---\nname: my-skill\ndescription: Does things. Use when asked.\nallowed-tools: Read, Bash(git add:*, git commit:*),Grep\n---\n# Body\n';
    const found = validateSkill(text, { profiles: ['agentskills'] }).diagnostics.find(
      (d) => d.ruleId === 'allowed-tools/commas',
    );
    expect(found?.message).toContain('sees a tool named "Read,"');
    const fix = found?.fixes?.[0];
    expect(fix).toMatchObject({ title: 'Separate the tools with spaces', safe: true });
    const fixed = applyEdits(text, fix?.edits ?? []);
    expect(fixed).toContain('allowed-tools: "Read Bash(git add:*, git commit:*) Grep"\n');
    expect(validateSkill(fixed, { profiles: ['agentskills'] }).diagnostics).toEqual([]);
    expect(
      validateSkill(text, { profiles: ['claude-code'] }).diagnostics.map((d) => d.ruleId),
    ).not.toContain('allowed-tools/commas');
  });
});
