// `npm start`: build what is missing, then open the Electron window when its runtime is
// present (or can be fetched); otherwise serve the same UI in the browser shell and say why.
// `npm run web` (--web) goes straight to the browser shell.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webOnly = process.argv.includes('--web');
const passThrough = process.argv.slice(2).filter((a) => a !== '--web');

/** Newest modification time under the source folders, to rebuild only when something changed. */
function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const folder of ['main', 'preload', 'renderer', 'shared']) walk(join(root, folder));
  return newest;
}

function ensureBuilt() {
  const outputs = [
    'out/main/cli.js',
    'out/main/electron.cjs',
    'out/preload/index.cjs',
    'out/renderer/index.html',
  ].map((p) => join(root, p));
  const built = outputs.every((p) => existsSync(p));
  const stale = built && Math.min(...outputs.map((p) => statSync(p).mtimeMs)) < newestSource();
  if (built && !stale) return;
  console.log(
    built
      ? 'Sources changed since the last build; rebuilding…'
      : 'Building Skillbench (first start)…',
  );
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Where the Electron runtime is, or why there is none. */
function electronRuntime() {
  const pkg = join(root, 'node_modules', 'electron');
  if (!existsSync(pkg))
    return { reason: 'the electron package is not installed (run npm install)' };
  const pathFile = join(pkg, 'path.txt');
  const binary = () =>
    existsSync(pathFile) ? join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim()) : null;
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    return {
      binary: join(
        process.env.ELECTRON_OVERRIDE_DIST_PATH,
        existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron',
      ),
    };
  }
  const present = binary();
  if (present && existsSync(present)) return { binary: present };
  // Why: Electron ≥ 42 fetches its runtime on first start, not at npm install.
  console.log('Fetching the Electron runtime (first start)…');
  const fetched = spawnSync(process.execPath, [join(pkg, 'install.js')], {
    cwd: pkg,
    encoding: 'utf8',
    timeout: 180_000,
  });
  const after = binary();
  if (fetched.status === 0 && after && existsSync(after)) return { binary: after };
  const output = `${fetched.stderr ?? ''}\n${fetched.stdout ?? ''}`
    .split('\n')
    .map((l) => l.trim());
  const why =
    output.find((l) => /error/i.test(l) && !l.startsWith('at ')) ??
    fetched.error?.message ??
    'no network access to the download site';
  return {
    reason: `the Electron runtime is not installed and could not be downloaded here (${why})`,
  };
}

function hasDisplay() {
  return (
    process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
  );
}

function startBrowserShell(reason) {
  const args = [join(root, 'main', 'cli', 'skillbench.mjs'), 'web', ...passThrough];
  if (reason)
    args.push(
      '--reason',
      `The Electron window is not used because ${reason}. Serving the same Skillbench in your browser instead.`,
    );
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}

ensureBuilt();
if (webOnly) {
  startBrowserShell(null);
} else {
  const runtime = electronRuntime();
  if (runtime.binary && !hasDisplay()) {
    startBrowserShell('this machine has no display (DISPLAY is not set)');
  } else if (runtime.binary) {
    const child = spawn(
      runtime.binary,
      [join(root, 'out', 'main', 'electron.cjs'), ...passThrough],
      { cwd: root, stdio: 'inherit' },
    );
    child.on('exit', (code) => process.exit(code ?? 0));
  } else {
    startBrowserShell(runtime.reason);
  }
}
