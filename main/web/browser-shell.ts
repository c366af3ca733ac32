import { createApiHandlers } from '../api/handlers';
import { LibraryService } from '../library/library-service';
import { startWebHost, type WebHost } from './host';

/** Options for {@link startBrowserShell}. */
export interface BrowserShellOptions {
  rendererDir: string;
  version: string;
  port?: number;
  token?: string;
}

/** A running browser shell: the host plus the services behind it. */
export interface BrowserShell {
  host: WebHost;
  library: LibraryService;
}

/** Compose the real services behind the browser-shell host (the same ones Electron uses). */
export async function startBrowserShell(options: BrowserShellOptions): Promise<BrowserShell> {
  const pending: { host?: WebHost } = {};
  const library = new LibraryService((event, payload) => pending.host?.emit(event, payload));
  const handlers = createApiHandlers({ shell: 'browser', version: options.version, library });
  const host = await startWebHost({ handlers, rendererDir: options.rendererDir, port: options.port, token: options.token });
  pending.host = host;
  return { host, library };
}
