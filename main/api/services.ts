import { join } from 'node:path';
import { DraftStore } from '../library/drafts';
import { LibraryService } from '../library/library-service';
import { SecretStore, type SecretBox } from '../library/secret-store';
import { SettingsStore } from '../library/settings-store';
import { SkillFiles } from '../library/skill-files';
import { ServerController, type Emit } from './server-controller';

/** The services behind the contract, the same in both shells. */
export interface Services {
  /** Settings, drafts, trash, secrets and uploads live here. */
  userDataDir: string;
  settings: SettingsStore;
  library: LibraryService;
  files: SkillFiles;
  drafts: DraftStore;
  secrets: SecretStore;
  server: ServerController;
  dispose(): Promise<void>;
}

/** Options for {@link createServices}. */
export interface ServiceOptions {
  /** Seals secrets with the OS keychain (Electron safeStorage); null in the browser shell. */
  secretBox?: SecretBox | null;
  /** How users start the CLI, for the copy-ready client setup. */
  cliCommand?: readonly string[];
}

/** Compose the services over one user-data folder (settings, drafts, trash and secrets live there). */
export function createServices(userDataDir: string, emit: Emit, options: ServiceOptions = {}): Services {
  const settings = new SettingsStore(userDataDir);
  const secrets = new SecretStore(userDataDir, options.secretBox ?? null);
  const server = new ServerController(settings, secrets, emit, options.cliCommand);
  const library = new LibraryService(settings, emit);
  return {
    userDataDir,
    settings,
    library,
    files: new SkillFiles(join(userDataDir, 'trash')),
    drafts: new DraftStore(join(userDataDir, 'drafts')),
    secrets,
    server,
    async dispose() {
      library.dispose();
      await server.dispose();
    },
  };
}
