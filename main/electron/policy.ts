import type { BrowserWindowConstructorOptions } from 'electron';
import { resolveStaticFile } from '../security/static-path';

/** The privileged scheme the UI is served from (never file://, which grants the whole disk). */
export const APP_SCHEME = 'app';
/** The UI's one origin. */
export const APP_ORIGIN = 'app://skillbench';

/** Hosts `openExternal` may open: documentation the app links to. Anything else is refused. */
export const EXTERNAL_ALLOWLIST: readonly string[] = [
  'agentskills.io',
  'docs.claude.com',
  'docs.anthropic.com',
  'support.claude.com',
  'modelcontextprotocol.io',
  'github.com',
];

/**
 * The main window's options. Why each: Electron's security checklist — isolate the preload
 * from the page (contextIsolation), run the renderer in the OS sandbox (sandbox), never give
 * the page Node (nodeIntegration off, also in workers and subframes), keep same-origin policy
 * (webSecurity), and no <webview> tags.
 */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 500,
    show: false,
    title: 'Skillbench',
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      spellcheck: true,
    },
  };
}

/** May the window navigate to `url`? Only within our own app:// origin (Electron checklist 13). */
export function isAllowedNavigation(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === 'skillbench';
  } catch {
    return false;
  }
}

/** May `shell.openExternal(url)` be called? Only https: to allow-listed hosts (Electron checklist 15). */
export function isAllowedExternal(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '')
      return false;
    const host = parsed.hostname.toLowerCase();
    return EXTERNAL_ALLOWLIST.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
  } catch {
    return false;
  }
}

/** Is an IPC message from our own top frame? (VS Code's validated IPC: check the sender first.) */
export function isTrustedSender(frameUrl: string | undefined, isTopFrame: boolean): boolean {
  return isTopFrame && frameUrl !== undefined && isAllowedNavigation(frameUrl);
}

/** Map an app:// URL to a file in the renderer build, or null when it would leave it. */
export function resolveAppAsset(rendererDir: string, url: string): string | null {
  let pathname: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== 'skillbench') return null;
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  return resolveStaticFile(rendererDir, pathname);
}
