import { describe, expect, it } from 'vitest';
import { parseSkill } from '../skill/frontmatter-parser';
import { hostCompatibility, type HostId } from './hosts';
import { exportTools } from './tools';

const SKILL = `---\nname: notes\ndescription: Takes meeting notes. Use when asked for minutes.\n---\n# Notes\n`;

describe('each host, for a skill the safety review says not to trust', () => {
  it('no host is ready through Skillbench: MCP is refused, export and install are held back', () => {
    const before = hostCompatibility(SKILL);
    expect(before.map((h) => [h.host, h.verdict])).toEqual([
      ['claude-api', 'ok'],
      ['claude-code', 'ok'],
      ['codex', 'ok'],
      ['gemini-cli', 'ok'],
      ['opencode', 'ok'],
      ['mcp', 'ok'],
      ['openai-strict', 'not-applicable'],
    ]);
    const held = hostCompatibility(SKILL, { heldBack: true });
    const by = new Map(held.map((h) => [h.host, h]));
    expect(by.get('mcp')?.verdict).toBe('problem');
    expect(by.get('mcp')?.notes[0]?.message).toMatch(
      /^Skillbench's MCP server does not serve it: the safety review says "Don't trust"/,
    );
    expect(by.get('claude-api')?.verdict).toBe('warning');
    expect(by.get('claude-api')?.notes.map((n) => n.message)).toContainEqual(
      expect.stringMatching(/^Skillbench does not export it/),
    );
    expect(by.get('claude-code')?.verdict).toBe('warning');
    expect(by.get('codex')?.notes.map((n) => n.message)).toContainEqual(
      expect.stringMatching(/^Skillbench does not install it into Codex/),
    );
    expect(by.get('gemini-cli')?.notes.map((n) => n.message)).toContainEqual(
      expect.stringMatching(/^Skillbench does not install it into Gemini CLI/),
    );
    expect(by.get('openai-strict')?.verdict).toBe('not-applicable');
  });
});

describe("Gemini CLI's row: what Gemini CLI itself does with the file (checked against Gemini CLI 0.61.0)", () => {
  const geminiRow = (text: string, folderName: string) =>
    hostCompatibility(text, { folderName }).find((h) => h.host === 'gemini-cli');

  it('a name in capitals: Gemini CLI lists it as written; the spec would refuse it, said as a warning', () => {
    const row = geminiRow('---\nname: Meeting Notes\ndescription: Takes notes.\n---\n', 'notes');
    expect(row).toMatchObject({
      verdict: 'warning',
      words: 'Works, with warnings',
      refuses: false,
    });
    expect(row?.notes[0]?.message).toMatch(
      /^Gemini CLI loads it, though agents that follow the Agent Skills spec would refuse it/,
    );
    expect(row?.notes.at(-1)?.message).toBe(
      "Gemini CLI's skill list shows it to the model as: <name>Meeting Notes</name> <description>Takes notes.</description>",
    );
  });

  it('a space after the opening `---`: Gemini CLI skips it, where the spec reads it', () => {
    const row = geminiRow('--- \nname: notes\ndescription: Takes notes.\n---\n', 'notes');
    expect(row).toMatchObject({ verdict: 'problem', words: 'Would be refused', refuses: true });
    expect(row?.notes[0]?.message).toBe(
      'Gemini CLI skips it: its first line is not exactly `---`.',
    );
  });

  it('a colon in the description: Gemini CLI loads it, not as written', () => {
    const row = geminiRow('---\nname: notes\ndescription: Use when: asked\n---\n', 'notes');
    expect(row).toMatchObject({ words: 'Loads it, not as written', refuses: false });
    expect(row?.summary).toBe('Gemini CLI loads it, but does not read it as written: see below.');
    expect(row?.notes[0]?.message).toMatch(
      /^Gemini CLI loads it, but its frontmatter is not YAML: it reads the `name:` and `description:` lines as written/,
    );
  });
});

describe("OpenCode's row: what OpenCode itself does with the file (checked against OpenCode 1.18.33)", () => {
  const row = (text: string) =>
    hostCompatibility(text, { folderName: 'notes' }).find((h) => h.host === 'opencode');

  it('no description: loaded, but never shown to the model, said as a warning', () => {
    const r = row('---\nname: notes\n---\n# Notes\n');
    expect(r).toMatchObject({ verdict: 'warning', refuses: false });
    expect(r?.notes.map((n) => n.message)).toContain(
      'OpenCode loads it but never shows it to the model: it has no description.',
    );
  });

  it('a first line naming another format: skipped, where the spec only warns', () => {
    const r = row('---toml\nname: notes\ndescription: Takes notes.\n---\n');
    expect(r).toMatchObject({ verdict: 'problem', refuses: true });
    expect(r?.notes[0]?.message).toBe(
      'OpenCode skips it: it has no frontmatter (its first line `---toml` names a format it cannot read).',
    );
  });

  it('as written: ready, and the name and description it shows', () => {
    const r = row('---\nname: notes\ndescription: Takes notes.\n---\n');
    expect(r).toMatchObject({ verdict: 'ok' });
    expect(r?.notes.at(-1)?.message).toBe(
      "OpenCode's skill list shows it to the model as: <name>notes</name> <description>Takes notes.</description>",
    );
  });
});

describe("Codex's row: what Codex itself does with the file (checked against Codex 0.171.0)", () => {
  const codexRow = (text: string, folderName: string) =>
    hostCompatibility(text, { folderName }).find((h) => h.host === 'codex');

  it('a name in capitals: Codex lists it as written; the spec would refuse it, said as a warning', () => {
    const row = codexRow('---\nname: Meeting Notes\ndescription: Takes notes.\n---\n', 'notes');
    expect(row).toMatchObject({
      verdict: 'warning',
      words: 'Works, with warnings',
      refuses: false,
    });
    expect(row?.notes[0]?.message).toMatch(
      /^Codex loads it, though agents that follow the Agent Skills spec would refuse it/,
    );
    expect(row?.notes.at(-1)?.message).toBe(
      "Codex's skill list shows it to the model as: - Meeting Notes: Takes notes. (file: …/SKILL.md)",
    );
  });

  it('a byte-order mark before `---`: Codex skips it', () => {
    const row = codexRow('\uFEFF---\nname: notes\ndescription: Takes notes.\n---\n', 'notes');
    expect(row).toMatchObject({ verdict: 'problem', words: 'Would be refused', refuses: true });
    expect(row?.notes[0]?.message).toBe(
      'Codex skips it: the file starts with an invisible byte-order mark before its first `---`.',
    );
  });

  it('no name: Codex loads it under its folder name, not as written', () => {
    const row = codexRow('---\ndescription: Takes notes.\n---\n', 'notes');
    expect(row).toMatchObject({ words: 'Loads it, not as written', refuses: false });
    expect(row?.notes.map((n) => n.message)).toContain(
      'Codex loads it, but it names the skill after its folder, “notes”.',
    );
  });
});

describe('each host, for a tool whose input_schema is not an object schema', () => {
  it('MCP and the Claude API refuse it, as pack --target tools-mcp and tools-claude do', () => {
    const text = `---\nname: notes\ndescription: Takes meeting notes.\ntools:\n  - name: list\n    description: List notes.\n    input_schema:\n      type: array\n---\n# Notes\n`;
    const by = new Map(hostCompatibility(text).map((h) => [h.host, h]));
    expect(by.get('claude-api')?.verdict).toBe('problem');
    expect(by.get('claude-api')?.notes.map((n) => n.message)).toContain(
      "The Claude API requires each tool's input_schema to be an object schema; list's is not (type: object).",
    );
    expect(by.get('mcp')?.verdict).toBe('problem');
    expect(by.get('openai-strict')?.verdict).toBe('problem');
    // Nothing to copy that a host would refuse.
    expect([...by.values()].flatMap((h) => h.notes.filter((n) => n.copy))).toEqual([]);
  });

  it('offers to copy the tools, as pack writes them, once a host would take them', () => {
    const text = `---
name: notes
description: Takes meeting notes.
tools:
  - name: list
    description: List notes.
    input_schema:
      type: object
      properties: {}
      additionalProperties: false
---
# Notes
`;
    const by = new Map(hostCompatibility(text).map((h) => [h.host, h]));
    const copied = (host: HostId) => by.get(host)?.notes.find((n) => n.copy)?.copy?.text;
    const data = parseSkill(text).data;
    for (const [host, format] of [
      ['claude-api', 'claude'],
      ['mcp', 'mcp'],
      ['openai-strict', 'openai'],
    ] as const) {
      const given = exportTools(data, format);
      expect(given.status).toBe('ready');
      expect(copied(host)).toBe(given.status === 'ready' ? given.json : undefined);
    }
    expect(by.get('claude-code')?.notes.some((n) => n.copy)).toBe(false);
  });
});

describe('each host, for a skill it accepts with warnings', () => {
  it('names the first warning, as a refusal names its first problem', () => {
    const text = `---\nname: notes\ndescription: Takes meeting notes. Use when: asked for minutes.\n---\n# Notes\n`;
    const by = new Map(hostCompatibility(text).map((h) => [h.host, h]));
    expect(by.get('claude-code')?.verdict).toBe('warning');
    expect(by.get('claude-code')?.notes[0]?.message).toMatch(
      /^Claude Code accepts it, with 1 warning under the claude-code target, first “The description has a colon/,
    );
  });
});

describe('Claude Code, as Claude Code itself loads skills (docs/claude-code-listing.md)', () => {
  it('says the line its skill list shows, by the skill’s folder', () => {
    const code = hostCompatibility(SKILL, { folderName: 'meeting-notes' }).find(
      (h) => h.host === 'claude-code',
    );
    expect(code?.words).toBe('Ready');
    expect(code?.notes.map((n) => n.message)).toContain(
      "Claude Code's skill list shows it to the model as: - meeting-notes (notes): Takes meeting notes. Use when asked for minutes.",
    );
  });

  it('a frontmatter it cannot read as written: loaded, not refused; the other hosts refuse it', () => {
    // Claude Code 2.1.332 listed both such skills (scripts/agent-listing.mjs --probes).
    for (const [text, line] of [
      ['---\nname: notes\ndescription: Takes notes.\n', '- notes: ---'],
      ['---\nname: notes\ndescription: "unterminated\n---\n# Notes head\n', '- notes: Notes head'],
    ]) {
      const by = new Map(hostCompatibility(text, { folderName: 'notes' }).map((h) => [h.host, h]));
      const code = by.get('claude-code');
      expect(code?.verdict).toBe('problem');
      expect(code?.words).toBe('Loads it, not as written');
      expect(code?.refuses).toBe(false);
      expect(code?.summary).toBe(
        'Claude Code loads it, but does not read it as written: see below.',
      );
      expect(code?.notes.map((n) => n.message)).toContain(
        `Claude Code's skill list shows it to the model as: ${line}`,
      );
      expect(code?.notes[0]?.message).toMatch(
        /^Claude Code would load it, but not as written: 1 problem under the claude-code target/,
      );
      expect(by.get('claude-api')?.words).toBe('Would be refused');
      expect(by.get('claude-api')?.refuses).toBe(true);
    }
  });
});
