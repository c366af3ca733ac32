import { describe, expect, it, vi } from 'vitest';
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
import { listing, summary } from '../../testing/samples';
import { createLibraryStore, visibleSkills, type ListFilter } from './library-store';

function setup(channels: FakeChannels) {
  const fake = fakeApi({ 'safety.library': () => ok({ skills: [] }), ...channels });
  const notices = createNoticesStore();
  const library = createLibraryStore({ api: fake.api, notices: notices.getState() });
  return { fake, notices, library };
}

describe('library store: load and refresh', () => {
  it('lists the library and says it is ready', async () => {
    const { library } = setup({ 'library.list': () => ok(listing([summary('alpha')])) });
    const loading = library.getState().load();
    expect(library.getState().state).toBe('loading');
    await loading;
    expect(library.getState()).toMatchObject({ state: 'ready', roots: ['/lib'] });
    expect(library.getState().skills.map((s) => s.name)).toEqual(['alpha']);
  });

  it('is ready, with the error shown, when the listing fails', async () => {
    const { library, notices } = setup({ 'library.list': () => INTERNAL });
    await library.getState().load();
    expect(library.getState().state).toBe('ready');
    expect(notices.getState().error?.code).toBe('internal');
  });

  it('drops a listing that answers after a newer one', async () => {
    const older = deferred<Result<ChannelOutput<'library.list'>>>();
    const answers = [older.promise, Promise.resolve(ok(listing([summary('new')])))];
    const { library } = setup({ 'library.list': () => answers.shift() ?? INTERNAL });
    const first = library.getState().refresh();
    await library.getState().refresh();
    older.resolve(ok(listing([summary('old')])));
    await first;
    expect(library.getState().skills.map((s) => s.name)).toEqual(['new']);
  });

  it('takes an older listing when the newer one failed', async () => {
    const older = deferred<Result<ChannelOutput<'library.list'>>>();
    const answers = [older.promise, Promise.resolve(INTERNAL)];
    const { library } = setup({ 'library.list': () => answers.shift() ?? INTERNAL });
    const first = library.getState().refresh();
    await library.getState().refresh();
    older.resolve(ok(listing([summary('old')])));
    await first;
    expect(library.getState().skills.map((s) => s.name)).toEqual(['old']);
  });
});

describe('library store: openLibrary', () => {
  it('opens a folder, clears the last error and lists again', async () => {
    const { library, notices, fake } = setup({
      'library.open': ({ path }) => ok({ root: path, skills: [summary('alpha')] }),
      'library.list': () => ok(listing([summary('alpha')])),
    });
    notices.getState().showError(failure('io', 'Old problem.').error);
    await expect(library.getState().openLibrary('/lib')).resolves.toBe(true);
    expect(notices.getState()).toMatchObject({ error: null, notice: null });
    expect(library.getState().skills).toHaveLength(1);
    expect(fake.calls.map((c) => c.channel)).toEqual([
      'library.open',
      'library.list',
      'safety.library',
    ]);
  });

  it('says so when the folder holds no SKILL.md', async () => {
    const { library, notices } = setup({
      'library.open': ({ path }) => ok({ root: path, skills: [] }),
      'library.list': () => ok(listing([])),
    });
    await library.getState().openLibrary('/empty');
    expect(notices.getState().notice).toBe('No SKILL.md was found under /empty.');
  });

  it('shows the error and lists nothing when the folder cannot be opened', async () => {
    const { library, notices, fake } = setup({
      'library.open': () => failure('not-found', 'Nothing exists at /nope.'),
    });
    await expect(library.getState().openLibrary('/nope')).resolves.toBe(false);
    expect(notices.getState().error?.message).toBe('Nothing exists at /nope.');
    expect(fake.inputs('library.list')).toEqual([]);
  });

  it('asks for a path instead of calling main with an empty one', async () => {
    const { library, notices, fake } = setup({});
    await expect(library.getState().openLibrary('   ')).resolves.toBe(false);
    expect(notices.getState().error?.code).toBe('invalid-input');
    expect(fake.calls).toEqual([]);
  });
});

describe('library store: pickFolder, browse, closeRoot, suggestions', () => {
  it('opens the folder picked in the native dialog', async () => {
    const { library, fake } = setup({
      'dialog.pickFolder': () => ok({ path: '/picked' }),
      'library.open': ({ path }) => ok({ root: path, skills: [summary('a')] }),
      'library.list': () => ok(listing([summary('a')], ['/picked'])),
    });
    await expect(library.getState().pickFolder()).resolves.toBe(true);
    expect(fake.inputs('library.open')).toEqual([{ path: '/picked' }]);
  });

  it('opens nothing when the dialog is cancelled, and says there is no dialog when it fails', async () => {
    const { library, fake } = setup({ 'dialog.pickFolder': () => ok({ path: null }) });
    await expect(library.getState().pickFolder()).resolves.toBe(true);
    fake.answer({ 'dialog.pickFolder': () => failure('unsupported', 'No native dialog here.') });
    await expect(library.getState().pickFolder()).resolves.toBe(false);
    expect(fake.inputs('library.open')).toEqual([]);
  });

  it('hands the folder browser main’s answer, success or failure', async () => {
    const listed = { path: '/home', parent: '/', folders: [], isSkill: false };
    const { library, fake } = setup({ 'fs.browse': () => ok(listed) });
    await expect(library.getState().browse('/home')).resolves.toEqual(ok(listed));
    fake.answer({ 'fs.browse': () => failure('not-found', 'No such folder.') });
    await expect(library.getState().browse('/x')).resolves.toMatchObject({ ok: false });
  });

  it('lists again after closing a root, and shows a failure to close', async () => {
    const { library, notices, fake } = setup({
      'library.close': () => ok({ roots: [] }),
      'library.list': () => ok(listing([], [])),
    });
    await library.getState().closeRoot('/lib');
    expect(library.getState().roots).toEqual([]);
    fake.answer({ 'library.close': () => INTERNAL });
    await library.getState().closeRoot('/lib');
    expect(notices.getState().error?.code).toBe('internal');
    expect(fake.inputs('library.list')).toHaveLength(2);
  });

  it('offers the suggested folders, and none when they cannot be found', async () => {
    const places = [{ label: '~/.claude/skills', path: '/home/u/.claude/skills' }];
    const { library, fake } = setup({ 'library.suggestions': () => ok({ places }) });
    await library.getState().loadSuggestions();
    expect(library.getState().suggestions).toEqual(places);
    const other = setup({ 'library.suggestions': () => INTERNAL });
    await other.library.getState().loadSuggestions();
    expect(other.library.getState().suggestions).toEqual([]);
    expect(fake.calls).toHaveLength(1);
  });
});

describe('library store: createSkill', () => {
  const input = {
    root: '/lib',
    name: 'notes',
    description: 'Takes notes.',
    template: 'blank' as const,
  };

  it('returns the new SKILL.md path and lists it', async () => {
    const { library } = setup({
      'skill.create': () => ok({ path: '/lib/notes/SKILL.md', dir: '/lib/notes' }),
      'library.list': () => ok(listing([summary('notes')])),
    });
    await expect(library.getState().createSkill(input)).resolves.toBe('/lib/notes/SKILL.md');
    expect(library.getState().skills.map((s) => s.name)).toEqual(['notes']);
  });

  it('returns null with the error shown when it cannot be created', async () => {
    const { library, notices } = setup({
      'skill.create': () => failure('exists', 'A folder named notes already exists.'),
    });
    await expect(library.getState().createSkill(input)).resolves.toBeNull();
    expect(notices.getState().error?.message).toBe('A folder named notes already exists.');
  });
});

describe('library store: filter and rows', () => {
  it('merges filter changes', () => {
    const { library } = setup({});
    library.getState().setFilter({ query: 'notes' });
    library.getState().setFilter({ status: 'errors' });
    expect(library.getState().filter).toMatchObject({
      query: 'notes',
      status: 'errors',
      sort: 'name',
    });
  });

  it('updates one row after a save, and ignores a path it does not list', async () => {
    const { library } = setup({
      'library.list': () => ok(listing([summary('alpha'), summary('beta')])),
    });
    await library.getState().refresh();
    const before = library.getState().skills;
    library.getState().updateSkill('/lib/alpha/SKILL.md', {
      name: 'alpha-2',
      counts: { error: 1, warning: 0, info: 0 },
    });
    expect(library.getState().skills[0]).toMatchObject({ name: 'alpha-2', counts: { error: 1 } });
    expect(library.getState().skills[1]).toBe(before[1]);
    const after = library.getState().skills;
    library.getState().updateSkill('/elsewhere/SKILL.md', { name: 'x' });
    expect(library.getState().skills).toBe(after);
  });

  it("updates the description budget with a saved skill's description", async () => {
    const { library } = setup({
      'library.list': () =>
        ok({
          ...listing([summary('alpha'), summary('beta')]),
          budget: {
            total: 30,
            limit: 8000,
            over: false,
            shares: [
              { name: 'alpha', characters: 10, share: 1 / 3 },
              { name: 'beta', characters: 20, share: 2 / 3 },
            ],
          },
        }),
    });
    await library.getState().refresh();
    library.getState().updateSkill('/lib/alpha/SKILL.md', { budgetCharacters: 8000 });
    expect(library.getState().budget).toMatchObject({ total: 8020, over: true });
    expect(library.getState().budget?.shares.map((s) => [s.name, s.characters])).toEqual([
      ['beta', 20],
      ['alpha', 8000],
    ]);
  });

  it("leaves the meter as listed when several skills share the saved one's name, instead of losing their characters", async () => {
    const { library } = setup({
      'library.list': () =>
        ok({
          ...listing([summary('dup'), summary('beta')]),
          budget: {
            total: 60,
            limit: 8000,
            over: false,
            shares: [
              { name: 'dup', characters: 10, share: 1 / 6 },
              { name: 'dup', characters: 30, share: 1 / 2 },
              { name: 'beta', characters: 20, share: 1 / 3 },
            ],
          },
        }),
    });
    await library.getState().refresh();
    library.getState().updateSkill('/lib/dup/SKILL.md', { budgetCharacters: 12 });
    expect(library.getState().budget?.total).toBe(60);
  });
});

describe('visibleSkills', () => {
  const skills = [
    summary('alpha', { counts: { error: 0, warning: 2, info: 0 } }),
    summary('beta'),
    summary('gamma', { counts: { error: 1, warning: 3, info: 0 } }),
    summary('delta', {
      root: '/other',
      path: '/other/delta/SKILL.md',
      description: 'Meeting notes',
    }),
    summary('epsilon', { pending: true }),
  ];
  const all: ListFilter = { query: '', status: 'all', root: 'all', profile: 'all', sort: 'name' };
  const names = (patch: Partial<ListFilter>) =>
    visibleSkills(skills, { ...all, ...patch }).map((s) => s.name);

  it('sorts by name, or puts errors then warnings first', () => {
    expect(names({})).toEqual(['alpha', 'beta', 'delta', 'epsilon', 'gamma']);
    expect(names({ sort: 'status' })).toEqual(['gamma', 'alpha', 'beta', 'delta', 'epsilon']);
  });

  it('filters by status (a skill still being checked is not clean), folder and words', () => {
    expect(names({ status: 'errors' })).toEqual(['gamma']);
    expect(names({ status: 'warnings' })).toEqual(['alpha']);
    expect(names({ status: 'clean' })).toEqual(['beta', 'delta']);
    expect(names({ root: '/other' })).toEqual(['delta']);
    expect(names({ query: 'MEETING notes' })).toEqual(['delta']);
  });
});

describe('library store: safety badges', () => {
  const badge = (path: string, verdict: 'clear' | 'review' | 'danger', accepted = false) => ({
    path,
    verdict,
    headline: verdict === 'danger' ? "Don't trust" : 'Review before trusting',
    findings: verdict === 'clear' ? 0 : 2,
    accepted,
  });

  it('asks for the badges after every listing and keeps them by skill folder', async () => {
    const { library, fake } = setup({
      'library.list': () => ok(listing([summary('alpha'), summary('beta')])),
      'safety.library': () =>
        ok({ skills: [badge('/lib/alpha', 'danger'), badge('/lib/beta', 'review', true)] }),
    });
    await library.getState().load();
    await vi.waitFor(() => expect(Object.keys(library.getState().safety)).toHaveLength(2));
    expect(library.getState().safety['/lib/alpha']?.verdict).toBe('danger');
    expect(library.getState().safety['/lib/beta']?.accepted).toBe(true);
    expect(fake.inputs('safety.library')).toHaveLength(1);
  });

  it('drops badges that answer after newer ones, and keeps the list when they fail', async () => {
    const older = deferred<Result<ChannelOutput<'safety.library'>>>();
    const answers = [
      older.promise,
      Promise.resolve(ok({ skills: [badge('/lib/alpha', 'clear')] })),
      Promise.resolve(INTERNAL),
    ];
    const { library, notices } = setup({
      'library.list': () => ok(listing([summary('alpha')])),
      'safety.library': () => answers.shift() ?? INTERNAL,
    });
    const first = library.getState().loadSafety();
    await library.getState().loadSafety();
    older.resolve(ok({ skills: [badge('/lib/alpha', 'danger')] }));
    await first;
    expect(library.getState().safety['/lib/alpha']?.verdict).toBe('clear');
    await library.getState().loadSafety();
    expect(library.getState().safety['/lib/alpha']?.verdict).toBe('clear');
    expect(notices.getState().error).toBeNull();
  });
});
