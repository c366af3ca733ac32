import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Chromium flags for a closed network and no GPU (the machine's notes: without them Chromium keeps dialling out). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--no-first-run',
];

/** The system Chromium found on the PATH (Playwright's own browser download cannot happen here). */
export function findChromium(): string {
  const fromEnv = process.env.SKILLBENCH_CHROMIUM;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  throw new Error(
    'No Chromium on the PATH. Install it (Debian: apt-get install -y chromium) or set SKILLBENCH_CHROMIUM.',
  );
}

/** Is the Electron runtime downloaded? (Electron ≥ 42 fetches it on first start.) */
export function electronRuntimePath(root: string): string | null {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  const binary = join(root, 'node_modules', 'electron', 'dist', relative);
  return existsSync(binary) ? binary : null;
}
