import { describe, expect, it, vi } from 'vitest';
import type {
  AgentsOverview,
  InstallReport,
  OutdatedEntry,
  UpdateOutcome,
} from '../../../../shared/agents/types';
import type { ChannelOutput, Result } from '../../../../shared/ipc/contract';
import { createNoticesStore } from '../../app/state/notices-store';
import {
  deferred,
  failure,
  fakeApi,
  INTERNAL,
  ok,
  type FakeChannels,
} from '../../testing/fake-api';
import { createAgentsStore } from './agents-store';

const overview = (projects: string[]): AgentsOverview => ({
  agents: [],
  projects,
  lockProblems: [],
  unlisted: [],
});
const EMPTY = overview([]);
const GLOBAL = { kind: 'global' } as const;
/** The update target of these tests: notes in one project. */
const NOTES_PROJECT = { name: 'notes', scope: { kind: 'project' as const, dir: '/work/site' } };
const REPORT: InstallReport = {
  checks: [],
  lockNotes: [],
  outcomes: [
    {
      skill: 'notes',
      agent: 'claude-code',
      status: 'installed',
      mode: 'link',
      message: 'Linked.',
    },
  ],
};
const outdated = (status: OutdatedEntry['status']): OutdatedEntry => ({
  name: 'notes',
  scope: GLOBAL,
  copies: ['/home/me/.claude/skills/notes'],
  source: 'the library folder /lib/notes',
  status,
  locallyEdited: false,
  message: '',
  canMerge: true,
});

function setup(channels: FakeChannels) {
  // Every listing asks for the safety badges next; no skill has any unless the test says so.
  const fake = fakeApi({ 'safety.agents': () => ok({ skills: [] }), ...channels });
  const notices = createNoticesStore();
  const agents = createAgentsStore({ api: fake.api, notices: notices.getState() });
  return { fake, notices, agents };
}

describe('agents store: the overview', () => {
  it('loads what each agent loads, and is not busy afterwards', async () => {
    const { agents } = setup({ 'agents.overview': () => ok(overview(['/p'])) });
    const loading = agents.getState().load();
    expect(agents.getState().busy).toBe(true);
    await loading;
    expect(agents.getState()).toMatchObject({ overview: overview(['/p']), busy: false });
  });

  it('asks for the safety badges of what the agents load after each listing, by real folder', async () => {
    const badge = {
      path: '/home/me/.agents/skills/setup',
      verdict: 'danger' as const,
      headline: "Don't trust",
      findings: 2,
      accepted: false,
    };
    const { agents, fake } = setup({
      'agents.overview': () => ok(overview(['/p'])),
      'safety.agents': () => ok({ skills: [badge] }),
    });
    await agents.getState().load();
    await vi.waitFor(() => expect(agents.getState().safety).toEqual({ [badge.path]: badge }));
    expect(fake.calls.map((c) => c.channel)).toEqual(['agents.overview', 'safety.agents']);
  });

  it('shows the error and is not busy after a failed listing, keeping the list it had', async () => {
    const { agents, notices, fake } = setup({ 'agents.overview': () => ok(EMPTY) });
    await agents.getState().load();
    fake.answer({ 'agents.overview': () => INTERNAL });
    await agents.getState().load();
    expect(agents.getState()).toMatchObject({ overview: EMPTY, busy: false });
    expect(notices.getState().error).toEqual(INTERNAL.error);
  });

  it('drops a listing that answers after a newer one', async () => {
    const older = deferred<Result<AgentsOverview>>();
    const { agents, fake } = setup({ 'agents.overview': () => older.promise });
    const first = agents.getState().load();
    fake.answer({ 'agents.overview': () => ok(overview(['/new'])) });
    await agents.getState().load();
    older.resolve(ok(overview(['/old'])));
    await first;
    expect(agents.getState()).toMatchObject({ overview: overview(['/new']), busy: false });
  });

  it('adds and forgets project folders, listing again; a refusal is shown and nothing is listed again', async () => {
    const { agents, notices, fake } = setup({
      'agents.addProject': ({ dir }) => ok({ projects: [dir] }),
      'agents.removeProject': () => ok({ projects: [] }),
      'agents.overview': () => ok(overview(['/p'])),
    });
    expect(await agents.getState().addProject('/p')).toBe(true);
    await agents.getState().removeProject('/p');
    expect(fake.calls.map((c) => c.channel)).toEqual([
      'agents.addProject',
      'agents.overview',
      'safety.agents',
      'agents.removeProject',
      'agents.overview',
      'safety.agents',
    ]);
    fake.answer({
      'agents.addProject': () => failure('not-a-folder', '/nope cannot be added: no such folder.'),
    });
    expect(await agents.getState().addProject('/nope')).toBe(false);
    expect(notices.getState().error?.code).toBe('not-a-folder');
    expect(fake.inputs('agents.overview')).toHaveLength(2);
    // The folder added next clears that refusal.
    fake.answer({ 'agents.addProject': ({ dir }) => ok({ projects: [dir] }) });
    expect(await agents.getState().addProject('/p2')).toBe(true);
    expect(notices.getState().error).toBeNull();
  });

  it('adds the folder chosen in the system dialog and names it; null when none was; undefined where there is no dialog', async () => {
    const { agents, fake } = setup({
      'dialog.pickFolder': () => ok({ path: '/picked' }),
      'agents.addProject': ({ dir }) => ok({ projects: [dir] }),
      'agents.overview': () => ok(overview(['/picked'])),
    });
    expect(await agents.getState().pickProject()).toBe('/picked');
    expect(fake.inputs('agents.addProject')).toEqual([{ dir: '/picked' }]);
    fake.answer({ 'dialog.pickFolder': () => ok({ path: null }) });
    expect(await agents.getState().pickProject()).toBeNull();
    fake.answer({ 'dialog.pickFolder': () => failure('unsupported', 'No folder dialog here.') });
    expect(await agents.getState().pickProject()).toBeUndefined();
    expect(fake.inputs('agents.addProject')).toHaveLength(1);
    // A folder the agents refuse: nothing added, the refusal shown.
    fake.answer({
      'dialog.pickFolder': () => ok({ path: '/nope' }),
      'agents.addProject': () => failure('not-a-folder', '/nope cannot be added.'),
    });
    expect(await agents.getState().pickProject()).toBeNull();
  });
});

describe('agents store: installing', () => {
  it('checks library skills for each agent; a failure is shown and answers null', async () => {
    const checks = [
      { skill: '/lib/notes', agent: 'claude-code', verdict: 'valid' as const, problems: [] },
    ];
    const { agents, notices, fake } = setup({ 'agents.check': () => ok({ checks }) });
    expect(await agents.getState().check(['/lib/notes'], ['claude-code'])).toEqual(checks);
    fake.answer({ 'agents.check': () => failure('outside-library', 'Not in your library.') });
    expect(await agents.getState().check(['/x'], ['claude-code'])).toBeNull();
    expect(notices.getState().error?.code).toBe('outside-library');
  });

  it('installs, lists again and answers the report; a failed install is shown and leaves nothing busy', async () => {
    const { agents, notices, fake } = setup({
      'agents.install': () => ok(REPORT),
      'agents.overview': () => ok(EMPTY),
    });
    const choice = { skills: ['/lib/notes'], agents: ['claude-code'], scope: GLOBAL };
    const installing = agents.getState().install(choice);
    expect(agents.getState().busy).toBe(true);
    expect(await installing).toEqual(REPORT);
    expect(fake.inputs('agents.install')).toEqual([choice]);
    expect(fake.inputs('agents.overview')).toHaveLength(1);
    expect(agents.getState().busy).toBe(false);

    fake.answer({ 'agents.install': () => INTERNAL });
    expect(await agents.getState().install(choice)).toBeNull();
    expect(agents.getState().busy).toBe(false);
    expect(notices.getState().error).toEqual(INTERNAL.error);
    expect(fake.inputs('agents.overview')).toHaveLength(1);
  });

  it('checks and installs a skill from a server by its key; a refusal comes back as data, a failure as an error with nothing busy', async () => {
    const key = 'remote\nskill://pdf-tools/SKILL.md';
    const refused = 'pdf-tools was not installed: a file does not match. Nothing was written.';
    const { agents, notices, fake } = setup({
      'agents.checkRemote': () => ok({ checks: [], refused }),
      'agents.installRemote': () => ok(REPORT),
      'agents.overview': () => ok(EMPTY),
    });
    expect(await agents.getState().checkRemote(key, ['codex'])).toEqual({ checks: [], refused });
    expect(fake.inputs('agents.checkRemote')).toEqual([{ key, agents: ['codex'] }]);
    const choice = { key, agents: ['codex'], scope: GLOBAL, mode: 'copy' as const };
    expect(await agents.getState().installRemote(choice)).toEqual(REPORT);
    expect(fake.inputs('agents.installRemote')).toEqual([choice]);
    expect(fake.inputs('agents.overview')).toHaveLength(1);

    fake.answer({
      'agents.installRemote': () => INTERNAL,
      'agents.checkRemote': () => failure('inspector', 'Not connected.'),
    });
    expect(await agents.getState().installRemote(choice)).toBeNull();
    expect(agents.getState().busy).toBe(false);
    expect(notices.getState().error).toEqual(INTERNAL.error);
    expect(await agents.getState().checkRemote(key, ['codex'])).toBeNull();
    expect(notices.getState().error?.code).toBe('inspector');
  });
});

describe('agents store: the safety review', () => {
  it('an install the review refuses comes back as a report; Trust anyway sends the reason and days', async () => {
    const safety = {
      verdict: 'danger' as const,
      headline: "Don't trust",
      summary: 'Runs commands: scripts/setup.sh.',
      findings: 1,
      accepted: false,
      hash: 'a'.repeat(64),
    };
    const refusedReport: InstallReport = {
      checks: [{ skill: 'notes', agent: 'claude-code', verdict: 'valid', problems: [], safety }],
      lockNotes: [],
      outcomes: [
        {
          skill: 'notes',
          agent: 'claude-code',
          status: 'refused',
          message: 'notes was not installed: the safety review says "Don\'t trust".',
        },
      ],
    };
    const answers = [refusedReport, REPORT];
    const { agents, fake, notices } = setup({
      'agents.install': () => ok(answers.shift() ?? REPORT),
      'agents.installRemote': () => ok(REPORT),
      'agents.overview': () => ok(EMPTY),
    });
    const choice = { skills: ['/lib/notes'], agents: ['claude-code'], scope: GLOBAL };
    expect(await agents.getState().install(choice)).toEqual(refusedReport);
    expect(notices.getState().error).toBeNull();
    const trust = { reason: 'I read every script', days: 90 };
    expect(await agents.getState().install({ ...choice, trust })).toEqual(REPORT);
    expect(fake.inputs('agents.install')).toEqual([choice, { ...choice, trust }]);
    const remote = {
      key: 'remote\nskill://notes/SKILL.md',
      agents: ['codex'],
      scope: GLOBAL,
      trust,
    };
    await agents.getState().installRemote(remote);
    expect(fake.inputs('agents.installRemote')).toEqual([remote]);
  });
});

describe('agents store: removing, and Undo', () => {
  it('removes to the trash with an Undo, and Undo puts it back', async () => {
    const { agents, notices, fake } = setup({
      'agents.uninstall': () =>
        ok({
          removed: [{ agent: 'claude-code', path: '/p', trashedTo: '/trash/p' }],
          kept: [],
          notFound: [],
          lockNotes: [],
          undoToken: 'tok',
        }),
      'agents.restore': () => ok({ restored: ['/p'], refused: [] }),
      'agents.overview': () => ok(EMPTY),
    });
    await agents.getState().uninstall('notes', ['claude-code'], GLOBAL);
    expect(agents.getState().lastRemoval).toEqual({ token: 'tok', name: 'notes' });
    expect(notices.getState().notice).toMatch(/Removed notes: moved to Skillbench's trash/);
    await agents.getState().undoRemoval();
    expect(fake.inputs('agents.restore')).toEqual([{ undoToken: 'tok' }]);
    expect(agents.getState().lastRemoval).toBeNull();
    expect(notices.getState().notice).toBe('notes is back where it was.');
    expect(fake.inputs('agents.overview')).toHaveLength(2);
  });

  it('says so when nothing was removed, and a failed removal is shown', async () => {
    const { agents, notices, fake } = setup({
      'agents.uninstall': () =>
        ok({ removed: [], kept: [], notFound: ['Claude Code: /p does not exist'], lockNotes: [] }),
      'agents.overview': () => ok(EMPTY),
    });
    await agents.getState().uninstall('notes', ['claude-code'], GLOBAL);
    expect(agents.getState().lastRemoval).toBeNull();
    expect(notices.getState().notice).toBe('Nothing was removed. Claude Code: /p does not exist');
    fake.answer({ 'agents.uninstall': () => INTERNAL });
    await agents.getState().uninstall('notes', ['claude-code'], GLOBAL);
    expect(notices.getState().error).toEqual(INTERNAL.error);
  });
});

describe('agents store: updates', () => {
  it('checks for updates; a failure is shown and leaves nothing busy', async () => {
    const { agents, notices, fake } = setup({
      'agents.outdated': () => ok({ entries: [outdated('outdated')] }),
    });
    await agents.getState().loadOutdated();
    expect(agents.getState()).toMatchObject({ outdated: [outdated('outdated')], busy: false });
    fake.answer({ 'agents.outdated': () => INTERNAL });
    await agents.getState().loadOutdated();
    expect(agents.getState()).toMatchObject({ outdated: [outdated('outdated')], busy: false });
    expect(notices.getState().error).toEqual(INTERNAL.error);
  });

  it('drops an update check that answers after a newer one', async () => {
    const older = deferred<Result<ChannelOutput<'agents.outdated'>>>();
    const { agents, fake } = setup({ 'agents.outdated': () => older.promise });
    const first = agents.getState().loadOutdated();
    fake.answer({ 'agents.outdated': () => ok({ entries: [outdated('up-to-date')] }) });
    await agents.getState().loadOutdated();
    older.resolve(ok({ entries: [outdated('outdated')] }));
    await first;
    expect(agents.getState()).toMatchObject({ outdated: [outdated('up-to-date')], busy: false });
  });

  it('Trust anyway repeats the refused update exactly, settled merge files included, with the trust', async () => {
    const { agents, fake } = setup({
      'agents.update': () => ok({ outcomes: [] }),
      'agents.outdated': () => ok({ entries: [] }),
      'agents.overview': () => ok(EMPTY),
    });
    const resolved = { name: 'notes', files: [{ path: 'SKILL.md', text: 'settled\n' }] };
    await agents.getState().update(NOTES_PROJECT, 'merge', resolved);
    const trust = { reason: 'I wrote it', days: 7 };
    await agents.getState().trustUpdate(trust);
    expect(fake.inputs('agents.update')).toEqual([
      { names: ['notes'], scope: NOTES_PROJECT.scope, choice: 'merge', resolved },
      { names: ['notes'], scope: NOTES_PROJECT.scope, choice: 'merge', resolved, trust },
    ]);
  });

  it('sends a merge with the settled files, keeps the outcomes, and checks again', async () => {
    const outcomes: UpdateOutcome[] = [
      { name: 'notes', scope: GLOBAL, status: 'updated', message: 'Merged.' },
    ];
    const { agents, fake } = setup({
      'agents.update': () => ok({ outcomes }),
      'agents.outdated': () => ok({ entries: [outdated('up-to-date')] }),
      'agents.overview': () => ok(EMPTY),
    });
    const resolved = {
      name: 'notes',
      files: [
        { path: 'SKILL.md', text: 'settled\n' },
        { path: 'assets/logo.png', keep: 'theirs' as const },
      ],
    };
    await agents.getState().update(NOTES_PROJECT, 'merge', resolved);
    expect(fake.inputs('agents.update')).toEqual([
      { names: ['notes'], scope: NOTES_PROJECT.scope, choice: 'merge', resolved },
    ]);
    expect(agents.getState()).toMatchObject({
      outcomes,
      outdated: [outdated('up-to-date')],
      busy: false,
    });
    expect(fake.calls.map((c) => c.channel)).toEqual([
      'agents.update',
      'agents.outdated',
      'agents.overview',
      'safety.agents',
    ]);
  });

  it('a failed update is shown, keeps the earlier outcomes and leaves nothing busy', async () => {
    const { agents, notices, fake } = setup({ 'agents.update': () => INTERNAL });
    agents.setState({
      outcomes: [{ name: 'notes', scope: GLOBAL, status: 'kept', message: 'Kept.' }],
    });
    await agents.getState().update(NOTES_PROJECT, 'keep-local');
    expect(fake.inputs('agents.update')).toEqual([
      { names: ['notes'], scope: NOTES_PROJECT.scope, choice: 'keep-local' },
    ]);
    expect(agents.getState()).toMatchObject({ busy: false });
    expect(agents.getState().outcomes[0]?.status).toBe('kept');
    expect(notices.getState().error).toEqual(INTERNAL.error);
  });
});
