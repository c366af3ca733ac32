import { describe, expect, it } from 'vitest';
import type { ChannelOutput, Result } from '../../../shared/ipc/contract';
import { createEditorStore } from '../features/editor/editor-store';
import { createLibraryStore } from '../features/library/library-store';
import { deferred, fakeApi, INTERNAL, ok, type FakeChannels } from '../testing/fake-api';
import { listing, reviewed, summary } from '../testing/samples';
import { createAppStore } from './app-store';
import { createNoticesStore } from './state/notices-store';
import { createSettingsStore } from './state/settings-store';

const ALPHA = '/lib/alpha/SKILL.md';
const TEXT = '---\nname: alpha\ndescription: Turns notes into action items.\n---\n# Alpha\n';
const INFO: ChannelOutput<'app.info'> = {
  shell: 'browser',
  version: 'test',
  platform: 'linux',
  homeDir: '/home/u',
  nativeDialogs: false,
};

/** The app store over real notices, settings, library and editor stores, all on one fake API. */
function setup(channels: FakeChannels = {}) {
  const fake = fakeApi({
    'app.info': () => ok(INFO),
    'settings.get': () =>
      ok({ roots: ['/lib'], lastOpenSkill: ALPHA, extraProfiles: ['claude-code'] as const }),
    'settings.update': (input) =>
      ok({
        roots: ['/lib'],
        lastOpenSkill: ALPHA,
        extraProfiles: input.extraProfiles ?? ['claude-code'],
      }),
    'library.list': () => ok(listing([summary('alpha')])),
    'safety.library': () => ok({ skills: [] }),
    'safety.review': ({ path }) => ok(reviewed(path)),
    'library.suggestions': () =>
      ok({ places: [{ label: 'Claude', path: '/home/u/.claude/skills' }] }),
    'drafts.list': () => ok({ drafts: [] }),
    'skill.read': ({ path }) => ok({ path, text: TEXT, version: 'v1' }),
    'skill.fileView': () => ok({ folderName: 'alpha', entries: [] }),
    'skill.validate': () =>
      ok({ diagnostics: [], verdicts: {}, counts: { error: 0, warning: 0, info: 0 } }),
    ...channels,
  });
  const notices = createNoticesStore();
  const settings = createSettingsStore({ api: fake.api, notices: notices.getState() });
  const library = createLibraryStore({ api: fake.api, notices: notices.getState() });
  const editor = createEditorStore({
    api: fake.api,
    notices: notices.getState(),
    extraProfiles: () => settings.getState().extraProfiles,
    rememberOpenSkill: (path) => settings.getState().rememberOpenSkill(path),
    bridge: () => null,
    onSkillChecked: (path, patch) => library.getState().updateSkill(path, patch),
    onSkillMoved: () => undefined,
  });
  const app = createAppStore({
    api: fake.api,
    notices: notices.getState(),
    settings: settings.getState,
    library: library.getState,
    editor: editor.getState,
  });
  return { fake, notices, settings, library, editor, app };
}

describe('app store: start', () => {
  it('loads the window, reopens the last skill and offers the usual folders', async () => {
    const { app, settings, library, editor } = setup();
    await app.getState().start();
    expect(app.getState()).toMatchObject({ info: INFO, state: 'ready' });
    expect(settings.getState().extraProfiles).toEqual(['claude-code']);
    expect(library.getState()).toMatchObject({
      state: 'ready',
      suggestions: [{ label: 'Claude' }],
    });
    expect(editor.getState()).toMatchObject({ path: ALPHA, status: 'ready', draft: TEXT });
  });

  it('reads the settings once and lists the library once', async () => {
    const { app, fake } = setup();
    await app.getState().start();
    expect(fake.inputs('settings.get')).toHaveLength(1);
    expect(fake.inputs('library.list')).toHaveLength(1);
  });

  it('is ready before the last skill has been read', async () => {
    const read = deferred<Result<ChannelOutput<'skill.read'>>>();
    const { app, editor } = setup({ 'skill.read': () => read.promise });
    const starting = app.getState().start();
    await expect.poll(() => editor.getState().status).toBe('loading');
    expect(app.getState().state).toBe('ready');
    read.resolve(ok({ path: ALPHA, text: TEXT, version: 'v1' }));
    await starting;
    expect(editor.getState().status).toBe('ready');
  });

  it('does not reopen a skill that is no longer in the library', async () => {
    const { app, editor, fake } = setup({ 'library.list': () => ok(listing([summary('beta')])) });
    await app.getState().start();
    expect(editor.getState().path).toBeNull();
    expect(fake.inputs('skill.read')).toEqual([]);
  });

  it('is ready, with the problem shown, when main cannot describe itself or list the library', async () => {
    const { app, library, notices } = setup({
      'app.info': () => INTERNAL,
      'library.list': () => INTERNAL,
    });
    await app.getState().start();
    expect(app.getState()).toMatchObject({ info: null, state: 'ready' });
    expect(library.getState().state).toBe('ready');
    expect(notices.getState().error?.code).toBe('internal');
  });

  it('finishes starting when the drafts, the settings and the suggestions cannot be read', async () => {
    const { app, library, editor } = setup({
      'settings.get': () => INTERNAL,
      'drafts.list': () => INTERNAL,
      'library.suggestions': () => INTERNAL,
    });
    await app.getState().start();
    expect(app.getState().state).toBe('ready');
    expect(library.getState().suggestions).toEqual([]);
    expect(editor.getState().path).toBeNull();
  });
});

describe('app store: setTargets', () => {
  it('remembers the targets, checks the open file again and lists the library again', async () => {
    const { app, fake, editor } = setup();
    await app.getState().start();
    await app.getState().setTargets(['claude-upload', 'universal-2.1']);
    expect(fake.inputs('settings.update')).toContainEqual({
      extraProfiles: ['claude-upload', 'universal-2.1'],
    });
    // The skill's own format first, then the extra targets.
    expect(Object.keys(editor.getState().verdicts)).toEqual([
      'agentskills',
      'claude-upload',
      'universal-2.1',
    ]);
    expect(fake.inputs('library.list')).toHaveLength(2);
  });

  it('still lists again with the error shown when the targets cannot be remembered', async () => {
    const { app, fake, notices } = setup({ 'settings.update': () => INTERNAL });
    await app.getState().setTargets(['agentskills']);
    expect(notices.getState().error?.code).toBe('internal');
    expect(fake.inputs('library.list')).toHaveLength(1);
  });

  it('takes an empty choice: the open file is checked for its own format only', async () => {
    const { app, fake, editor } = setup();
    await app.getState().start();
    await app.getState().setTargets([]);
    expect(fake.inputs('settings.update')).toContainEqual({ extraProfiles: [] });
    expect(Object.keys(editor.getState().verdicts)).toEqual(['agentskills']);
  });
});
