import { describe, expect, it } from 'vitest';
import type { ChannelOutput, Result } from '../../../../shared/ipc/contract';
import type {
  ImportPreview,
  ImportResult,
  PreviewSkill,
} from '../../../../shared/projection/types';
import {
  deferred,
  failure,
  fakeApi,
  INTERNAL,
  ok,
  type FakeChannels,
} from '../../testing/fake-api';
import { reviewed } from '../../testing/samples';
import { createImportStore, MAX_UPLOAD_BYTES } from './import-store';

const SKILL = { name: 'notes', root: '' } as PreviewSkill;
const PREVIEW: ImportPreview = {
  status: 'ok',
  format: 'zip',
  skills: [SKILL],
  ignored: [],
  outside: [],
};
const IMPORTED: ImportResult = {
  status: 'imported',
  name: 'notes',
  dir: '/lib/notes',
  files: [],
  skill: SKILL,
};

function setup(channels: FakeChannels) {
  const fake = fakeApi(channels);
  let libraryChanges = 0;
  const importer = createImportStore({
    api: fake.api,
    onLibraryChanged: async () => {
      libraryChanges += 1;
    },
  });
  return { fake, importer, libraryChanges: () => libraryChanges };
}

describe('import store: preview', () => {
  it('checks a typed path and shows its preview', async () => {
    const { importer, fake } = setup({ 'import.preview': () => ok(PREVIEW) });
    await importer.getState().previewImport('/tmp/notes.zip');
    expect(importer.getState()).toMatchObject({
      importSource: '/tmp/notes.zip',
      importPreview: PREVIEW,
      importError: null,
    });
    expect(fake.inputs('import.preview')).toEqual([{ source: '/tmp/notes.zip' }]);
  });

  it('shows the error when the source cannot be checked', async () => {
    const { importer } = setup({ 'import.preview': () => INTERNAL });
    await importer.getState().previewImport('/tmp/notes.zip');
    expect(importer.getState()).toMatchObject({ importPreview: null, importError: INTERNAL.error });
  });
});

describe('import store: a dropped archive', () => {
  it('uploads it, then previews what main kept', async () => {
    const { importer, fake } = setup({
      'import.upload': () => ok({ source: '/tmp/upload-1/notes.zip' }),
      'import.preview': () => ok(PREVIEW),
    });
    await importer.getState().uploadForImport(new File(['PK'], 'notes.zip'));
    expect(fake.inputs('import.upload')).toEqual([{ name: 'notes.zip', base64: 'UEs=' }]);
    expect(importer.getState()).toMatchObject({
      importSource: '/tmp/upload-1/notes.zip',
      importPreview: PREVIEW,
    });
  });

  it('refuses an archive too large to drop, without sending it', async () => {
    const { importer, fake } = setup({});
    const big = new File([], 'big.zip');
    Object.defineProperty(big, 'size', { value: MAX_UPLOAD_BYTES + 1 });
    await importer.getState().uploadForImport(big);
    expect(importer.getState().importError?.code).toBe('too-large');
    expect(fake.calls).toEqual([]);
  });

  it('shows the error when the upload fails or the file cannot be read', async () => {
    const { importer } = setup({ 'import.upload': () => INTERNAL });
    await importer.getState().uploadForImport(new File(['PK'], 'notes.zip'));
    expect(importer.getState()).toMatchObject({ importError: INTERNAL.error, importSource: null });
    const gone = new File([], 'gone.zip');
    gone.arrayBuffer = () => Promise.reject(new Error('NotFoundError'));
    await importer.getState().uploadForImport(gone);
    expect(importer.getState().importError?.message).toMatch(/^gone\.zip could not be read/);
  });
});

describe('import store: runImport', () => {
  it('imports into the chosen folder and tells the library', async () => {
    const { importer, fake, libraryChanges } = setup({
      'import.preview': () => ok(PREVIEW),
      'import.run': () => ok(IMPORTED),
    });
    await importer.getState().previewImport('/tmp/notes.zip');
    await importer.getState().runImport('/lib', { onConflict: 'rename' });
    expect(fake.inputs('import.run')).toEqual([
      { source: '/tmp/notes.zip', into: '/lib', onConflict: 'rename' },
    ]);
    expect(importer.getState().importResult).toEqual(IMPORTED);
    expect(libraryChanges()).toBe(1);
  });

  it('shows a name conflict without touching the library', async () => {
    const conflict: ImportResult = {
      status: 'conflict',
      message: 'The library already has notes.',
      name: 'notes',
      existing: '/lib/notes',
      identical: false,
      suggestion: 'notes-2',
      skill: SKILL,
    };
    const { importer, libraryChanges } = setup({
      'import.preview': () => ok(PREVIEW),
      'import.run': () => ok(conflict),
    });
    await importer.getState().previewImport('/tmp/notes.zip');
    await importer.getState().runImport('/lib');
    expect(importer.getState().importResult).toEqual(conflict);
    expect(libraryChanges()).toBe(0);
  });

  it('shows the error when the import fails', async () => {
    const { importer } = setup({
      'import.preview': () => ok(PREVIEW),
      'import.run': () => failure('io', 'The library folder is read-only.'),
    });
    await importer.getState().previewImport('/tmp/notes.zip');
    await importer.getState().runImport('/lib');
    expect(importer.getState()).toMatchObject({ importResult: null, importError: { code: 'io' } });
  });

  it('does nothing before a source was checked', async () => {
    const { importer, fake } = setup({});
    await importer.getState().runImport('/lib');
    expect(fake.calls).toEqual([]);
  });
});

describe('import store: reset', () => {
  it('forgets everything when the dialog closes, including answers still on their way', async () => {
    const upload = deferred<Result<ChannelOutput<'import.upload'>>>();
    const { importer, fake } = setup({ 'import.upload': () => upload.promise });
    const uploading = importer.getState().uploadForImport(new File(['PK'], 'notes.zip'));
    importer.getState().resetImport();
    upload.resolve(ok({ source: '/tmp/upload-1/notes.zip' }));
    await uploading;
    expect(importer.getState()).toMatchObject({
      importSource: null,
      importPreview: null,
      importResult: null,
      importError: null,
    });
    expect(fake.inputs('import.preview')).toEqual([]);
  });

  it('drops a preview that answers after the dialog closed', async () => {
    const preview = deferred<Result<ImportPreview>>();
    const { importer } = setup({ 'import.preview': () => preview.promise });
    const previewing = importer.getState().previewImport('/tmp/notes.zip');
    importer.getState().resetImport();
    preview.resolve(ok(PREVIEW));
    await previewing;
    expect(importer.getState()).toMatchObject({ importSource: null, importPreview: null });
  });
});

describe('import store: the safety review', () => {
  it('shows "Don\'t trust" without writing, then imports with the user\'s reason and days', async () => {
    const safety = reviewed('notes', 'danger');
    const answers: ImportResult[] = [
      { status: 'unsafe', message: "notes was not imported: Don't trust.", skill: SKILL, safety },
      IMPORTED,
    ];
    const { importer, fake, libraryChanges } = setup({
      'import.preview': () => ok(PREVIEW),
      'import.run': () => ok(answers.shift() ?? IMPORTED),
    });
    await importer.getState().previewImport('/tmp/notes.zip');
    await importer.getState().runImport('/lib');
    expect(importer.getState().importResult).toMatchObject({ status: 'unsafe', safety });
    expect(libraryChanges()).toBe(0);
    await importer.getState().runImport('/lib', { trust: { reason: 'I wrote it', days: 7 } });
    expect(fake.inputs('import.run')).toEqual([
      { source: '/tmp/notes.zip', into: '/lib' },
      { source: '/tmp/notes.zip', into: '/lib', trust: { reason: 'I wrote it', days: 7 } },
    ]);
    expect(importer.getState().importResult).toEqual(IMPORTED);
    expect(libraryChanges()).toBe(1);
  });
});
