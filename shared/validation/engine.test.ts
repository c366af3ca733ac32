import { describe, expect, it } from 'vitest';
import { applyEdits, parseSkill } from '../skill/index';
import {
  describeBudget,
  fixAllSafe,
  getRule,
  RULES,
  splitDescription,
  suggestProfiles,
  validateSkill,
} from './index';
import type { Diagnostic, RuleId } from './index';
import { PROFILE_IDS } from './types';

const under = (text: string, d: Diagnostic | undefined) =>
  d?.range ? text.slice(d.range.start.offset, d.range.end.offset) : undefined;

describe('validateSkill', () => {
  it('defaults to the agentskills profile and accepts a ParsedSkill', () => {
    const text = '---\nname: my-skill\ndescription: Does things.\n---\n';
    const a = validateSkill(text);
    const b = validateSkill(parseSkill(text));
    expect(Object.keys(a.verdicts)).toEqual(['agentskills']);
    expect(a).toEqual(b);
  });

  it('reports the same fault once per profile, each with its profile', () => {
    const text = '---\nname: my-skill\ndescription: A test skill\nversion: 1.0.0\n---\n';
    const r = validateSkill(text, { profiles: ['agentskills', 'claude-upload', 'claude-code'] });
    const hits = r.diagnostics.filter((d) => d.ruleId === 'keys/unexpected');
    expect(hits.map((d) => [d.profile, d.severity])).toEqual([
      ['agentskills', 'error'],
      ['claude-upload', 'error'],
      ['claude-code', 'warning'],
    ]);
    // ajv also sees additionalProperties at /version: hand rule wins, no schema/invalid.
    expect(r.diagnostics.filter((d) => d.ruleId === 'schema/invalid')).toEqual([]);
  });

  it('reports every problem, not just the first', () => {
    const text = '---\nname: My_Skill--\ndescription: Use when: things <b>\nfoo: 1\nbar: 2\n---\n';
    const r = validateSkill(text, { profiles: ['claude-upload'] });
    const ids = r.diagnostics.map((d) => d.ruleId);
    expect(ids).toEqual(
      expect.arrayContaining([
        'name/uppercase',
        'name/pattern',
        'yaml/unquoted-colon',
        'description/xml-tag',
        'keys/unexpected',
      ]),
    );
    expect(ids.filter((i) => i === 'keys/unexpected')).toHaveLength(2);
  });

  it("mirrors claude.ai's wording in detail for claude-upload", () => {
    const long = `---\nname: claude-x\ndescription: ${'d'.repeat(1030)} <tag>\nextra: 1\n---\n`;
    const r = validateSkill(long, { profiles: ['claude-upload'] });
    const detail = (id: string) => r.diagnostics.find((d) => d.ruleId === id)?.detail;
    expect(detail('name/reserved-word')).toBe(
      "Skill name in SKILL.md cannot contain the reserved word 'claude'",
    );
    expect(detail('description/xml-tag')).toBe('SKILL.md description cannot contain XML tags');
    expect(detail('keys/unexpected')).toBe('unexpected key in SKILL.md frontmatter');
    expect(detail('description/too-long')).toBe(
      "field 'description' in SKILL.md must be at most 1024 characters",
    );
  });

  it('counts code points, not UTF-16 units', () => {
    const emoji = '😀'.repeat(1024);
    const ok = validateSkill(`---\nname: my-skill\ndescription: ${emoji}\n---\n`);
    expect(ok.diagnostics.filter((d) => d.ruleId === 'description/too-long')).toEqual([]);
    const bad = validateSkill(`---\nname: my-skill\ndescription: ${emoji}a\n---\n`);
    expect(bad.diagnostics.filter((d) => d.ruleId === 'description/too-long')).toHaveLength(1);
  });

  it('compares name and folder after NFKC', () => {
    const text = '---\nname: ﬁle-tool\ndescription: d\n---\n';
    const r = validateSkill(text, { fileView: { folderName: 'file-tool', entries: [] } });
    expect(r.diagnostics.filter((d) => d.ruleId === 'name/folder-mismatch')).toEqual([]);
  });

  it('skips folder-dependent rules without a file view', () => {
    const text = '---\nname: correct-name\ndescription: d\n---\n';
    expect(validateSkill(text).verdicts.agentskills).toBe('valid');
    expect(
      validateSkill(text, { fileView: { folderName: 'wrong', entries: [] } }).verdicts.agentskills,
    ).toBe('error');
  });

  it('mcp-serve compares the final segment of the folder path', () => {
    const text = '---\nname: refunds\ndescription: d\n---\n';
    const fv = { folderName: 'refunds', relativePath: 'acme/billing/refunds', entries: [] };
    expect(
      validateSkill(text, { profiles: ['mcp-serve'], fileView: fv }).verdicts['mcp-serve'],
    ).toBe('valid');
    const r = validateSkill(text, {
      profiles: ['mcp-serve'],
      fileView: { ...fv, relativePath: 'acme/other' },
    });
    expect(r.diagnostics.map((d) => d.ruleId)).toContain('name/folder-mismatch');
  });

  it('maps ajv errors to the offending value through the YAML document', () => {
    const text = '---\neffort: extreme\nshell: zsh\n---\n';
    const r = validateSkill(text, { profiles: ['claude-code'] });
    const s = r.diagnostics.filter((d) => d.ruleId === 'schema/invalid');
    expect(s.map((d) => under(text, d))).toEqual(['extreme', 'zsh']);
    expect(s[0]?.message).toBe('"effort" must be one of: low, medium, high, xhigh, max.');
    expect(s[0]?.severity).toBe('warning');
  });

  it('universal-2.1 reports missing required fields from the schema and checks nested structure', () => {
    const text =
      '---\nspec_version: "2.1"\nname: u\ndescription: d\nsecrets:\n  required:\n    - name: TOKEN\n      usage: file\n---\n';
    const r = validateSkill(text, { profiles: ['universal-2.1'] });
    const s = r.diagnostics.filter((d) => d.ruleId === 'schema/invalid');
    expect(s.map((d) => d.field).sort()).toEqual(['/secrets/required/0/usage', '/version']);
    expect(
      under(
        text,
        s.find((d) => d.field === '/secrets/required/0/usage'),
      ),
    ).toBe('file');
  });

  it('flags Claude Code placeholders and shell lines without running them', () => {
    const text =
      '---\nname: x\narguments: [topic]\n---\nWrite about $topic and $ARGUMENTS[0] in ${CLAUDE_SKILL_DIR}. Ignore $HOME.\n!`rm -rf /`\n';
    const r = validateSkill(text, { profiles: ['claude-code'] });
    const ph = r.diagnostics
      .filter((d) => d.ruleId === 'body/placeholder')
      .map((d) => under(text, d));
    expect(ph).toEqual(['$topic', '$ARGUMENTS[0]', '${CLAUDE_SKILL_DIR}']);
    const sh = r.diagnostics.filter((d) => d.ruleId === 'body/shell-command');
    expect(sh.map((d) => [under(text, d), d.severity])).toEqual([['!`rm -rf /`', 'warning']]);
  });
});

describe('quick fixes', () => {
  it('quotes a value with correct YAML escaping', () => {
    const text = '---\nname: my-skill\ndescription: Say "hi": then \\ go\n---\n';
    const r = fixAllSafe(text);
    expect(r.text).toBe('---\nname: my-skill\ndescription: "Say \\"hi\\": then \\\\ go"\n---\n');
    expect(parseSkill(r.text).data).toEqual({
      name: 'my-skill',
      description: 'Say "hi": then \\ go',
    });
  });

  it('fixAllSafe applies safe fixes until none remain and leaves unsafe ones', () => {
    const text =
      '\uFEFF---\r\nname: my-skill\r\ndescription: Use when: notes arrive\r\nversion: 1.0.0\r\n---  \r\nBody\r\n';
    const r = fixAllSafe(text, { profiles: ['agentskills', 'claude-code'] });
    expect(r.text).toBe(
      '---\nname: my-skill\ndescription: "Use when: notes arrive"\nversion: 1.0.0\n---\nBody\n',
    );
    expect(new Set(r.applied.map((d) => d.ruleId))).toEqual(
      new Set([
        'frontmatter/bom',
        'file/line-endings',
        'yaml/unquoted-colon',
        'frontmatter/delimiter-whitespace',
      ]),
    );
    const left = validateSkill(r.text, { profiles: ['agentskills'] });
    expect(left.diagnostics.map((d) => d.ruleId)).toEqual(['keys/unexpected']);
  });

  it('moves an unknown key into metadata as a string', () => {
    const text =
      '---\nname: my-skill\ndescription: d\nmetadata:\n  author: me\nversion: 1.0.0\ntags:\n  - a\n  - b\n---\n';
    const r = validateSkill(text);
    const fixes = r.diagnostics
      .filter((d) => d.ruleId === 'keys/unexpected')
      .map((d) => d.fixes?.[0]);
    let t = text;
    for (let round = 0; round < 2; round++) {
      const f = validateSkill(t).diagnostics.find((d) => d.ruleId === 'keys/unexpected')
        ?.fixes?.[0];
      if (f) t = applyEdits(t, f.edits);
    }
    expect(fixes).toHaveLength(2);
    expect(parseSkill(t).data).toEqual({
      name: 'my-skill',
      description: 'd',
      metadata: { author: 'me', version: '1.0.0', tags: '["a","b"]' },
    });
    expect(validateSkill(t).verdicts.agentskills).toBe('valid');
  });

  it('folds a too-long description into the body on a sentence boundary', () => {
    const sentence = 'This sentence is exactly fifty characters long ok. ';
    const desc = sentence.repeat(25).trim();
    const text = `---\nname: my-skill\ndescription: ${desc}\n---\n# Body\n`;
    const d = validateSkill(text).diagnostics.find((x) => x.ruleId === 'description/too-long');
    const fix = d?.fixes?.[0];
    expect(fix).toBeDefined();
    const after = fix ? applyEdits(text, fix.edits) : '';
    const p = parseSkill(after);
    const kept = (p.data as { description: string }).description;
    expect(kept.length).toBeLessThanOrEqual(1024);
    expect(kept.endsWith('ok.')).toBe(true);
    expect(p.body.startsWith(desc.slice(kept.length).trim())).toBe(true);
    expect(p.body.endsWith('# Body\n')).toBe(true);
    expect(validateSkill(after).verdicts.agentskills).toBe('valid');
  });

  it('splitDescription falls back to a space, then a hard cut', () => {
    expect(splitDescription('aaa bbb ccc', 9)).toEqual(['aaa bbb', 'ccc']);
    expect(splitDescription('abcdefghij', 4)).toEqual(['abcd', 'efghij']);
  });

  it('strips a reserved word and lowercases a name', () => {
    const text = '---\nname: Claude-Helper\ndescription: d\n---\n';
    const r = validateSkill(text, { profiles: ['claude-upload'] });
    expect(
      r.diagnostics.find((d) => d.ruleId === 'name/reserved-word')?.fixes?.[0]?.edits[0]?.newText,
    ).toBe('helper');
    expect(
      r.diagnostics.find((d) => d.ruleId === 'name/uppercase')?.fixes?.[0]?.edits[0]?.newText,
    ).toBe('claude-helper');
  });

  it('offers folder rename as a file operation and name change as a text edit', () => {
    const text = '---\nname: correct-name\ndescription: d\n---\n';
    const d = validateSkill(text, {
      fileView: { folderName: 'wrong-name', entries: [] },
    }).diagnostics.find((x) => x.ruleId === 'name/folder-mismatch');
    expect(d?.fixes?.[0]?.fileOperations).toEqual([
      { kind: 'rename-folder', newName: 'correct-name' },
    ]);
    expect(d?.fixes?.[1]?.edits).toEqual([{ start: 10, end: 22, newText: 'wrong-name' }]);
  });
});

describe('suggestProfiles', () => {
  const s = (t: string) => suggestProfiles(parseSkill(t));
  it('recognises each format', () => {
    expect(s('---\nname: a\ndescription: d\n---\n')).toEqual(['agentskills']);
    expect(s('---\nspec_version: "2.1"\nname: a\n---\n')).toEqual(['universal-2.1']);
    expect(s('---\nname: a\nx-personal-mcp:\n  id: a\n---\n')).toEqual(['x-personal-mcp']);
    expect(s('---\nname: a\nx-personal-mcp:\n  id: a\nargument-hint: x\n---\n')).toEqual([
      'x-personal-mcp',
    ]);
    expect(s('---\nname: a\nallowedTools: [Read]\nmodel: x\n---\n')).toEqual(['agentskills-mcp']);
    expect(s('---\nname: a\nallowedTools: [Read]\nwhen_to_use: x\n---\n')).toEqual([
      'agentskills-mcp',
      'claude-code',
    ]);
    expect(s('---\nname: a\ndisable-model-invocation: true\n---\n')).toEqual(['claude-code']);
    expect(s('no frontmatter')).toEqual(['agentskills']);
  });
});

describe('describeBudget', () => {
  it('sums code points, gives each share, warns over 8,000', () => {
    const b = describeBudget([
      { name: 'a', description: 'x'.repeat(3000) },
      { name: 'b', description: '😀'.repeat(1000) },
    ]);
    expect(b.total).toBe(4000);
    expect(b.shares.map((x) => [x.name, x.characters, x.share])).toEqual([
      ['a', 3000, 0.75],
      ['b', 1000, 0.25],
    ]);
    expect(b.over).toBe(false);
    expect(b.warning).toBeUndefined();
    const over = describeBudget([{ name: 'a', description: 'x'.repeat(8001) }]);
    expect(over.over).toBe(true);
    expect(over.warning).toMatch(/8001/);
    expect(describeBudget([]).total).toBe(0);
  });
});

describe('RULES catalog', () => {
  it('has unique area/what ids with help text and known profiles', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.id).toMatch(/^[a-z0-9-]+\/[a-z0-9-]+$/);
      expect(r.title.length).toBeGreaterThan(3);
      expect(r.help.length).toBeGreaterThan(10);
      for (const p of Object.keys(r.severity)) expect(PROFILE_IDS).toContain(p);
    }
    expect(getRule('name/reserved-word')?.severity).toEqual({
      'claude-upload': 'error',
      'x-personal-mcp': 'error',
    });
  });
});

describe('rule ids are a type derived from the catalog', () => {
  it('a known id is a RuleId, a misspelt one does not compile, and every id is unique', () => {
    const known: RuleId = 'name/reserved-word';
    // @ts-expect-error a misspelt rule id is not a RuleId (checked by `tsc -b` in npm test)
    const misspelt: RuleId = 'name/reserved-wrod';
    expect(RULES.some((r) => r.id === known)).toBe(true);
    expect(RULES.some((r) => r.id === misspelt)).toBe(false);
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
  });
});
