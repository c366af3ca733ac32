import { describe, expect, it, vi } from 'vitest';
import type { ChannelOutput, ProtocolLogSummary, Result } from '../../../../shared/ipc/contract';
import type {
  ConnectionStatus,
  DiscoveryResult,
  FileRead,
  FileStatus,
  FileVerification,
  InspectedSkill,
  ProtocolLogEntry,
  SaveResult,
  SkillVerification,
  SkillViewData,
} from '../../../../shared/inspector/types';
import {
  deferred,
  failure,
  fakeApi,
  INTERNAL,
  ok,
  type FakeChannels,
} from '../../testing/fake-api';
import { reviewed } from '../../testing/samples';
import { createInspectorStore, LOG_LIMIT } from './inspector-store';

function status(label: string, state: ConnectionStatus['state'] = 'connected'): ConnectionStatus {
  return {
    label,
    state,
    kind: 'http',
    target: `https://${label}.example/mcp`,
    skillsExtension: true,
    directoryRead: true,
  };
}

function skill(server: string, name: string): InspectedSkill {
  const root = `skill://${name}`;
  return {
    key: `${server}\n${root}/SKILL.md`,
    server,
    uri: `${root}/SKILL.md`,
    name,
    rootUri: root,
    route: 'extension',
    manifest: [
      { uri: `${root}/SKILL.md`, path: 'SKILL.md' },
      { uri: `${root}/logo.png`, path: 'logo.png' },
    ],
    sameNameAs: [],
    problems: [],
  };
}

function verification(uri: string, fileStatus: FileStatus = 'verified'): FileVerification {
  return { uri, status: fileStatus, reasons: [] };
}

function view(of: InspectedSkill): SkillViewData {
  return {
    skill: of,
    skillMd: { verification: verification(of.uri) },
    text: `---\nname: ${of.name}\n---\n`,
    profile: 'agentskills',
    profiles: ['agentskills'],
    tree: { name: of.name, path: '', uri: of.rootUri, kind: 'directory', children: [] },
    directoryRead: true,
  };
}

function discovery(server: string, skills: InspectedSkill[]): DiscoveryResult {
  return {
    server,
    route: 'extension',
    steps: [],
    skills,
    templates: [],
    partial: false,
    problems: [],
    durationMs: 1,
  };
}

function logEntry(seq: number): ProtocolLogEntry {
  return {
    seq,
    server: 'a',
    direction: 'out',
    time: seq,
    kind: 'request',
    method: 'skills/list',
    bytes: 10,
    message: { id: seq },
    truncated: false,
  };
}

function summaryOf({ message: _message, ...rest }: ProtocolLogEntry): ProtocolLogSummary {
  return rest;
}

const ALPHA = skill('a', 'alpha');
const BETA = skill('a', 'beta');
const OTHER = skill('b', 'gamma');

/** An inspector store whose fake server `a` holds alpha and beta, and `b` holds gamma. */
function setup(channels: FakeChannels = {}) {
  const fake = fakeApi({
    'inspector.skills': () => ok({ skills: [ALPHA, BETA, OTHER] }),
    'inspector.view': ({ key }) =>
      ok(view([ALPHA, BETA, OTHER].find((s) => s.key === key) ?? ALPHA)),
    'inspector.fileStatuses': () => ok({ files: [verification(ALPHA.uri)] }),
    ...channels,
  });
  let libraryChanges = 0;
  const inspector = createInspectorStore({
    api: fake.api,
    onLibraryChanged: async () => {
      libraryChanges += 1;
    },
  });
  return { fake, inspector, libraryChanges: () => libraryChanges };
}

describe('inspector store: saved connections', () => {
  it('loads saved connections, live statuses, the log and the skills found so far', async () => {
    const { inspector } = setup({
      'inspector.connections': () => ok({ connections: [], secretsStored: true }),
      'inspector.status': () => ok({ connections: [status('a')] }),
      'inspector.log': () => ok({ entries: [logEntry(1)] }),
    });
    await inspector.getState().loadConnections();
    expect(inspector.getState()).toMatchObject({
      secretsStored: true,
      statuses: { a: status('a') },
      log: [summaryOf(logEntry(1))],
      skills: [ALPHA, BETA, OTHER],
    });
  });

  it('reports a failure to read the saved connections and still shows the rest', async () => {
    const { inspector } = setup({
      'inspector.connections': () => INTERNAL,
      'inspector.status': () => ok({ connections: [status('a')] }),
      'inspector.log': () => INTERNAL,
    });
    await inspector.getState().loadConnections();
    expect(inspector.getState().message).toMatchObject({
      kind: 'error',
      text: INTERNAL.error.message,
    });
    expect(inspector.getState().statuses).toEqual({ a: status('a') });
  });

  it('saves a connection and says so, or reports why not', async () => {
    const { inspector, fake } = setup({
      'inspector.saveConnection': ({ connection }) =>
        ok({ id: '1', label: connection.label, kind: connection.kind, hasSecret: false } as never),
      'inspector.connections': () => ok({ connections: [], secretsStored: false }),
      'inspector.status': () => ok({ connections: [] }),
      'inspector.log': () => ok({ entries: [] }),
    });
    await expect(
      inspector.getState().saveConnection({ label: 'a', kind: 'http', url: 'https://a' }),
    ).resolves.toBe(true);
    expect(inspector.getState().message).toEqual({
      kind: 'info',
      text: 'Saved the connection “a”.',
    });
    fake.answer({
      'inspector.saveConnection': () => failure('unsupported', 'Secrets cannot be kept here.'),
    });
    await expect(inspector.getState().saveConnection({ label: 'a', kind: 'http' })).resolves.toBe(
      false,
    );
    expect(inspector.getState().message).toMatchObject({
      kind: 'error',
      text: 'Secrets cannot be kept here.',
    });
  });
});

describe('inspector store: connecting and discovering', () => {
  it('connects, then discovers the server’s skills; nothing stays busy', async () => {
    const { inspector } = setup({
      'inspector.connect': () => ok(status('a')),
      'inspector.discover': () => ok(discovery('a', [ALPHA, BETA])),
    });
    const connecting = inspector
      .getState()
      .connect({ label: 'a', kind: 'http', url: 'https://a' }, 'a');
    expect(inspector.getState().busy.a).toBe('Connecting…');
    expect(inspector.getState().statuses.a?.state).toBe('connecting');
    await connecting;
    expect(inspector.getState().busy.a).toBeUndefined();
    expect(inspector.getState().statuses.a).toEqual(status('a'));
    expect(inspector.getState().discoveries.a?.skills).toEqual([ALPHA, BETA]);
    expect(inspector.getState().skills).toEqual([ALPHA, BETA, OTHER]);
  });

  it('is not busy after a failed connection, which it marks failed with the reason', async () => {
    const { inspector, fake } = setup({
      'inspector.connect': () => failure('unreachable', 'Nothing answers at https://a.'),
    });
    await inspector.getState().connect({ label: 'a', kind: 'http', url: 'https://a' }, 'a');
    expect(inspector.getState().busy.a).toBeUndefined();
    expect(inspector.getState().connectionErrors.a?.message).toBe('Nothing answers at https://a.');
    expect(inspector.getState().statuses.a).toMatchObject({
      state: 'failed',
      error: 'Nothing answers at https://a.',
    });
    expect(fake.inputs('inspector.discover')).toEqual([]);
  });

  it('is not busy after a failed reconnection or discovery', async () => {
    const { inspector } = setup({
      'inspector.reconnect': () => INTERNAL,
      'inspector.discover': () => INTERNAL,
    });
    await inspector.getState().reconnect('a');
    expect(inspector.getState().busy.a).toBeUndefined();
    await inspector.getState().discover('a');
    expect(inspector.getState().busy.a).toBeUndefined();
    expect(inspector.getState().connectionErrors.a).toEqual(INTERNAL.error);
  });

  it('forgets a server on disconnect, with its selected skill, even when main reports a problem', async () => {
    const { inspector, fake } = setup({ 'inspector.disconnect': () => INTERNAL });
    inspector.setState({ statuses: { a: status('a'), b: status('b') } });
    await inspector.getState().selectSkill(ALPHA.key);
    fake.answer({ 'inspector.skills': () => ok({ skills: [OTHER] }) });
    await inspector.getState().disconnect('a');
    expect(inspector.getState()).toMatchObject({
      statuses: { b: status('b') },
      selectedKey: null,
      view: null,
      skills: [OTHER],
      message: { kind: 'error' },
    });
  });
});

describe('inspector store: a skill', () => {
  it('opens a skill: loading, then its screen and file statuses', async () => {
    const { inspector } = setup();
    const selecting = inspector.getState().selectSkill(ALPHA.key);
    expect(inspector.getState()).toMatchObject({
      selectedKey: ALPHA.key,
      viewState: 'loading',
      view: null,
    });
    await selecting;
    expect(inspector.getState()).toMatchObject({
      viewState: 'ready',
      view: view(ALPHA),
      fileStatuses: { [ALPHA.uri]: verification(ALPHA.uri) },
    });
  });

  it('marks the screen failed, not loading, when the skill cannot be read', async () => {
    const { inspector } = setup({ 'inspector.view': () => INTERNAL });
    await inspector.getState().selectSkill(ALPHA.key);
    expect(inspector.getState()).toMatchObject({
      viewState: 'failed',
      view: null,
      message: { kind: 'error' },
    });
  });

  it('keeps the skill picked last when an earlier one answers later', async () => {
    const slow = deferred<Result<SkillViewData>>();
    const { inspector } = setup({
      'inspector.view': ({ key }) => (key === ALPHA.key ? slow.promise : ok(view(BETA))),
    });
    const first = inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().selectSkill(BETA.key);
    slow.resolve(ok(view(ALPHA)));
    await first;
    expect(inspector.getState()).toMatchObject({ selectedKey: BETA.key, view: view(BETA) });
  });

  it('keeps the skill picked last when the earlier one’s file statuses answer later', async () => {
    const statuses = deferred<Result<ChannelOutput<'inspector.fileStatuses'>>>();
    const { inspector, fake } = setup({
      'inspector.fileStatuses': ({ key }) =>
        key === ALPHA.key ? statuses.promise : ok({ files: [verification(BETA.uri)] }),
    });
    const first = inspector.getState().selectSkill(ALPHA.key);
    await vi.waitFor(() => expect(fake.inputs('inspector.fileStatuses')).toHaveLength(1));
    await inspector.getState().selectSkill(BETA.key);
    statuses.resolve(ok({ files: [verification(ALPHA.uri)] }));
    await first;
    expect(inspector.getState()).toMatchObject({
      selectedKey: BETA.key,
      view: view(BETA),
      fileStatuses: { [BETA.uri]: verification(BETA.uri) },
    });
  });

  it('checks a skill for its own format unless the user picks a target', async () => {
    const { inspector, fake } = setup();
    await inspector.getState().selectSkill(ALPHA.key);
    expect(inspector.getState().profile).toBe('own');
    expect(fake.inputs('inspector.view').at(-1)).toEqual({ key: ALPHA.key });
    await inspector.getState().setProfile('own');
    expect(fake.inputs('inspector.view').at(-1)).toEqual({ key: ALPHA.key });
  });

  it('opens the skill again under another profile', async () => {
    const { inspector, fake } = setup();
    await inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().setProfile('claude-code');
    expect(fake.inputs('inspector.view').at(-1)).toEqual({
      key: ALPHA.key,
      profile: 'claude-code',
    });
  });
});

describe('inspector store: files', () => {
  const logo = `${ALPHA.rootUri}/logo.png`;
  const read: FileRead = {
    verification: verification(logo),
    content: { base64: 'AAA', mimeType: 'image/png', size: 3 },
  };

  it('reads a file: loading, then ready with its status', async () => {
    const { inspector } = setup({ 'inspector.readFile': () => ok(read) });
    await inspector.getState().selectSkill(ALPHA.key);
    const opening = inspector.getState().openFileAt(logo, 'logo.png');
    expect(inspector.getState().openFile).toMatchObject({ uri: logo, state: 'loading' });
    await opening;
    expect(inspector.getState().openFile).toEqual({
      uri: logo,
      path: 'logo.png',
      read,
      state: 'ready',
    });
    expect(inspector.getState().fileStatuses[logo]).toEqual(read.verification);
  });

  it('marks a file that cannot be read as failed', async () => {
    const { inspector } = setup({ 'inspector.readFile': () => INTERNAL });
    await inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().openFileAt(logo, 'logo.png');
    expect(inspector.getState().openFile?.state).toBe('failed');
  });

  it('drops a file that answers after another was opened', async () => {
    const slow = deferred<Result<FileRead>>();
    const { inspector } = setup({
      'inspector.readFile': ({ uri }) =>
        uri === logo ? slow.promise : ok({ verification: verification(uri) }),
    });
    await inspector.getState().selectSkill(ALPHA.key);
    const first = inspector.getState().openFileAt(logo, 'logo.png');
    await inspector.getState().openFileAt(ALPHA.uri, 'SKILL.md');
    slow.resolve(ok(read));
    await first;
    expect(inspector.getState().openFile).toMatchObject({ uri: ALPHA.uri, state: 'ready' });
  });

  it('gives the preview images listed in the manifest only', async () => {
    const { inspector, fake } = setup({ 'inspector.readFile': () => ok(read) });
    await inspector.getState().selectSkill(ALPHA.key);
    await expect(inspector.getState().imageDataUrl('logo.png')).resolves.toBe(
      'data:image/png;base64,AAA',
    );
    await expect(inspector.getState().imageDataUrl('elsewhere.png')).resolves.toBeNull();
    expect(fake.inputs('inspector.readFile')).toEqual([{ key: ALPHA.key, uri: logo }]);
  });

  it('pages through a live folder, and keeps the pages shown when the next one fails', async () => {
    const page = (uris: string[], nextCursor?: string) =>
      ok({
        resources: uris.map((uri) => ({ uri, name: uri, mimeType: 'text/plain' })),
        entries: uris.map((uri) => ({ uri, status: 'pending' as const })),
        nextCursor,
      });
    const { inspector, fake } = setup({
      'inspector.readDirectory': () => page([`${ALPHA.rootUri}/a.md`], 'next'),
    });
    await inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().listDirectory(ALPHA.rootUri);
    fake.answer({ 'inspector.readDirectory': () => page([`${ALPHA.rootUri}/b%20c.md`]) });
    await inspector.getState().listDirectory(ALPHA.rootUri, true);
    expect(fake.inputs('inspector.readDirectory')[1]).toEqual({
      key: ALPHA.key,
      uri: ALPHA.rootUri,
      cursor: 'next',
    });
    expect(inspector.getState().directory).toMatchObject({ state: 'ready', nextCursor: undefined });
    expect(inspector.getState().directory?.entries.map((e) => e.name)).toEqual(['a.md', 'b c.md']);

    fake.answer({ 'inspector.readDirectory': () => INTERNAL });
    await inspector.getState().listDirectory(ALPHA.rootUri, true);
    expect(inspector.getState().directory).toMatchObject({ state: 'ready' });
    expect(inspector.getState().directory?.entries).toHaveLength(2);
    await inspector.getState().listDirectory(`${ALPHA.rootUri}/sub`);
    expect(inspector.getState().directory).toBeNull();
  });
});

describe('inspector store: verifying, refreshing, reporting', () => {
  const result: SkillVerification = {
    key: ALPHA.key,
    uri: ALPHA.uri,
    verdict: 'failed',
    files: [verification(ALPHA.uri, 'mismatch')],
    problems: [],
    bytesRead: 1,
    durationMs: 1,
  };

  it('verifies every file, then shows the verdict, the statuses and the new tree', async () => {
    const tree = {
      name: 'alpha',
      path: '',
      uri: ALPHA.rootUri,
      kind: 'directory' as const,
      children: [],
    };
    const { inspector } = setup({
      'inspector.verify': () => ok(result),
      'inspector.tree': () => ok(tree),
    });
    await inspector.getState().selectSkill(ALPHA.key);
    const verifying = inspector.getState().verifyAll();
    expect(inspector.getState().verifying).toBe(true);
    await verifying;
    expect(inspector.getState()).toMatchObject({
      verifying: false,
      verification: result,
      fileStatuses: { [ALPHA.uri]: { status: 'mismatch' } },
    });
    expect(inspector.getState().view?.tree).toEqual(tree);
  });

  it('stops verifying and reports the error when verification fails', async () => {
    const { inspector } = setup({ 'inspector.verify': () => INTERNAL });
    await inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().verifyAll();
    expect(inspector.getState()).toMatchObject({
      verifying: false,
      verification: null,
      message: { kind: 'error' },
    });
  });

  it('drops a verification whose skill was left while its tree was read', async () => {
    const tree = deferred<Result<ChannelOutput<'inspector.tree'>>>();
    const { inspector, fake } = setup({
      'inspector.verify': () => ok(result),
      'inspector.tree': () => tree.promise,
    });
    await inspector.getState().selectSkill(ALPHA.key);
    const verifying = inspector.getState().verifyAll();
    await vi.waitFor(() => expect(fake.inputs('inspector.tree')).toHaveLength(1));
    await inspector.getState().selectSkill(BETA.key);
    tree.resolve(ok({ name: 'alpha', path: '', uri: ALPHA.rootUri, kind: 'directory' }));
    await verifying;
    expect(inspector.getState()).toMatchObject({
      selectedKey: BETA.key,
      verification: null,
      view: view(BETA),
    });
  });

  it('fetches the entry again and reopens the skill, or reports why not', async () => {
    const { inspector, fake } = setup({ 'inspector.refresh': () => ok(ALPHA) });
    await inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().refresh();
    expect(inspector.getState().message?.kind).toBe('info');
    expect(fake.inputs('inspector.view')).toHaveLength(2);
    fake.answer({ 'inspector.refresh': () => INTERNAL });
    await inspector.getState().refresh();
    expect(inspector.getState().message?.kind).toBe('error');
    expect(fake.inputs('inspector.view')).toHaveLength(2);
  });

  it('runs a report card, and is neither reporting nor busy after a failure', async () => {
    const card = { report: {} as never, markdown: '# Card', json: '{}' };
    const { inspector, fake } = setup({ 'inspector.report': () => ok(card) });
    const running = inspector.getState().runReport('a');
    expect(inspector.getState()).toMatchObject({ reporting: 'a', busy: { a: expect.any(String) } });
    await running;
    expect(inspector.getState().reports.a).toEqual(card);
    fake.answer({ 'inspector.report': () => INTERNAL });
    await inspector.getState().runReport('a');
    expect(inspector.getState()).toMatchObject({
      reporting: null,
      busy: { a: undefined },
      message: { kind: 'error' },
    });
  });
});

describe('inspector store: keeping a skill', () => {
  const saved: SaveResult = {
    ok: true,
    name: 'alpha',
    folder: '/lib/alpha',
    files: 2,
    provenance: {} as never,
  };
  const refused: SaveResult = {
    ok: false,
    reason: 'verification',
    message: 'logo.png does not match.',
  };

  it('saves a verified skill into the library, says so and tells the library', async () => {
    const { inspector, libraryChanges } = setup({ 'inspector.saveToLibrary': () => ok(saved) });
    await inspector.getState().selectSkill(ALPHA.key);
    const saving = inspector.getState().saveToLibrary('/lib');
    expect(inspector.getState().saving).toBe(true);
    await saving;
    expect(inspector.getState()).toMatchObject({
      saving: false,
      save: saved,
      message: { kind: 'info', text: 'Saved 2 verified files to /lib/alpha.' },
    });
    expect(libraryChanges()).toBe(1);
  });

  it('shows a refusal without touching the library', async () => {
    const { inspector, libraryChanges } = setup({ 'inspector.saveToLibrary': () => ok(refused) });
    await inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().saveToLibrary('/lib');
    expect(inspector.getState()).toMatchObject({ saving: false, save: refused });
    expect(libraryChanges()).toBe(0);
  });

  it('is not saving after a failed save or export', async () => {
    const { inspector } = setup({
      'inspector.saveToLibrary': () => INTERNAL,
      'inspector.exportForUpload': () => INTERNAL,
    });
    await inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().saveToLibrary('/lib');
    expect(inspector.getState()).toMatchObject({
      saving: false,
      save: null,
      message: { kind: 'error' },
    });
    await inspector.getState().exportForUpload();
    expect(inspector.getState()).toMatchObject({ saving: false, exported: null });
  });

  it('reviews the selected skill before Save, and drops a review of a skill no longer selected', async () => {
    const late = deferred<Result<ChannelOutput<'inspector.review'>>>();
    const answers = [late.promise, Promise.resolve(ok(reviewed('beta', 'danger')))];
    const { inspector, fake } = setup({ 'inspector.review': () => answers.shift() ?? INTERNAL });
    await inspector.getState().selectSkill(ALPHA.key);
    const first = inspector.getState().reviewSafety();
    await inspector.getState().selectSkill(BETA.key);
    expect(inspector.getState().safety).toBeNull();
    await inspector.getState().reviewSafety();
    late.resolve(ok(reviewed('alpha')));
    await first;
    expect(inspector.getState().safety?.name).toBe('beta');
    expect(fake.inputs('inspector.review')).toEqual([{ key: ALPHA.key }, { key: BETA.key }]);
  });

  it('a Save the safety review refuses writes nothing and shows the review; Trust anyway saves', async () => {
    const safety = reviewed('alpha', 'danger');
    const unsafe: SaveResult = {
      ok: false,
      reason: 'safety',
      message: 'alpha was not saved: the safety review says "Don\'t trust".',
      safety,
    };
    const answers = [unsafe, saved];
    const { inspector, fake, libraryChanges } = setup({
      'inspector.saveToLibrary': () => ok(answers.shift() ?? saved),
    });
    await inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().saveToLibrary('/lib');
    expect(inspector.getState()).toMatchObject({ save: unsafe, safety });
    expect(libraryChanges()).toBe(0);
    await inspector.getState().saveToLibrary('/lib', {
      trust: { reason: 'Our team wrote it', days: 30 },
    });
    expect(fake.inputs('inspector.saveToLibrary')).toEqual([
      { key: ALPHA.key, libraryRoot: '/lib' },
      { key: ALPHA.key, libraryRoot: '/lib', trust: { reason: 'Our team wrote it', days: 30 } },
    ]);
    expect(inspector.getState().save).toEqual(saved);
    expect(libraryChanges()).toBe(1);
  });

  it('a name already in the library: the choice goes to main, and the message says where the skill went', async () => {
    const conflict: SaveResult = {
      ok: false,
      reason: 'conflict',
      message: 'Your library already has a skill folder named alpha.',
      folder: '/lib/alpha',
      suggestion: 'alpha-2',
    };
    const kept: SaveResult = {
      ...saved,
      name: 'alpha-2',
      folder: '/lib/alpha-2',
      renamedFrom: 'alpha',
    };
    const replaced: SaveResult = { ...saved, trashedTo: '/data/trash/alpha-1' };
    const answers = [conflict, kept, replaced];
    const { inspector, fake, libraryChanges } = setup({
      'inspector.saveToLibrary': () => ok(answers.shift() ?? saved),
    });
    await inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().saveToLibrary('/lib');
    expect(inspector.getState().save).toEqual(conflict);
    expect(libraryChanges()).toBe(0);
    await inspector.getState().saveToLibrary('/lib', { onConflict: 'rename' });
    expect(inspector.getState().message?.text).toBe(
      'Saved as alpha-2 (your library already had alpha). 2 verified files in /lib/alpha-2.',
    );
    await inspector.getState().saveToLibrary('/lib', { onConflict: 'replace' });
    expect(inspector.getState().message?.text).toBe(
      'Replaced alpha; the old copy is in the trash (/data/trash/alpha-1). 2 verified files in /lib/alpha.',
    );
    expect(fake.inputs('inspector.saveToLibrary')).toEqual([
      { key: ALPHA.key, libraryRoot: '/lib' },
      { key: ALPHA.key, libraryRoot: '/lib', onConflict: 'rename' },
      { key: ALPHA.key, libraryRoot: '/lib', onConflict: 'replace' },
    ]);
    expect(libraryChanges()).toBe(2);
  });

  it('makes a verified copy for upload', async () => {
    const { inspector } = setup({ 'inspector.exportForUpload': () => ok(saved) });
    await inspector.getState().selectSkill(ALPHA.key);
    await inspector.getState().exportForUpload();
    expect(inspector.getState()).toMatchObject({ saving: false, exported: saved });
  });
});

describe('inspector store: the protocol log', () => {
  it('shows one entry in full, and closes it', async () => {
    const { inspector } = setup({ 'inspector.log': () => ok({ entries: [logEntry(7)] }) });
    await inspector.getState().showLogEntry(7);
    expect(inspector.getState().logDetail).toEqual(logEntry(7));
    await inspector.getState().showLogEntry(null);
    expect(inspector.getState().logDetail).toBeNull();
  });

  it('exports the log as JSON, or null with the error shown', async () => {
    const { inspector, fake } = setup({ 'inspector.exportLog': () => ok({ json: '[]' }) });
    await expect(inspector.getState().exportLog({})).resolves.toBe('[]');
    fake.answer({ 'inspector.exportLog': () => INTERNAL });
    await expect(inspector.getState().exportLog({})).resolves.toBeNull();
    expect(inspector.getState().message?.kind).toBe('error');
    inspector.getState().dismissMessage();
    expect(inspector.getState().message).toBeNull();
  });
});

describe('inspector store: live events', () => {
  it('follows a connection’s state, and forgets the server when it disconnects', () => {
    const { inspector } = setup();
    inspector.setState({ discoveries: { a: discovery('a', [ALPHA]) }, skills: [ALPHA, OTHER] });
    inspector.getState().connectionChanged(status('a', 'connected'));
    expect(inspector.getState().statuses.a?.state).toBe('connected');
    inspector.getState().connectionChanged(status('a', 'disconnected'));
    expect(inspector.getState()).toMatchObject({ statuses: {}, discoveries: {}, skills: [OTHER] });
  });

  it('keeps a connection being replaced under the same label', () => {
    const { inspector } = setup();
    inspector.setState({ statuses: { a: status('a', 'connecting') }, busy: { a: 'Connecting…' } });
    inspector.getState().connectionChanged(status('a', 'disconnected'));
    expect(inspector.getState().statuses.a?.state).toBe('connecting');
  });

  it('keeps the latest protocol log rows', () => {
    const { inspector } = setup();
    for (let seq = 1; seq <= LOG_LIMIT + 2; seq++)
      inspector.getState().logged(summaryOf(logEntry(seq)));
    expect(inspector.getState().log).toHaveLength(LOG_LIMIT);
    expect(inspector.getState().log[0]?.seq).toBe(3);
  });

  it('takes file checks and verdicts for the selected skill only', async () => {
    const { inspector } = setup();
    await inspector.getState().selectSkill(ALPHA.key);
    inspector.getState().fileChecked(BETA.key, verification(BETA.uri));
    inspector
      .getState()
      .fileChecked(ALPHA.key, verification(`${ALPHA.rootUri}/logo.png`, 'mismatch'));
    expect(Object.keys(inspector.getState().fileStatuses)).toEqual([
      ALPHA.uri,
      `${ALPHA.rootUri}/logo.png`,
    ]);
    const verdict = (key: string): SkillVerification => ({
      key,
      uri: '',
      verdict: 'verified',
      files: [],
      problems: [],
      bytesRead: 0,
      durationMs: 0,
    });
    inspector.getState().verified(verdict(BETA.key));
    expect(inspector.getState().verification).toBeNull();
    inspector.getState().verified(verdict(ALPHA.key));
    expect(inspector.getState().verification?.key).toBe(ALPHA.key);
  });
});

describe('inspector store: a program starts only after the user says yes', () => {
  const stdio = {
    label: 'local',
    kind: 'stdio' as const,
    command: 'node',
    args: ['server.js', '--stdio'],
    env: [],
  };

  it('asks first, with the exact command line, and starts nothing until agreed', async () => {
    const { inspector, fake } = setup({
      'inspector.connect': () =>
        ok({ ...status('local'), kind: 'stdio', target: 'node server.js --stdio' }),
      'inspector.discover': () => ok(discovery('local', [])),
    });
    await inspector.getState().connect(stdio, 'local');
    expect(inspector.getState().pendingProgram).toEqual({
      label: 'local',
      commandLine: 'node server.js --stdio',
    });
    expect(fake.inputs('inspector.connect')).toEqual([]);
    await inspector.getState().startProgram();
    expect(inspector.getState().pendingProgram).toBeNull();
    expect(fake.inputs('inspector.connect')).toEqual([{ target: stdio }]);
  });

  it('starts nothing when the user declines', async () => {
    const { inspector, fake } = setup({});
    await inspector.getState().connect(stdio, 'local');
    inspector.getState().declineProgram();
    await inspector.getState().startProgram();
    expect(fake.inputs('inspector.connect')).toEqual([]);
    expect(inspector.getState().pendingProgram).toBeNull();
  });

  it('asks for a saved stdio connection and before starting its program again, not for HTTP', async () => {
    const { inspector, fake } = setup({
      'inspector.connections': () =>
        ok({
          connections: [
            {
              id: 'c1',
              label: 'saved',
              kind: 'stdio',
              command: 'python3',
              args: ['srv.py'],
              headers: [],
              hasBearerToken: false,
              oauth: false,
              hasOAuthTokens: false,
              env: [],
              savedAt: '2026-11-24T00:00:00Z',
            },
          ],
          secretsStored: false,
        }),
      'inspector.status': () => ok({ connections: [] }),
      'inspector.log': () => ok({ entries: [] }),
      'inspector.skills': () => ok({ skills: [] }),
      'inspector.connect': () => ok(status('web')),
      'inspector.discover': () => ok(discovery('web', [])),
    });
    await inspector.getState().loadConnections();
    await inspector.getState().connect({ savedId: 'c1' }, 'saved');
    expect(inspector.getState().pendingProgram?.commandLine).toBe('python3 srv.py');
    inspector.getState().declineProgram();
    inspector.setState({
      statuses: { saved: { ...status('saved'), kind: 'stdio', target: 'python3 srv.py' } },
    });
    await inspector.getState().reconnect('saved');
    expect(inspector.getState().pendingProgram?.commandLine).toBe('python3 srv.py');
    expect(fake.inputs('inspector.reconnect')).toEqual([]);
    inspector.getState().declineProgram();
    await inspector.getState().connect({ label: 'web', kind: 'http', url: 'https://web' }, 'web');
    expect(inspector.getState().pendingProgram).toBeNull();
    expect(fake.inputs('inspector.connect')).toHaveLength(1);
  });
});
