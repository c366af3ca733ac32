// `npm start`: build what is missing, then open the Electron window when its runtime is
// present (or can be fetched); otherwise serve the same UI in the browser shell and say why.
// `npm run web` (--web) goes straight to the browser shell.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webOnly = process.argv.includes('--web');
const fetchAgain = process.argv.includes('--fetch-electron');
const passThrough = process.argv.slice(2).filter((a) => a !== '--web' && a !== '--fetch-electron');
/** Where a failed download of the Electron runtime is remembered, so the next start does not wait for it again. */
const fetchFailedMarker = join(root, 'out', '.electron-runtime-unavailable.json');
/** How long a failed download is remembered before `npm start` tries again by itself. */
const RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** Whether this Node.js can run the Electron tooling (electron ≥ 42 and its helpers need 22.12). */
function nodeRunsElectron() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

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
  if (!nodeRunsElectron())
    return {
      reason: `the Electron window needs Node.js 22.12 or later and this is Node.js ${process.versions.node} (the browser shell, the command line and the tests run on Node.js 20.19 or later)`,
    };
  // Why remember a failure: a machine that cannot reach the download site should not wait for it at every start.
  if (!fetchAgain && existsSync(fetchFailedMarker)) {
    try {
      const last = JSON.parse(readFileSync(fetchFailedMarker, 'utf8'));
      if (Date.now() - Date.parse(last.at) < RETRY_AFTER_MS)
        return {
          reason: `the Electron runtime could not be downloaded on ${last.at} (${last.why}); \`npm start -- --fetch-electron\` tries again`,
        };
    } catch {
      // Why: a damaged marker is simply ignored and the download tried again.
    }
  }
  // Why: Electron ≥ 42 fetches its runtime on its first start, not at npm install.
  console.log('Fetching the Electron runtime (once; it is kept for later starts)…');
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
  try {
    mkdirSync(dirname(fetchFailedMarker), { recursive: true });
    writeFileSync(fetchFailedMarker, JSON.stringify({ at: new Date().toISOString(), why }));
  } catch {
    // Why: without the marker the next start only tries the download again.
  }
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
      `Opening Skillbench in your browser instead of its own window: ${reason}.`,
    );
  follow(spawn(process.execPath, args, { cwd: root, stdio: 'inherit' }));
}

/**
 * Pass Ctrl+C and a stop request on to the child and end with it. Why: a SIGTERM sent to this
 * process alone (a supervisor, `kill`) would otherwise leave the window's server running.
 */
function follow(child) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal);
    });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

ensureBuilt();
if (webOnly) {
  startBrowserShell(null);
} else {
  const runtime = electronRuntime();
  if (runtime.binary && !hasDisplay()) {
    startBrowserShell('this machine has no display (DISPLAY is not set)');
  } else if (runtime.binary) {
    follow(
      spawn(runtime.binary, [join(root, 'out', 'main', 'electron.cjs'), ...passThrough], {
        cwd: root,
        stdio: 'inherit',
      }),
    );
  } else {
    startBrowserShell(runtime.reason);
  }
}
