import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Skillbench keeps settings, drafts and its trash: the same folder Electron's
 * `app.getPath('userData')` uses for "Skillbench", so both shells share it.
 * `SKILLBENCH_USER_DATA` overrides it (tests use a temp folder).
 */
export function defaultUserDataDir(env: Record<string, string | undefined> = process.env): string {
  if (env.SKILLBENCH_USER_DATA) return env.SKILLBENCH_USER_DATA;
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Skillbench');
  if (process.platform === 'darwin')
    return join(home, 'Library', 'Application Support', 'Skillbench');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Skillbench');
}
