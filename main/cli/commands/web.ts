import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cliLaunch } from '../../platform/cli-launch';
import { sharedWorkers } from '../../platform/worker-pool';
import { startBrowserShell } from '../../web/browser-shell';
import { bundleDir } from '../support/bundle-location';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { type CliCommand } from '../support/types';
import { parsePort } from '../support/words';

const USAGE = `Usage: skillbench web [--port N] [--renderer-dir DIR] [--reason TEXT]

Serve the Skillbench window to your browser at http://127.0.0.1 (loopback only), with a
random access token in the printed address. Stop it with Ctrl+C.

  --port N           listen on port N (default: a free port)
  --renderer-dir DIR the built UI (default: out/renderer beside the CLI)
  --user-data DIR    settings, unsaved drafts and trash (default: the app's user-data folder)
  --reason TEXT      a line explaining why the browser shell is used (npm start passes it)
`;

/** The built renderer beside the bundled CLI (out/main/cli.js → out/renderer). */
function defaultRendererDir(): string {
  return join(bundleDir(), '..', 'renderer');
}

/** `skillbench web` — start the browser shell. */
export const webCommand: CliCommand = {
  name: 'web',
  usage: USAGE,
  async run(args, raw) {
    const io = terminalIO(raw);
    const { values } = readCommandLine(
      'web',
      args,
      {
        port: { type: 'string' },
        'renderer-dir': { type: 'string' },
        'user-data': { type: 'string' },
        reason: { type: 'string' },
      },
      { positionals: false },
    );
    const port = values.port === undefined ? 0 : parsePort(values.port);
    const rendererDir = values['renderer-dir'] ?? defaultRendererDir();
    if (!existsSync(join(rendererDir, 'index.html'))) {
      io.stderr(
        `The Skillbench window is not built yet (no ${join(rendererDir, 'index.html')}). Run \`npm run build\` first.\n`,
      );
      return 2;
    }
    const shell = await startBrowserShell({
      rendererDir,
      port,
      version: process.env.SKILLBENCH_VERSION ?? '0.1.0',
      userDataDir: values['user-data'],
      cliLaunch: cliLaunch(bundleDir()),
    });
    // Why the handlers before the address is printed: whoever stops us as soon as it appears
    // (a person at once, a supervisor, a test) must get a clean stop, not the default kill.
    // Why `on`, not `once`: a second signal while shutting down must not fall back to the default kill.
    const stopped = new Promise<void>((resolveStop) => {
      const stop = () => resolveStop();
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    if (values.reason) io.stdout(term`${values.reason}\n`);
    io.stdout(
      `Skillbench is running in your browser at:\n\n  ${shell.host.url}\n\nOpen that address (it carries this session's access token). Press Ctrl+C to stop.\n`,
    );
    await stopped;
    await shell.close();
    // Why: the worker threads started for the window would keep the process alive after Ctrl+C.
    await sharedWorkers()?.close();
    return 0;
  },
};
