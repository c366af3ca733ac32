/**
 * How another program (an MCP client such as Claude Desktop, Cursor or VS Code) starts this
 * installation's `skillbench` command: the one place that decides it, for both shells.
 *
 * Why absolute paths and no `npx skillbench`: the package is not on the npm registry, so
 * `npx skillbench` outside this project either fails or, were anyone to publish a package under
 * that name, runs their code with the user's rights. A client also starts its servers with a PATH
 * of its own (Claude Desktop on macOS gets the system's, without nvm's or Homebrew's node), so even
 * `node` is not given by name: the program is the one running Skillbench now.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** A command line another program can run: the program, its arguments and what to add to its environment. */
export interface CliLaunch {
  command: string;
  args: readonly string[];
  /** Variables the program needs on top of the environment it inherits. */
  env?: Readonly<Record<string, string>>;
}

/** What {@link cliLaunch} looks at; the defaults are this process's. */
export interface CliLaunchRuntime {
  /** The running program: node, or the Electron executable. */
  execPath: string;
  /** Whether the running program is Electron (which runs scripts as Node with ELECTRON_RUN_AS_NODE=1). */
  electron: boolean;
  /** The AppImage file the app runs from (Electron sets APPIMAGE), if it does. */
  appImage?: string;
  exists: (path: string) => boolean;
}

const thisProcess = (): CliLaunchRuntime => ({
  execPath: process.execPath,
  electron: typeof process.versions.electron === 'string',
  appImage: typeof process.versions.electron === 'string' ? process.env.APPIMAGE : undefined,
  exists: existsSync,
});

/**
 * The command that runs the CLI bundle `cli.js` in `bundleDir` (out/main), or undefined when
 * there is none to run. Inside a packaged app the bundle folder is in `app.asar`, which only
 * Electron can read; the CLI is unpacked beside it (electron-builder.yml `asarUnpack`), so its
 * path is the unpacked one. Electron runs it as Node with `ELECTRON_RUN_AS_NODE=1`, so the
 * desktop app needs no Node installed. An AppImage has none to give: it mounts itself at a new
 * temporary folder each time it starts, so a path into it stops working when the app quits.
 */
export function cliLaunch(
  bundleDir: string,
  runtime: CliLaunchRuntime = thisProcess(),
): CliLaunch | undefined {
  if (runtime.appImage) return undefined;
  const cli = join(bundleDir.replace(/app\.asar([\\/]|$)/, 'app.asar.unpacked$1'), 'cli.js');
  if (!runtime.exists(cli)) return undefined;
  return runtime.electron
    ? { command: runtime.execPath, args: [cli], env: { ELECTRON_RUN_AS_NODE: '1' } }
    : { command: runtime.execPath, args: [cli] };
}
