import { describe, expect, it } from 'vitest';
import type { ChannelInput, ChannelOutput, Result } from '../../../../shared/ipc/contract';
import type { ExportPlan, ExportResult } from '../../../../shared/projection/types';
import {
  deferred,
  failure,
  fakeApi,
  INTERNAL,
  ok,
  type FakeChannels,
} from '../../testing/fake-api';
import { createExportStore } from './export-store';

type Planned = ChannelOutput<'export.plan'>;

/** A plan the store only passes on; its inside does not matter here. */
function planned(skillName: string, defaultOut = `/out/${skillName}.zip`): Planned {
  return { plan: { skillName } as ExportPlan, diff: [], defaultOut };
}

function written(path: string): ExportResult {
  return { status: 'written', plan: {} as ExportPlan, path, bytes: 10, files: 1 };
}

const REQUEST: ChannelInput<'export.plan'> = { skillDir: '/lib/alpha', target: 'claude-ai' };

function setup(channels: FakeChannels) {
  const fake = fakeApi(channels);
  let libraryChanges = 0;
  const exporter = createExportStore({
    api: fake.api,
    onLibraryChanged: () => {
      libraryChanges += 1;
    },
  });
  return { fake, exporter, libraryChanges: () => libraryChanges };
}

describe('export store: plan', () => {
  it('shows "planning" while the plan is made, then the plan', async () => {
    const { exporter } = setup({ 'export.plan': () => ok(planned('alpha')) });
    const planning = exporter.getState().plan(REQUEST);
    expect(exporter.getState().planning).toBe(true);
    await planning;
    expect(exporter.getState()).toMatchObject({
      planning: false,
      planned: planned('alpha'),
      exportError: null,
    });
  });

  it('stops planning and shows the error when the plan fails, even from a thrown handler', async () => {
    const { exporter } = setup({ 'export.plan': () => INTERNAL });
    await exporter.getState().plan(REQUEST);
    expect(exporter.getState()).toMatchObject({
      planning: false,
      planned: null,
      exportError: INTERNAL.error,
    });
  });

  it('keeps the plan of the latest destination when an earlier one answers last', async () => {
    const first = deferred<Result<Planned>>();
    const second = deferred<Result<Planned>>();
    const answers = [first.promise, second.promise];
    const { exporter } = setup({ 'export.plan': () => answers.shift() ?? INTERNAL });
    const a = exporter.getState().plan(REQUEST);
    const b = exporter.getState().plan({ ...REQUEST, target: 'skill' });
    second.resolve(ok(planned('for-skill')));
    await b;
    expect(exporter.getState()).toMatchObject({ planning: false, planned: planned('for-skill') });
    first.resolve(ok(planned('for-claude-ai')));
    await a;
    expect(exporter.getState().planned).toEqual(planned('for-skill'));
  });

  it('keeps "planning" until the latest plan is back', async () => {
    const first = deferred<Result<Planned>>();
    const second = deferred<Result<Planned>>();
    const answers = [first.promise, second.promise];
    const { exporter } = setup({ 'export.plan': () => answers.shift() ?? INTERNAL });
    const a = exporter.getState().plan(REQUEST);
    const b = exporter.getState().plan({ ...REQUEST, target: 'skill' });
    first.resolve(ok(planned('old')));
    await a;
    expect(exporter.getState().planning).toBe(true);
    second.resolve(INTERNAL);
    await b;
    expect(exporter.getState()).toMatchObject({ planning: false, planned: null });
  });
});

describe('export store: runExport', () => {
  it('shows what was written', async () => {
    const { exporter, libraryChanges } = setup({
      'export.run': () => ok(written('/out/alpha.zip')),
    });
    await exporter.getState().runExport(REQUEST);
    expect(exporter.getState().exportResult).toEqual(written('/out/alpha.zip'));
    expect(libraryChanges()).toBe(0);
  });

  it('tells the library after a Claude Code install, which may land in a library folder', async () => {
    const { exporter, libraryChanges } = setup({
      'export.run': () => ok(written('/home/u/.claude/skills/alpha')),
    });
    await exporter.getState().runExport({ ...REQUEST, target: 'claude-code' });
    expect(libraryChanges()).toBe(1);
  });

  it('shows the error when the export fails', async () => {
    const { exporter, libraryChanges } = setup({
      'export.run': () => failure('exists', '/out/alpha.zip already exists.'),
    });
    await exporter.getState().runExport({ ...REQUEST, target: 'claude-code' });
    expect(exporter.getState()).toMatchObject({
      exportResult: null,
      exportError: { code: 'exists' },
    });
    expect(libraryChanges()).toBe(0);
  });
});

describe('export store: reveal and reset', () => {
  it('says whether the file was shown', async () => {
    const { exporter, fake } = setup({ 'export.reveal': () => ok({ shown: true }) });
    await expect(exporter.getState().reveal('/out/alpha.zip')).resolves.toBe(true);
    fake.answer({ 'export.reveal': () => INTERNAL });
    await expect(exporter.getState().reveal('/out/alpha.zip')).resolves.toBe(false);
  });

  it('forgets everything when the dialog closes, including answers still on their way', async () => {
    const plan = deferred<Result<Planned>>();
    const run = deferred<Result<ExportResult>>();
    const { exporter } = setup({
      'export.plan': () => plan.promise,
      'export.run': () => run.promise,
    });
    const planning = exporter.getState().plan(REQUEST);
    const running = exporter.getState().runExport(REQUEST);
    exporter.getState().resetExport();
    expect(exporter.getState().planning).toBe(false);
    plan.resolve(ok(planned('alpha')));
    run.resolve(ok(written('/out/alpha.zip')));
    await Promise.all([planning, running]);
    expect(exporter.getState()).toMatchObject({
      planned: null,
      planning: false,
      exportResult: null,
      exportError: null,
    });
  });
});
