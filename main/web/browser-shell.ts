import type { AgentEnv } from '../agents/paths';
import { createDispatch } from '../api/dispatch';
import { createApiHandlers } from '../api/handlers';
import { createServices, type Services } from '../api/services';
import type { CliLaunch } from '../platform/cli-launch';
import { defaultUserDataDir } from '../platform/user-data';
import { sharedWorkers } from '../platform/worker-pool';
import { startWebHost, type WebHost } from './host';

/** Options for {@link startBrowserShell}. */
export interface BrowserShellOptions {
  rendererDir: string;
  version: string;
  port?: number;
  token?: string;
  /** Settings, drafts and trash; defaults to the same folder the Electron app uses. */
  userDataDir?: string;
  /** How MCP clients start our CLI, for the server panel's copy-ready setup (main/platform/cli-launch.ts). */
  cliLaunch?: CliLaunch;
  /** Where agent folders are looked for (tests point it at a temp home). */
  agentEnv?: AgentEnv;
}

/** A running browser shell: the host plus the services behind it. */
export interface BrowserShell {
  host: WebHost;
  services: Services;
  close(): Promise<void>;
}

/** Compose the real services behind the browser-shell host (the same ones Electron uses). */
export async function startBrowserShell(options: BrowserShellOptions): Promise<BrowserShell> {
  // Why warm: the validation workers (when the CLI bundle named them) load while the browser opens the page.
  sharedWorkers()?.warm();
  const pending: { host?: WebHost } = {};
  const services = createServices(
    options.userDataDir ?? defaultUserDataDir(),
    (event, payload) => pending.host?.emit(event, payload),
    {
      cliLaunch: options.cliLaunch,
      ...(options.agentEnv ? { agentEnv: options.agentEnv } : {}),
    },
  );
  // Why now: the remembered libraries are listed while the browser loads the page, which then finds the work under way.
  void services.library.prefetch();
  const handlers = createApiHandlers({ shell: 'browser', version: options.version, ...services });
  const dispatch = createDispatch(handlers, (channel, error) =>
    console.error(`Skillbench: ${channel} failed:`, error),
  );
  let host: WebHost;
  try {
    host = await startWebHost({
      dispatch,
      rendererDir: options.rendererDir,
      port: options.port,
      token: options.token,
    });
  } catch (error) {
    // Why: the services already watch folders; left running, they would keep the process alive
    // after the plain-words failure (a busy port) was printed.
    await services.dispose();
    throw error;
  }
  pending.host = host;
  return {
    host,
    services,
    async close() {
      // Why this order: no request is taken once closing begins, and the work already under way
      // (an update writing an agent's folder, its lock file and merge base) ends before the
      // caller goes on (and may remove the folders it writes). Disposing meanwhile ends what
      // waits on a connection (the inspector's), so nothing waits for a slow server.
      await host.close();
      await Promise.all([dispatch.settle(), services.dispose()]);
    },
  };
}
