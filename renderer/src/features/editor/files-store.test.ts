import { describe, expect, it } from 'vitest';
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
import { createFilesStore } from './files-store';

type Entries = ChannelOutput<'skill.files'>['entries'];
const SKILL: Entries = [{ path: 'SKILL.md', kind: 'file', size: 80, view: 'text' }];
const WITH_NOTES: Entries = [...SKILL, { path: 'notes.md', kind: 'file', size: 5, view: 'text' }];

function setup(channels: FakeChannels) {
  const fake = fakeApi(channels);
  const notices = createNoticesStore();
  const files = createFilesStore({ api: fake.api, notices: notices.getState() });
  return { fake, notices, files };
}

describe('files store: the tree', () => {
  it('lists a skill’s files, and starts afresh for another skill', async () => {
    const { files } = setup({ 'skill.files': () => ok({ entries: SKILL }) });
    await files.getState().load('/lib/alpha');
    expect(files.getState()).toMatchObject({ skillDir: '/lib/alpha', entries: SKILL });
    files.setState({ undo: { token: 't', path: 'x.md' } });
    const loading = files.getState().load('/lib/beta');
    expect(files.getState()).toMatchObject({ skillDir: '/lib/beta', entries: [], undo: null });
    await loading;
  });

  it('shows the error when the tree cannot be listed', async () => {
    const { files, notices } = setup({ 'skill.files': () => INTERNAL });
    await files.getState().load('/lib/alpha');
    expect(files.getState().entries).toEqual([]);
    expect(notices.getState().error?.code).toBe('internal');
  });

  it('drops the tree of a skill that is no longer open', async () => {
    const alpha = deferred<Result<ChannelOutput<'skill.files'>>>();
    const { files } = setup({
      'skill.files': ({ skillDir }) =>
        skillDir === '/lib/alpha' ? alpha.promise : ok({ entries: WITH_NOTES }),
    });
    const first = files.getState().load('/lib/alpha');
    await files.getState().load('/lib/beta');
    alpha.resolve(ok({ entries: SKILL }));
    await first;
    expect(files.getState()).toMatchObject({ skillDir: '/lib/beta', entries: WITH_NOTES });
  });
});

describe('files store: changes', () => {
  it('creates a file, clears the last error and lists the tree again', async () => {
    const { files, fake, notices } = setup({
      'skill.files': () => ok({ entries: SKILL }),
      'file.create': ({ path }) => ok({ path }),
    });
    await files.getState().load('/lib/alpha');
    notices.getState().showError(failure('io', 'Old problem.').error);
    fake.answer({ 'skill.files': () => ok({ entries: WITH_NOTES }) });
    await expect(files.getState().create('notes.md', 'file')).resolves.toBe(true);
    expect(fake.inputs('file.create')).toEqual([
      { skillDir: '/lib/alpha', path: 'notes.md', kind: 'file' },
    ]);
    expect(files.getState().entries).toEqual(WITH_NOTES);
    expect(notices.getState().error).toBeNull();
  });

  it('shows why a change failed and leaves the tree as it was', async () => {
    const { files, fake, notices } = setup({
      'skill.files': () => ok({ entries: SKILL }),
      'file.create': () => failure('exists', 'notes.md already exists.'),
      'file.rename': () => INTERNAL,
    });
    await files.getState().load('/lib/alpha');
    await expect(files.getState().create('notes.md', 'file')).resolves.toBe(false);
    expect(notices.getState().error?.message).toBe('notes.md already exists.');
    await expect(files.getState().rename('a.md', 'b.md')).resolves.toBeNull();
    expect(notices.getState().error?.code).toBe('internal');
    expect(fake.inputs('skill.files')).toHaveLength(1);
  });

  it('renames and returns the new path', async () => {
    const { files } = setup({
      'skill.files': () => ok({ entries: SKILL }),
      'file.rename': ({ to }) => ok({ path: to }),
    });
    await files.getState().load('/lib/alpha');
    await expect(files.getState().rename('notes.md', 'docs/notes.md')).resolves.toBe(
      'docs/notes.md',
    );
  });

  it('deletes with an undo, and the undo brings the file back once', async () => {
    const { files, fake } = setup({
      'skill.files': () => ok({ entries: WITH_NOTES }),
      'file.delete': () => ok({ undoToken: 'token-1' }),
      'file.restore': () => ok({ path: 'notes.md' }),
    });
    await files.getState().load('/lib/alpha');
    await expect(files.getState().remove('notes.md')).resolves.toBe(true);
    expect(files.getState().undo).toEqual({ token: 'token-1', path: 'notes.md' });
    await expect(files.getState().restore()).resolves.toBe(true);
    expect(files.getState().undo).toBeNull();
    await expect(files.getState().restore()).resolves.toBe(false);
    expect(fake.inputs('file.restore')).toEqual([{ undoToken: 'token-1' }]);
  });

  it('keeps the undo when the restore fails', async () => {
    const { files } = setup({
      'skill.files': () => ok({ entries: WITH_NOTES }),
      'file.delete': () => ok({ undoToken: 'token-1' }),
      'file.restore': () => INTERNAL,
    });
    await files.getState().load('/lib/alpha');
    await files.getState().remove('notes.md');
    await expect(files.getState().restore()).resolves.toBe(false);
    expect(files.getState().undo).toEqual({ token: 'token-1', path: 'notes.md' });
  });

  it('sends a dropped file as base64', async () => {
    const { files, fake } = setup({
      'skill.files': () => ok({ entries: SKILL }),
      'file.import': ({ path }) => ok({ path }),
    });
    await files.getState().load('/lib/alpha');
    const file = new File(['hello'], 'hello.txt');
    await expect(files.getState().importFile('assets/hello.txt', file)).resolves.toBe(true);
    expect(fake.inputs('file.import')).toEqual([
      { skillDir: '/lib/alpha', path: 'assets/hello.txt', base64: 'aGVsbG8=' },
    ]);
  });

  it('says so, without calling main, when a dropped file cannot be read', async () => {
    const { files, fake, notices } = setup({ 'skill.files': () => ok({ entries: SKILL }) });
    await files.getState().load('/lib/alpha');
    const unreadable = new File([], 'gone.png');
    unreadable.arrayBuffer = () => Promise.reject(new Error('NotFoundError'));
    await expect(files.getState().importFile('gone.png', unreadable)).resolves.toBe(false);
    expect(notices.getState().error?.message).toMatch(/^gone\.png could not be read/);
    expect(fake.inputs('file.import')).toEqual([]);
  });
});

describe('files store: previews', () => {
  const image = {
    path: 'logo.png',
    view: 'image' as const,
    size: 3,
    dataUrl: 'data:image/png;base64,AAA',
  };

  it('previews a file, and clears the preview', async () => {
    const { files } = setup({
      'skill.files': () => ok({ entries: SKILL }),
      'file.preview': () => ok(image),
    });
    await files.getState().load('/lib/alpha');
    await files.getState().showPreview('logo.png');
    expect(files.getState().preview).toEqual(image);
    files.getState().clearPreview();
    expect(files.getState().preview).toBeNull();
  });

  it('shows the error when a preview fails', async () => {
    const { files, notices } = setup({
      'skill.files': () => ok({ entries: SKILL }),
      'file.preview': () => INTERNAL,
    });
    await files.getState().load('/lib/alpha');
    await files.getState().showPreview('logo.png');
    expect(files.getState().preview).toBeNull();
    expect(notices.getState().error?.code).toBe('internal');
  });

  it('drops a preview that answers after another skill was opened', async () => {
    const answer = deferred<Result<ChannelOutput<'file.preview'>>>();
    const { files } = setup({
      'skill.files': () => ok({ entries: SKILL }),
      'file.preview': () => answer.promise,
    });
    await files.getState().load('/lib/alpha');
    const previewing = files.getState().showPreview('logo.png');
    await files.getState().load('/lib/beta');
    answer.resolve(ok(image));
    await previewing;
    expect(files.getState().preview).toBeNull();
  });

  it('gives the Markdown preview an image as a data URL, or null', async () => {
    const { files, fake } = setup({
      'skill.files': () => ok({ entries: SKILL }),
      'file.preview': () => ok(image),
    });
    await files.getState().load('/lib/alpha');
    await expect(files.getState().imageDataUrl('logo.png')).resolves.toBe(image.dataUrl);
    fake.answer({ 'file.preview': () => ok({ path: 'a.bin', view: 'binary', size: 9 }) });
    await expect(files.getState().imageDataUrl('a.bin')).resolves.toBeNull();
    fake.answer({ 'file.preview': () => INTERNAL });
    await expect(files.getState().imageDataUrl('missing.png')).resolves.toBeNull();
  });
});
