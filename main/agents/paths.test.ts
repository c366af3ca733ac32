import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENTS } from '../../shared/agents/agents';
import { agentSkillsDir, skillPlaces, type AgentEnv } from './paths';

let tmp: string;
let env: AgentEnv;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-places-'));
  env = { home: join(tmp, 'home'), vars: {} };
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('the skills folders found on this computer (the welcome screen suggestions)', () => {
  it('names each existing folder by every agent that reads it, as the agents table says', async () => {
    await mkdir(join(env.home, '.claude', 'skills'), { recursive: true });
    await mkdir(join(env.home, '.agents', 'skills'), { recursive: true });
    // Not a folder any agent in the table reads (Codex reads ~/.agents/skills): not suggested.
    await mkdir(join(env.home, '.codex', 'skills'), { recursive: true });
    const places = skillPlaces(env);
    const shared = AGENTS.filter(
      (a) => agentSkillsDir(a, { kind: 'global' }, env) === join(env.home, '.agents', 'skills'),
    ).map((a) => a.name);
    expect(shared.slice(0, 2)).toEqual(['Cline', 'Codex']);
    expect(places).toEqual([
      { label: 'Claude Code (personal)', path: join(env.home, '.claude', 'skills') },
      {
        label: `Cline, Codex and ${shared.length - 2} more (personal)`,
        path: join(env.home, '.agents', 'skills'),
      },
    ]);
  });

  it("adds the project's folders, and nothing for folders that do not exist", async () => {
    const project = join(tmp, 'project');
    await mkdir(join(project, '.claude', 'skills'), { recursive: true });
    expect(skillPlaces(env, project)).toEqual([
      { label: 'Claude Code (this project)', path: join(project, '.claude', 'skills') },
    ]);
    expect(skillPlaces(env)).toEqual([]);
  });
});
