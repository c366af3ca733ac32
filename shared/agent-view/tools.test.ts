import { describe, expect, it } from 'vitest';
import { applyEdits, parseSkill } from '../skill';
import { validateSkill } from '../validation';
import { hostCompatibility } from './hosts';
import { strictProblems, toolDefinitions, toolsOf, type SkillTool } from './tools';

function tool(schema: Record<string, unknown>): SkillTool {
  return { name: 'convert', description: 'Convert a file.', input_schema: schema };
}

const STRICT_OK = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    options: {
      type: 'object',
      properties: { dpi: { type: ['integer', 'null'] } },
      required: ['dpi'],
      additionalProperties: false,
    },
  },
  required: ['path', 'options'],
  additionalProperties: false,
};

describe('OpenAI strict check', () => {
  it('accepts a schema with every object closed and every field required', () => {
    expect(strictProblems(tool(STRICT_OK))).toEqual([]);
  });

  it('finds an object without additionalProperties: false, at every level', () => {
    const s = structuredClone(STRICT_OK) as Record<string, unknown>;
    delete s['additionalProperties'];
    delete (s['properties'] as { options: Record<string, unknown> }).options[
      'additionalProperties'
    ];
    expect(strictProblems(tool(s)).map((p) => [p.code, p.at])).toEqual([
      ['missing-additional-properties', ''],
      ['missing-additional-properties', 'properties/options'],
    ]);
  });

  it('finds optional fields, open objects, free-form objects and unsupported keywords', () => {
    const problems = strictProblems(
      tool({
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1 },
          extra: { type: 'object' },
          list: {
            type: 'array',
            items: {
              type: 'object',
              properties: { a: {} },
              additionalProperties: true,
              required: ['a'],
            },
          },
        },
        required: ['name'],
        additionalProperties: false,
        allOf: [],
      }),
    );
    expect(problems.map((p) => [p.code, p.at])).toEqual([
      ['unsupported-keyword', ''],
      ['not-required', ''],
      ['unsupported-keyword', 'properties/name'],
      ['free-form-object', 'properties/extra'],
      ['additional-properties-allowed', 'properties/list/items'],
    ]);
    expect(problems[1]?.message).toContain('“extra”, “list”');
  });

  it('refuses a top level that is not an object, and nesting past 10 levels', () => {
    expect(strictProblems(tool({ type: 'string' }))[0]?.code).toBe('root-not-object');
    let deep: Record<string, unknown> = {
      type: 'object',
      properties: { v: { type: 'string' } },
      required: ['v'],
      additionalProperties: false,
    };
    for (let i = 0; i < 10; i++)
      deep = {
        type: 'object',
        properties: { n: deep },
        required: ['n'],
        additionalProperties: false,
      };
    expect(strictProblems(tool(deep)).map((p) => p.code)).toEqual(['too-deep']);
  });
});

const SKILL = `---
spec_version: "2.1"
name: converter
description: Converts documents.
version: 1.0.0
tools:
  - name: convert
    description: Convert a file.
    input_schema:
      type: object
      properties:
        path: { type: string }
        options:
          type: object
          properties:
            dpi: { type: integer } # dots per inch
          required: [dpi]
      required: [path, options]
---
Convert things.
`;

describe('OpenAI strict fixes: text edits on SKILL.md', () => {
  it('offers a safe fix for each object missing additionalProperties that reads back as exactly that change', () => {
    const hosts = hostCompatibility(SKILL);
    const openai = hosts.find((h) => h.host === 'openai-strict');
    expect(openai?.verdict).toBe('problem');
    const fixes = openai?.notes.flatMap((n) => (n.fix ? [n.fix] : [])) ?? [];
    expect(fixes).toHaveLength(2);
    expect(fixes.every((f) => f.safe)).toBe(true);
    let text = SKILL;
    // Apply the later edit first so the earlier one's offsets stay valid.
    const ordered = [...fixes].sort((a, b) => (b.edits[0]?.start ?? 0) - (a.edits[0]?.start ?? 0));
    for (const f of ordered) text = applyEdits(text, f.edits);
    expect(text).toContain(
      '            dpi: { type: integer } # dots per inch\n          required: [dpi]\n          additionalProperties: false\n      required: [path, options]\n      additionalProperties: false\n---',
    );
    const after = hostCompatibility(text).find((h) => h.host === 'openai-strict');
    expect(after?.verdict).toBe('ok');
    expect(validateSkill(text, { profiles: ['universal-2.1'] }).verdicts['universal-2.1']).not.toBe(
      'error',
    );
  });

  it('inserts into a flow mapping before its closing brace', () => {
    const text = SKILL.replace(
      / {4}input_schema:\n[\s\S]*?\n---/,
      '    input_schema: { type: object, properties: { path: { type: string } }, required: [path] }\n---',
    );
    const fix = hostCompatibility(text)
      .find((h) => h.host === 'openai-strict')
      ?.notes.find((n) => n.fix)?.fix;
    expect(fix).toBeDefined();
    const fixed = applyEdits(text, fix?.edits ?? []);
    expect(fixed).toContain('required: [path], additionalProperties: false }');
    expect(toolsOf(parseSkill(fixed).data)[0]?.input_schema['additionalProperties']).toBe(false);
  });

  it('offers no fix while the YAML needed repair', () => {
    const broken = SKILL.replace(
      'description: Converts documents.',
      'description: Converts: documents.',
    );
    const notes = hostCompatibility(broken).find((h) => h.host === 'openai-strict')?.notes ?? [];
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.some((n) => n.fix)).toBe(false);
  });
});

describe('tool definitions per host', () => {
  const t = tool(STRICT_OK);
  it('writes MCP tools/list entries with inputSchema', () => {
    expect(toolDefinitions([t], 'mcp')).toEqual([
      { name: 'convert', description: 'Convert a file.', inputSchema: STRICT_OK },
    ]);
  });
  it('writes Claude API tools with input_schema', () => {
    expect(toolDefinitions([t], 'claude')).toEqual([
      { name: 'convert', description: 'Convert a file.', input_schema: STRICT_OK },
    ]);
  });
  it('writes OpenAI function tools with strict: true', () => {
    expect(toolDefinitions([t], 'openai')).toEqual([
      {
        type: 'function',
        function: {
          name: 'convert',
          description: 'Convert a file.',
          parameters: STRICT_OK,
          strict: true,
        },
      },
    ]);
  });
});

describe('host compatibility', () => {
  it('reports the Claude API limits: 8 MB per skill, 8 skills per request', () => {
    const view = {
      folderName: 'converter',
      entries: [
        { path: 'SKILL.md', kind: 'file' as const, size: 500 },
        { path: 'big.bin', kind: 'file' as const, size: 8_000_000 },
        { path: 'evals/triggers.json', kind: 'file' as const, size: 9_000_000, withheld: 'evals' },
      ],
    };
    const api = hostCompatibility(SKILL, { fileView: view, librarySkills: 9 }).find(
      (h) => h.host === 'claude-api',
    );
    expect(api?.notes.map((n) => n.severity)).toContain('error');
    expect(api?.notes.map((n) => n.message).join('\n')).toMatch(
      /The skill is 8,000,500 bytes; the Claude API takes at most 8,000,000 bytes per skill/,
    );
    expect(api?.notes.map((n) => n.message).join('\n')).toContain(
      'at most 8 skills; your library has 9',
    );
  });

  it('says there is nothing for OpenAI when the skill has no tools', () => {
    const plain = '---\nname: plain\ndescription: Plain.\n---\nBody\n';
    const hosts = hostCompatibility(plain);
    expect(hosts.map((h) => [h.host, h.verdict])).toEqual([
      ['claude-api', 'ok'],
      ['claude-code', 'ok'],
      ['codex', 'ok'],
      ['gemini-cli', 'ok'],
      ['opencode', 'ok'],
      ['mcp', 'ok'],
      ['openai-strict', 'not-applicable'],
    ]);
  });
});
