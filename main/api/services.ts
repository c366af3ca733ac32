import { join } from 'node:path';
import { SkillManager } from '../agents/manager';
import { allAgentSkillDirs, processAgentEnv, type AgentEnv } from '../agents/paths';
import { InspectorService, type OpenBrowser } from '../inspector';
import { DraftStore } from '../library/drafts';
import { LibraryService } from '../library/library-service';
import { BUILD_ID, ListingCache } from '../library/listing-cache';
import { SecretStore, type SecretBox } from '../library/secret-store';
import { SettingsStore } from '../library/settings-store';
import type { CliLaunch } from '../platform/cli-launch';
import { SkillFiles } from '../library/skill-files';
import { LibraryReviews } from '../safety/library-reviews';
import { ServerController, type Emit } from './server-controller';

/**
 * Which build made cached findings (set by scripts/build.mjs per build; `source` when run from
 * source, as in tests). Why per build: a changed rule must not be answered from an old cache.
 */

/** The services behind the contract, the same in both shells. */
export interface Services {
  /** Settings, drafts, trash, secrets and uploads live here. */
  userDataDir: string;
  settings: SettingsStore;
  library: LibraryService;
  files: SkillFiles;
  drafts: DraftStore;
  secrets: SecretStore;
  /** Verified copies outside the library (the inspector's "Export for upload") that the exporter may read. */
  exportable: Set<string>;
  server: ServerController;
  /** Remote skill servers: connections, discovery, verification, report card, protocol log. */
  inspector: InspectorService;
  /** The skill manager: agents, installs, links, updates, removals. */
  agents: SkillManager;
  /** The home folder and variables agent folders are found with. */
  agentEnv: AgentEnv;
  /** The library's safety reviews, kept while a skill's files stay the same (badges, agent view). */
  safety: LibraryReviews;
  dispose(): Promise<void>;
}

/** Options for {@link createServices}. */
export interface ServiceOptions {
  /** Moves a path to the OS trash (Electron's shell.trashItem); absent in the browser shell. */
  osTrash?: (path: string) => Promise<void>;
  /** Seals secrets with the OS keychain (Electron safeStorage); null in the browser shell. */
  secretBox?: SecretBox | null;
  /** How a client starts this installation's CLI, for the copy-ready client setup (main/platform/cli-launch.ts). */
  cliLaunch?: CliLaunch;
  /** Opens an OAuth consent page in the user's browser (Electron: `shell.openExternal`); without it OAuth is off. */
  openBrowser?: OpenBrowser;
  /** The home folder and variables agent folders are found with (default: this process's). */
  agentEnv?: AgentEnv;
}

/** Compose the services over one user-data folder (settings, drafts, trash and secrets live there). */
export function createServices(
  userDataDir: string,
  emit: Emit,
  options: ServiceOptions = {},
): Services {
  const settings = new SettingsStore(userDataDir);
  const secrets = new SecretStore(userDataDir, options.secretBox ?? null);
  const agentEnv = options.agentEnv ?? processAgentEnv();
  // Why late-bound: the agents service is made below, and asked only when the server builds.
  const agentRoots = async (): Promise<string[]> =>
    allAgentSkillDirs(agentEnv, await agents.projects());
  const server = new ServerController(
    settings,
    secrets,
    emit,
    options.cliLaunch,
    agentRoots,
    userDataDir,
    agentEnv,
  );
  const library = new LibraryService(
    settings,
    emit,
    new ListingCache(join(userDataDir, 'cache', 'listings'), BUILD_ID),
  );
  // Why: the list follows skills added, edited or removed outside the app, as the server does.
  // Why caught: without it the list still works, it only does not follow the disk by itself.
  library.followDisk({ quietInside: [userDataDir] }).catch(() => undefined);
  const files = new SkillFiles(join(userDataDir, 'trash'), options.osTrash);
  const agents = new SkillManager({
    env: agentEnv,
    dataDir: userDataDir,
    trashDir: join(userDataDir, 'trash'),
    libraryRoots: () => library.roots(),
    // Why late-bound: the inspector is made below; skills installed from a server are checked through it.
    remote: {
      remoteListing: (source) => inspector.remoteListing(source),
      remoteFiles: (source) => inspector.remoteFiles(source),
    },
  });
  library.setLinkRoots(agentRoots);
  const inspector = new InspectorService({
    dataDir: userDataDir,
    trashDir: join(userDataDir, 'trash'),
    secretBox: options.secretBox ?? undefined,
    openBrowser: options.openBrowser,
  });
  inspector.on('status', (status) => emit('inspector.changed', status));
  // Why without the message: a file read's answer can be 64 KiB; the renderer fetches one on demand.
  inspector.on('log', ({ message: _message, ...summary }) => emit('inspector.logged', summary));
  inspector.on('discovered', (result) => emit('inspector.discovered', result));
  inspector.on('file', (file) => emit('inspector.fileChecked', file));
  inspector.on('verified', (verification) => emit('inspector.verified', verification));
  return {
    userDataDir,
    settings,
    library,
    files,
    drafts: new DraftStore(join(userDataDir, 'drafts')),
    secrets,
    exportable: new Set<string>(),
    server,
    inspector,
    agents,
    agentEnv,
    safety: new LibraryReviews(userDataDir),
    async dispose() {
      await files.settle();
      await library.closeCache();
      library.dispose();
      await server.dispose();
      await inspector.close();
    },
  };
}

/** What the handlers need from the shell they run in. */
export interface ApiDeps extends Services {
  shell: 'electron' | 'browser';
  version: string;
  /** The native folder dialog; absent in the browser shell. */
  pickFolder?: (title?: string) => Promise<string | null>;
  /** Show a file in the system's file manager; absent in the browser shell. */
  revealPath?: (path: string) => void;
}
