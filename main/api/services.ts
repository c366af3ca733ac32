import { join } from 'node:path';
import { DraftStore } from '../library/drafts';
import { LibraryService, type LibraryEmitter } from '../library/library-service';
import { SettingsStore } from '../library/settings-store';
import { SkillFiles } from '../library/skill-files';

/** The services behind the contract, the same in both shells. */
export interface Services {
  settings: SettingsStore;
  library: LibraryService;
  files: SkillFiles;
  drafts: DraftStore;
}

/** Compose the services over one user-data folder (settings, drafts and trash live there). */
export function createServices(userDataDir: string, emit: LibraryEmitter): Services {
  const settings = new SettingsStore(userDataDir);
  return {
    settings,
    library: new LibraryService(settings, emit),
    files: new SkillFiles(join(userDataDir, 'trash')),
    drafts: new DraftStore(join(userDataDir, 'drafts')),
  };
}
