import { describe, expect, it } from 'vitest';
import type { AppSettings, Result } from '../../../../shared/ipc/contract';
import { deferred, failure, fakeApi, INTERNAL, ok } from '../../testing/fake-api';
import { createNoticesStore } from './notices-store';
import { createSettingsStore } from './settings-store';

const SAVED: AppSettings = {
  roots: ['/lib'],
  lastOpenSkill: '/lib/alpha/SKILL.md',
  extraProfiles: ['claude-code', 'agentskills'],
};

function setup(channels: Parameters<typeof fakeApi>[0]) {
  const fake = fakeApi(channels);
  const notices = createNoticesStore();
  const settings = createSettingsStore({ api: fake.api, notices: notices.getState() });
  return { fake, notices, settings };
}

describe('settings store: load', () => {
  it('takes the remembered targets and last open skill', async () => {
    const { settings } = setup({ 'settings.get': () => ok(SAVED) });
    await settings.getState().load();
    expect(settings.getState()).toMatchObject({
      extraProfiles: ['claude-code', 'agentskills'],
      lastOpenSkill: '/lib/alpha/SKILL.md',
    });
  });

  it('keeps the defaults when the settings cannot be read', async () => {
    const { settings } = setup({ 'settings.get': () => INTERNAL });
    await settings.getState().load();
    expect(settings.getState()).toMatchObject({ extraProfiles: [], lastOpenSkill: null });
  });

  it('does not undo targets the user chose while the settings were loading', async () => {
    const answer = deferred<Result<AppSettings>>();
    const { settings } = setup({
      'settings.get': () => answer.promise,
      'settings.update': (input) =>
        ok({ ...SAVED, extraProfiles: input.extraProfiles ?? SAVED.extraProfiles }),
    });
    const loading = settings.getState().load();
    await settings.getState().setExtraProfiles(['universal-2.1']);
    answer.resolve(ok(SAVED));
    await loading;
    expect(settings.getState().extraProfiles).toEqual(['universal-2.1']);
    expect(settings.getState().lastOpenSkill).toBe('/lib/alpha/SKILL.md');
  });
});

describe('settings store: setExtraProfiles', () => {
  it('shows the new targets at once and remembers them', async () => {
    const { fake, settings } = setup({
      'settings.update': (input) => ok({ ...SAVED, extraProfiles: input.extraProfiles ?? [] }),
    });
    await expect(settings.getState().setExtraProfiles(['claude-upload'])).resolves.toBe(true);
    expect(settings.getState().extraProfiles).toEqual(['claude-upload']);
    expect(fake.inputs('settings.update')).toEqual([{ extraProfiles: ['claude-upload'] }]);
  });

  it('takes an empty choice: each skill is checked for its own format only', async () => {
    const { fake, settings } = setup({
      'settings.update': (input) => ok({ ...SAVED, extraProfiles: input.extraProfiles ?? [] }),
    });
    await settings.getState().setExtraProfiles(['claude-upload']);
    await expect(settings.getState().setExtraProfiles([])).resolves.toBe(true);
    expect(settings.getState().extraProfiles).toEqual([]);
    expect(fake.inputs('settings.update')).toEqual([
      { extraProfiles: ['claude-upload'] },
      { extraProfiles: [] },
    ]);
  });

  it('shows the error when the targets cannot be remembered', async () => {
    const { notices, settings } = setup({
      'settings.update': () => failure('io', 'The settings file could not be written.'),
    });
    await expect(settings.getState().setExtraProfiles(['claude-code'])).resolves.toBe(false);
    expect(notices.getState().error?.message).toBe('The settings file could not be written.');
  });
});

describe('settings store: rememberOpenSkill', () => {
  it('remembers the path, without waiting for main', () => {
    const { fake, settings } = setup({ 'settings.update': () => ok(SAVED) });
    settings.getState().rememberOpenSkill('/lib/beta/SKILL.md');
    expect(settings.getState().lastOpenSkill).toBe('/lib/beta/SKILL.md');
    expect(fake.inputs('settings.update')).toEqual([{ lastOpenSkill: '/lib/beta/SKILL.md' }]);
  });
});

describe('settings store: what Tab does in the editor', () => {
  it('moves the focus by default, and a remembered choice to type tabs is read back', async () => {
    const { settings } = setup({ 'settings.get': () => ok({ ...SAVED, tabMovesFocus: false }) });
    expect(settings.getState().tabMovesFocus).toBe(true);
    await settings.getState().load();
    expect(settings.getState().tabMovesFocus).toBe(false);
  });

  it('keeps moving the focus when the settings file never said', async () => {
    const { settings } = setup({ 'settings.get': () => ok(SAVED) });
    await settings.getState().load();
    expect(settings.getState().tabMovesFocus).toBe(true);
  });

  it('remembers a change', () => {
    const { fake, settings } = setup({
      'settings.update': (input) => ok({ ...SAVED, tabMovesFocus: input.tabMovesFocus ?? true }),
    });
    settings.getState().setTabMovesFocus(false);
    expect(settings.getState().tabMovesFocus).toBe(false);
    expect(fake.calls).toEqual([{ channel: 'settings.update', input: { tabMovesFocus: false } }]);
  });
});
