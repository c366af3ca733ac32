import { create } from 'zustand';
import type {
  ApiClient,
  ApiError,
  ChannelInput,
  ChannelOutput,
  ProtocolLogSummary,
  Result,
} from '../../../../shared/ipc/contract';
import type {
  ConnectionInput,
  ConnectionStatus,
  DirectoryPageEntry,
  DiscoveryResult,
  FileRead,
  FileVerification,
  InspectedSkill,
  ProtocolLogEntry,
  SaveResult,
  SavedConnection,
  SkillVerification,
  SkillViewData,
} from '../../../../shared/inspector/types';
import type { SafetyReviewResult, TrustRequest } from '../../../../shared/safety/types';
import { keptWords } from '../../ui/format';
import type { ProfileId } from '../../../../shared/validation/types';

/** One live folder listing being paged through. */
export interface DirectoryListing {
  uri: string;
  entries: (DirectoryPageEntry & { mimeType?: string; name: string })[];
  nextCursor?: string;
  state: 'loading' | 'ready';
}

/** The report card with its exports. */
export type ReportOutput = ChannelOutput<'inspector.report'>;

/** A message for the user: `error` goes to an alert, `info` to a status line. */
export interface InspectorMessage {
  kind: 'error' | 'info';
  text: string;
  detail?: string;
}

/** The inspector screen's state; its actions are the only callers of the inspector channels. */
export interface InspectorState {
  connections: SavedConnection[];
  secretsStored: boolean;
  /** Live connections by label. */
  statuses: Record<string, ConnectionStatus>;
  /** What a connection is busy with ("Connecting…", "Discovering skills…"), by label. */
  busy: Record<string, string | undefined>;
  /** Last error per connection label, in plain words. */
  connectionErrors: Record<string, ApiError | undefined>;
  discoveries: Record<string, DiscoveryResult>;
  skills: InspectedSkill[];
  selectedKey: string | null;
  /** What the skill is checked for: a profile, or `own` (its own format, as the library checks it). */
  profile: ProfileId | 'own';
  view: SkillViewData | null;
  viewState: 'idle' | 'loading' | 'ready' | 'failed';
  /** File statuses of the selected skill by URI (kept live by events). */
  fileStatuses: Record<string, FileVerification>;
  openFile: {
    uri: string;
    path: string;
    read: FileRead | null;
    state: 'loading' | 'ready' | 'failed';
  } | null;
  directory: DirectoryListing | null;
  verification: SkillVerification | null;
  verifying: boolean;
  save: SaveResult | null;
  saving: boolean;
  /** The safety review of the selected skill's verified files, shown before Save (nothing is written). */
  safety: SafetyReviewResult | null;
  exported: SaveResult | null;
  reports: Record<string, ReportOutput | undefined>;
  reporting: string | null;
  log: ProtocolLogSummary[];
  logDetail: ProtocolLogEntry | null;
  message: InspectorMessage | null;
  /**
   * A program waiting for the user's yes before it starts (a stdio connection runs a program on
   * this computer with the user's permissions): its command line and what to do once agreed.
   */
  pendingProgram: { label: string; commandLine: string } | null;

  loadConnections: () => Promise<void>;
  saveConnection: (input: ConnectionInput) => Promise<boolean>;
  removeConnection: (id: string) => Promise<void>;
  connect: (target: ChannelInput<'inspector.connect'>['target'], label: string) => Promise<void>;
  reconnect: (label: string) => Promise<void>;
  /** The user agreed to start the program of {@link InspectorState.pendingProgram}. */
  startProgram: () => Promise<void>;
  /** The user declined: nothing is started. */
  declineProgram: () => void;
  cancel: (label: string) => Promise<void>;
  disconnect: (label: string) => Promise<void>;
  discover: (label: string, templateUris?: string[]) => Promise<void>;
  selectSkill: (key: string) => Promise<void>;
  setProfile: (profile: ProfileId | 'own') => Promise<void>;
  openFileAt: (uri: string, path: string) => Promise<void>;
  /** A `data:` URL for an image of the selected skill (path relative to its folder), read and verified on demand. */
  imageDataUrl: (path: string) => Promise<string | null>;
  closeFile: () => void;
  listDirectory: (uri: string, more?: boolean) => Promise<void>;
  verifyAll: () => Promise<void>;
  refresh: () => Promise<void>;
  runReport: (label: string) => Promise<void>;
  showLogEntry: (seq: number | null) => Promise<void>;
  exportLog: (filter: ChannelInput<'inspector.exportLog'>) => Promise<string | null>;
  /** Review the selected skill's verified files (the verdict shown before Save). */
  reviewSafety: () => Promise<void>;
  /**
   * Save the selected skill; `trust` is the user's "Trust anyway" for a skill the review calls
   * "Don't trust", `onConflict` their answer when the library already has the name.
   */
  saveToLibrary: (
    libraryRoot: string,
    options?: { trust?: TrustRequest; onConflict?: 'rename' | 'replace' },
  ) => Promise<void>;
  exportForUpload: () => Promise<void>;
  dismissMessage: () => void;
  /** A connection changed state (main's `inspector.changed`). */
  connectionChanged: (status: ConnectionStatus) => void;
  /** A protocol message went by (main's `inspector.logged`). */
  logged: (entry: ProtocolLogSummary) => void;
  /** One file of a skill was read and checked (main's `inspector.fileChecked`). */
  fileChecked: (key: string, verification: FileVerification) => void;
  /** A whole skill was verified (main's `inspector.verified`). */
  verified: (verification: SkillVerification) => void;
}

/** What the inspector store needs from outside. */
export interface InspectorDeps {
  api: ApiClient;
  /** A verified skill was saved into a library folder. */
  onLibraryChanged: () => Promise<void>;
}

/** How many protocol log rows the screen keeps (the full log stays in main and exports from there). */
export const LOG_LIMIT = 1000;

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const next = { ...record };
  delete next[key];
  return next;
}

function statusMap(files: readonly FileVerification[]): Record<string, FileVerification> {
  return Object.fromEntries(files.map((f) => [f.uri, f]));
}

/** The last segment of a URI path, for display. */
function lastSegment(uri: string): string {
  const trimmed = uri.endsWith('/') ? uri.slice(0, -1) : uri;
  return decodeURIComponent(trimmed.slice(trimmed.lastIndexOf('/') + 1));
}

/**
 * The command line a connection would start, or null when it starts no program (an HTTP or SSE
 * server, or a saved connection of those kinds).
 */
export function programOf(
  target: ChannelInput<'inspector.connect'>['target'],
  saved: readonly SavedConnection[],
): string | null {
  const stdio =
    'savedId' in target && target.savedId !== undefined
      ? saved.find((c) => c.id === target.savedId && c.kind === 'stdio')
      : 'kind' in target && target.kind === 'stdio'
        ? target
        : undefined;
  if (!stdio || !('command' in stdio) || !stdio.command) return null;
  return [stdio.command, ...(stdio.args ?? [])].join(' ');
}

/** What Save did, in words: where the skill went, and where a replaced copy is. */
export function savedWords(saved: Extract<SaveResult, { ok: true }>): string {
  const files = `${saved.files} verified files`;
  if (saved.renamedFrom === undefined && saved.trashedTo === undefined)
    return `Saved ${files} to ${saved.folder}.`;
  return `${keptWords('Saved', saved)} ${files} in ${saved.folder}.`;
}

/** Make an inspector store. */
export function createInspectorStore({ api, onLibraryChanged }: InspectorDeps) {
  return create<InspectorState>()((set, get) => {
    function setBusy(label: string, what: string | undefined): void {
      set({ busy: { ...get().busy, [label]: what } });
    }

    function report(error: ApiError): void {
      set({ message: { kind: 'error', text: error.message, detail: error.detail } });
    }

    async function reloadSkills(): Promise<void> {
      const result = await api['inspector.skills']({});
      if (result.ok) set({ skills: result.value.skills });
    }

    function forgetServer(label: string): void {
      const { selectedKey, skills } = get();
      const selectedHere =
        selectedKey !== null && skills.some((s) => s.key === selectedKey && s.server === label);
      set({
        statuses: without(get().statuses, label),
        discoveries: without(get().discoveries, label),
        skills: skills.filter((s) => s.server !== label),
        ...(selectedHere
          ? {
              selectedKey: null,
              view: null,
              viewState: 'idle',
              openFile: null,
              directory: null,
              verification: null,
              save: null,
              exported: null,
              safety: null,
              fileStatuses: {},
            }
          : {}),
      });
    }

    async function connected(label: string, result: Result<ConnectionStatus>): Promise<void> {
      if (!result.ok) {
        setBusy(label, undefined);
        set({ connectionErrors: { ...get().connectionErrors, [label]: result.error } });
        const current = get().statuses[label];
        if (current)
          set({
            statuses: {
              ...get().statuses,
              [label]: { ...current, state: 'failed', error: result.error.message },
            },
          });
        return;
      }
      set({
        statuses: { ...get().statuses, [label]: result.value },
        connectionErrors: without<ApiError | undefined>(get().connectionErrors, label),
      });
      setBusy(label, undefined);
      await get().discover(label);
    }

    /** What runs once the user agrees to start a program (see `pendingProgram`). */
    let waiting: (() => Promise<void>) | null = null;

    async function openConnection(
      target: ChannelInput<'inspector.connect'>['target'],
      label: string,
    ): Promise<void> {
      setBusy(label, 'Connecting…');
      set({
        connectionErrors: without<ApiError | undefined>(get().connectionErrors, label),
        statuses: {
          ...get().statuses,
          [label]: {
            label,
            state: 'connecting',
            kind: 'kind' in target ? target.kind : 'http',
            target: 'url' in target && target.url ? target.url : '',
            skillsExtension: false,
            directoryRead: false,
          },
        },
      });
      await connected(label, await api['inspector.connect']({ target }));
    }

    async function openAgain(label: string): Promise<void> {
      setBusy(label, 'Connecting again…');
      await connected(label, await api['inspector.reconnect']({ label }));
    }

    return {
      connections: [],
      secretsStored: false,
      statuses: {},
      busy: {},
      connectionErrors: {},
      discoveries: {},
      skills: [],
      selectedKey: null,
      profile: 'own',
      view: null,
      viewState: 'idle',
      fileStatuses: {},
      openFile: null,
      directory: null,
      verification: null,
      verifying: false,
      save: null,
      saving: false,
      safety: null,
      exported: null,
      reports: {},
      reporting: null,
      log: [],
      logDetail: null,
      message: null,
      pendingProgram: null,

      async loadConnections() {
        const [saved, status, log] = await Promise.all([
          api['inspector.connections']({}),
          api['inspector.status']({}),
          api['inspector.log']({ limit: 200 }),
        ]);
        if (saved.ok)
          set({ connections: saved.value.connections, secretsStored: saved.value.secretsStored });
        else report(saved.error);
        if (status.ok)
          set({ statuses: Object.fromEntries(status.value.connections.map((c) => [c.label, c])) });
        if (log.ok && get().log.length === 0)
          set({ log: log.value.entries.map(({ message: _message, ...summary }) => summary) });
        await reloadSkills();
      },

      async saveConnection(input) {
        const result = await api['inspector.saveConnection']({ connection: input });
        if (!result.ok) {
          report(result.error);
          return false;
        }
        set({ message: { kind: 'info', text: `Saved the connection “${result.value.label}”.` } });
        await get().loadConnections();
        return true;
      },

      async removeConnection(id) {
        const result = await api['inspector.removeConnection']({ id });
        if (!result.ok) report(result.error);
        await get().loadConnections();
      },

      async connect(target, label) {
        const program = programOf(target, get().connections);
        if (program !== null) {
          // Why ask here: starting a program is the one thing a connection does on this computer.
          waiting = () => openConnection(target, label);
          set({ pendingProgram: { label, commandLine: program } });
          return;
        }
        await openConnection(target, label);
      },

      async reconnect(label) {
        const status = get().statuses[label];
        if (status?.kind === 'stdio') {
          waiting = () => openAgain(label);
          set({ pendingProgram: { label, commandLine: status.target } });
          return;
        }
        await openAgain(label);
      },

      async startProgram() {
        const run = waiting;
        waiting = null;
        set({ pendingProgram: null });
        if (run) await run();
      },

      declineProgram() {
        waiting = null;
        set({ pendingProgram: null });
      },

      async cancel(label) {
        const result = await api['inspector.cancel']({ label });
        if (!result.ok) report(result.error);
      },

      async disconnect(label) {
        const result = await api['inspector.disconnect']({ label });
        if (!result.ok) report(result.error);
        forgetServer(label);
        setBusy(label, undefined);
        await reloadSkills();
      },

      async discover(label, templateUris) {
        setBusy(label, 'Looking for skills…');
        const result = await api['inspector.discover']({ label, templateUris });
        setBusy(label, undefined);
        if (!result.ok) {
          set({ connectionErrors: { ...get().connectionErrors, [label]: result.error } });
          return;
        }
        set({ discoveries: { ...get().discoveries, [label]: result.value } });
        // Why all servers: a new server can give an existing skill a same-named twin.
        await reloadSkills();
      },

      async selectSkill(key) {
        set({
          selectedKey: key,
          view: null,
          viewState: 'loading',
          openFile: null,
          directory: null,
          verification: null,
          save: null,
          exported: null,
          safety: null,
          fileStatuses: {},
        });
        const profile = get().profile;
        const result = await api['inspector.view'](profile === 'own' ? { key } : { key, profile });
        if (get().selectedKey !== key) return;
        if (!result.ok) {
          set({ viewState: 'failed' });
          report(result.error);
          return;
        }
        const statuses = await api['inspector.fileStatuses']({ key });
        if (get().selectedKey !== key) return;
        set({
          view: result.value,
          viewState: 'ready',
          fileStatuses: statuses.ok
            ? statusMap(statuses.value.files)
            : { [result.value.skillMd.verification.uri]: result.value.skillMd.verification },
        });
        await reloadSkills();
      },

      async setProfile(profile) {
        set({ profile });
        const key = get().selectedKey;
        if (key) await get().selectSkill(key);
      },

      async openFileAt(uri, path) {
        const key = get().selectedKey;
        if (!key) return;
        set({ openFile: { uri, path, read: null, state: 'loading' } });
        const result = await api['inspector.readFile']({ key, uri });
        if (get().openFile?.uri !== uri) return;
        if (!result.ok) {
          set({ openFile: { uri, path, read: null, state: 'failed' } });
          report(result.error);
          return;
        }
        set({
          openFile: { uri, path, read: result.value, state: 'ready' },
          fileStatuses: { ...get().fileStatuses, [uri]: result.value.verification },
        });
      },

      async imageDataUrl(path) {
        const { selectedKey: key, view } = get();
        const listed =
          view && Array.isArray(view.skill.manifest)
            ? view.skill.manifest.find((f) => f.path === path)
            : undefined;
        // Why listed files only: a host reads only URIs in the skill's manifest (the Skills extension, SEP-2640).
        if (!key || !listed) return null;
        const result = await api['inspector.readFile']({ key, uri: listed.uri });
        if (!result.ok) return null;
        set({ fileStatuses: { ...get().fileStatuses, [listed.uri]: result.value.verification } });
        const content = result.value.content;
        return content?.base64 !== undefined && content.mimeType?.startsWith('image/')
          ? `data:${content.mimeType};base64,${content.base64}`
          : null;
      },

      closeFile() {
        set({ openFile: null });
      },

      async listDirectory(uri, more = false) {
        const key = get().selectedKey;
        if (!key) return;
        const previous = more && get().directory?.uri === uri ? get().directory : null;
        set({
          directory: {
            uri,
            entries: previous?.entries ?? [],
            nextCursor: previous?.nextCursor,
            state: 'loading',
          },
        });
        const result = await api['inspector.readDirectory']({
          key,
          uri,
          cursor: previous?.nextCursor,
        });
        if (get().directory?.uri !== uri) return;
        if (!result.ok) {
          set({ directory: previous ? { ...previous, state: 'ready' } : null });
          report(result.error);
          return;
        }
        const mime = new Map(result.value.resources.map((r) => [r.uri, r.mimeType]));
        const page = result.value.entries.map((e) => ({
          ...e,
          mimeType: mime.get(e.uri),
          name: lastSegment(e.uri),
        }));
        set({
          directory: {
            uri,
            entries: [...(previous?.entries ?? []), ...page],
            nextCursor: result.value.nextCursor,
            state: 'ready',
          },
        });
      },

      async verifyAll() {
        const key = get().selectedKey;
        if (!key) return;
        set({ verifying: true });
        const result = await api['inspector.verify']({ key });
        set({ verifying: false });
        if (get().selectedKey !== key) return;
        if (!result.ok) {
          report(result.error);
          return;
        }
        const tree = await api['inspector.tree']({ key });
        if (get().selectedKey !== key) return;
        const view = get().view;
        set({
          verification: result.value,
          fileStatuses: { ...get().fileStatuses, ...statusMap(result.value.files) },
          ...(tree.ok && view ? { view: { ...view, tree: tree.value } } : {}),
        });
      },

      async refresh() {
        const key = get().selectedKey;
        if (!key) return;
        const result = await api['inspector.refresh']({ key });
        if (!result.ok) {
          report(result.error);
          return;
        }
        set({
          message: {
            kind: 'info',
            text: 'Fetched the skill’s entry again; every file will be checked again when read.',
          },
        });
        await get().selectSkill(key);
      },

      async runReport(label) {
        set({ reporting: label });
        setBusy(label, 'Checking the server against the Skills extension…');
        const result = await api['inspector.report']({ label });
        setBusy(label, undefined);
        set({ reporting: null });
        if (!result.ok) {
          report(result.error);
          return;
        }
        set({ reports: { ...get().reports, [label]: result.value } });
      },

      async showLogEntry(seq) {
        if (seq === null) {
          set({ logDetail: null });
          return;
        }
        const result = await api['inspector.log']({ seq });
        if (!result.ok) report(result.error);
        else set({ logDetail: result.value.entries[0] ?? null });
      },

      async exportLog(filter) {
        const result = await api['inspector.exportLog'](filter);
        if (result.ok) return result.value.json;
        report(result.error);
        return null;
      },

      async reviewSafety() {
        const key = get().selectedKey;
        if (!key) return;
        const result = await api['inspector.review']({ key });
        if (get().selectedKey !== key) return;
        // Why no banner on failure: Save reviews again and says why it refuses.
        set({ safety: result.ok ? result.value : null });
      },

      async saveToLibrary(libraryRoot, { trust, onConflict } = {}) {
        const key = get().selectedKey;
        if (!key) return;
        set({ saving: true, save: null });
        const result = await api['inspector.saveToLibrary']({
          key,
          libraryRoot,
          ...(trust ? { trust } : {}),
          ...(onConflict ? { onConflict } : {}),
        });
        set({ saving: false });
        if (!result.ok) {
          report(result.error);
          return;
        }
        set({ save: result.value });
        if (!result.value.ok && result.value.safety && get().selectedKey === key)
          set({ safety: result.value.safety });
        if (result.value.ok) {
          set({
            message: {
              kind: 'info',
              text: savedWords(result.value),
            },
          });
          await onLibraryChanged();
        }
        const statuses = await api['inspector.fileStatuses']({ key });
        if (statuses.ok && get().selectedKey === key)
          set({ fileStatuses: { ...get().fileStatuses, ...statusMap(statuses.value.files) } });
      },

      async exportForUpload() {
        const key = get().selectedKey;
        if (!key) return;
        set({ saving: true, exported: null });
        const result = await api['inspector.exportForUpload']({ key });
        set({ saving: false });
        if (!result.ok) report(result.error);
        else set({ exported: result.value });
      },

      dismissMessage() {
        set({ message: null });
      },

      connectionChanged(status) {
        if (status.state === 'disconnected') {
          // A connection replaced by one with the same label says goodbye first; keep the new one.
          if (get().busy[status.label] === undefined) forgetServer(status.label);
          return;
        }
        set({ statuses: { ...get().statuses, [status.label]: status } });
      },

      logged(entry) {
        set({ log: [...get().log, entry].slice(-LOG_LIMIT) });
      },

      fileChecked(key, verification) {
        if (key === get().selectedKey)
          set({ fileStatuses: { ...get().fileStatuses, [verification.uri]: verification } });
      },

      verified(verification) {
        if (verification.key === get().selectedKey) set({ verification });
      },
    };
  });
}
