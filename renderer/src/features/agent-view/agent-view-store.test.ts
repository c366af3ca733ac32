import { claudeCodeSection } from '../../../../shared/agent-view/claude-code-list';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type EvalReport } from '../../../../shared/agent-view';
import type { AgentCatalogView, AppSettings, Result } from '../../../../shared/ipc/contract';
import { createNoticesStore } from '../../app/state/notices-store';
import { deferred, fakeApi, INTERNAL, ok, type FakeChannels } from '../../testing/fake-api';
import { createAgentViewStore, splitList, thresholdOf } from './agent-view-store';

function view(names: string[], limit = 2000): AgentCatalogView {
  const catalog = buildCatalog(
    names.map((name) => ({
      name,
      description: `About ${name}.`,
      location: `/lib/${name}/SKILL.md`,
      directory: `/lib/${name}`,
      source: { kind: 'library' as const, root: '/lib' },
      frontmatter: { name, when_to_use: { mentions: [name], file_types: [`.${name}`] } },
    })),
  );
  return {
    xml: catalog.xml,
    skills: catalog.skills,
    collisions: catalog.collisions,
    userOnly: catalog.userOnly,
    footprint: catalog.footprint,
    claudeCode: claudeCodeSection(catalog.claudeCode.map((c) => c.line)),
    codex: { section: '', left: [] },
    gemini: { section: '', left: [] },
    problems: [],
    budget: { limit, used: catalog.footprint.block.tokens, over: false },
  };
}

function setup(channels: FakeChannels) {
  const fake = fakeApi(channels);
  const notices = createNoticesStore();
  const agent = createAgentViewStore({ api: fake.api, notices: notices.getState() });
  return { fake, notices, agent };
}

describe('agent store', () => {
  it('loads the catalog and runs the tester over it as the user types', async () => {
    const { agent } = setup({ 'agentView.catalog': () => ok(view(['pdf', 'csv'])) });
    await agent.getState().load();
    expect(agent.getState().selection).toBeNull();
    agent.getState().setTester({ prompt: 'a pdf and a csv', files: 'x.pdf' });
    expect(agent.getState().selection?.selected.map((s) => [s.name, s.score])).toEqual([
      ['pdf', 5],
    ]);
    agent.getState().setTester({ threshold: '2' });
    expect(agent.getState().selection?.selected.map((s) => s.name)).toEqual(['pdf', 'csv']);
    expect(agent.getState().selection?.threshold).toBe(2);
  });

  it('keeps the tester input across a reload and runs it on the new catalog', async () => {
    const { agent, fake } = setup({ 'agentView.catalog': () => ok(view(['pdf'])) });
    await agent.getState().load();
    agent.getState().setTester({ prompt: 'pdf', threshold: '1' });
    fake.answer({ 'agentView.catalog': () => ok(view(['pdf', 'zip'])) });
    agent.getState().setTester({ prompt: 'pdf zip' });
    await agent.getState().refresh();
    expect(agent.getState().selection?.selected.map((s) => s.name)).toEqual(['pdf', 'zip']);
  });

  it('does not load on an event before the view was shown', async () => {
    const { agent, fake } = setup({});
    await agent.getState().refresh();
    expect(fake.calls).toEqual([]);
  });

  it('shows the newer of two overlapping loads', async () => {
    const first = deferred<Result<AgentCatalogView>>();
    const { agent, fake } = setup({ 'agentView.catalog': () => first.promise });
    const a = agent.getState().load();
    fake.answer({ 'agentView.catalog': () => ok(view(['new'])) });
    await agent.getState().load();
    first.resolve(ok(view(['old'])));
    await a;
    expect(agent.getState().catalog?.skills.map((s) => s.name)).toEqual(['new']);
    expect(agent.getState().loading).toBe(false);
  });

  it('shows the error when the catalog cannot be read', async () => {
    const { agent, notices } = setup({ 'agentView.catalog': () => INTERNAL });
    await agent.getState().load();
    expect(agent.getState()).toMatchObject({ catalog: null, loading: false });
    expect(notices.getState().error?.code).toBe('internal');
  });

  it('runs the examples with the threshold typed in the tester', async () => {
    const report: EvalReport = {
      threshold: 4,
      skills: [],
      library: {
        truePositives: 0,
        falsePositives: 0,
        falseNegatives: 0,
        trueNegatives: 0,
        precision: null,
        recall: null,
      },
      withoutEvals: [],
      notRun: [],
    };
    const { agent, fake } = setup({ 'agentView.evals': () => ok(report) });
    agent.getState().setTester({ threshold: '4' });
    const running = agent.getState().runEvals();
    expect(agent.getState().evalsRunning).toBe(true);
    await running;
    expect(fake.inputs('agentView.evals')).toEqual([{ threshold: 4 }]);
    expect(agent.getState()).toMatchObject({ evals: report, evalsRunning: false });
  });

  it('saves a new budget and reads the catalog against it', async () => {
    const settings: AppSettings = {
      roots: [],
      lastOpenSkill: null,
      extraProfiles: [],
      contextBudget: 500,
    };
    const { agent, fake } = setup({
      'settings.update': () => ok(settings),
      'agentView.catalog': () => ok(view(['pdf'], 500)),
    });
    await agent.getState().setBudget(500);
    expect(fake.inputs('settings.update')).toEqual([{ contextBudget: 500 }]);
    expect(agent.getState().catalog?.budget.limit).toBe(500);
  });

  it('splits lists on commas and line breaks, and falls back to the default threshold', () => {
    expect(splitList(' a.pdf, b.csv\nc.txt ,, ')).toEqual(['a.pdf', 'b.csv', 'c.txt']);
    expect(thresholdOf('')).toBe(3);
    expect(thresholdOf('x')).toBe(3);
    expect(thresholdOf('1.5')).toBe(1.5);
  });
});
