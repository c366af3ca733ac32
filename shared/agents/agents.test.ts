import { describe, expect, it } from 'vitest';
import { AGENTS, alsoLoadedBy } from './agents';

const pick = (...ids: string[]) => AGENTS.filter((a) => ids.includes(a.id));

describe('other agents that load a skill from the folder they share', () => {
  it('a link for one agent puts the copy where the others read: named, and copying avoids it', () => {
    const note = alsoLoadedBy(
      pick('claude-code', 'codex', 'cline'),
      ['claude-code'],
      'global',
      'auto',
    );
    expect(note).toMatchObject({
      folder: '~/.agents/skills',
      agents: ['Cline', 'Codex'],
      avoidable: true,
    });
    expect(note?.sentence).toContain('Cline and Codex also load the skills in ~/.agents/skills');
    expect(
      alsoLoadedBy(pick('claude-code', 'codex'), ['claude-code'], 'global', 'copy'),
    ).toBeUndefined();
  });

  it('an agent that reads the shared folder itself puts the skill there whatever the mode', () => {
    const note = alsoLoadedBy(pick('codex', 'cline'), ['codex'], 'global', 'copy');
    expect(note).toMatchObject({ agents: ['Cline'], avoidable: false });
    expect(note?.sentence).toBe(
      'Cline also loads the skills in ~/.agents/skills, and Codex reads its skills from there, so it will load these skills too.',
    );
  });

  it("Gemini CLI's user folder is the shared one (`${GEMINI_CLI_HOME:-~}/.agents/skills` as people read it)", () => {
    const note = alsoLoadedBy(pick('gemini-cli', 'cline'), ['gemini-cli'], 'global', 'copy');
    expect(note).toMatchObject({ agents: ['Cline'], avoidable: false });
    expect(note?.sentence).toBe(
      'Cline also loads the skills in ~/.agents/skills, and Gemini CLI reads its skills from there, so it will load these skills too.',
    );
  });

  it('an agent that also loads the shared folder is named too (OpenCode loads ~/.agents/skills besides its own)', () => {
    const note = alsoLoadedBy(pick('claude-code', 'opencode'), ['claude-code'], 'global', 'link');
    expect(note?.agents).toEqual(['OpenCode']);
    expect(
      alsoLoadedBy(pick('claude-code', 'opencode'), ['opencode'], 'global', 'link'),
    ).toBeUndefined();
  });

  it('in a project most agents share .agents/skills; many are counted, not all named', () => {
    const note = alsoLoadedBy(
      pick('claude-code', 'codex', 'cursor', 'gemini-cli', 'github-copilot'),
      ['claude-code'],
      'project',
      'link',
    );
    expect(note?.folder).toBe('.agents/skills in the project');
    expect(note?.sentence).toMatch(/^Codex, Cursor, Gemini CLI and 1 other agent also load/);
  });

  it('nothing to say when no agent outside the choice reads the shared folder', () => {
    expect(
      alsoLoadedBy(pick('claude-code', 'codex'), ['claude-code', 'codex'], 'global', 'auto'),
    ).toBeUndefined();
    expect(alsoLoadedBy(pick('claude-code'), ['claude-code'], 'global', 'link')).toBeUndefined();
  });
});
