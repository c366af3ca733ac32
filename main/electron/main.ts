import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  net,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  EVENT_NAMES,
  IPC_PREFIX,
  type EventName,
  type EventPayload,
} from '../../shared/ipc/contract';
import { createDispatch } from '../api/dispatch';
import { createApiHandlers } from '../api/handlers';
import { createServices } from '../api/services';
import { cliLaunch } from '../platform/cli-launch';
import { defaultUserDataDir } from '../platform/user-data';
import { useBuiltWorkers } from '../platform/worker-pool';
import { SECURITY_HEADERS } from '../security/csp';
import {
  APP_ORIGIN,
  APP_SCHEME,
  isAllowedExternal,
  isAllowedNavigation,
  mainWindowOptions,
  resolveAppAsset,
} from './policy';
import { registerIpcHandlers } from './registrar';

// Why: app:// must be standard + secure before ready so it gets an origin, fetch and a CSP
// like https (Electron docs, protocol.registerSchemesAsPrivileged).
protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
  },
]);

const rendererDir = join(__dirname, '..', 'renderer');
const preloadPath = join(__dirname, '..', 'preload', 'index.cjs');
let mainWindow: BrowserWindow | null = null;

function send<K extends EventName>(event: K, payload: EventPayload<K>): void {
  if (!EVENT_NAMES.includes(event)) return;
  mainWindow?.webContents.send(`${IPC_PREFIX}event`, event, payload);
}

function createWindow(): void {
  mainWindow = new BrowserWindow(mainWindowOptions(preloadPath));
  const contents = mainWindow.webContents;
  // Why: deny navigation away from the app, new windows and <webview> (Electron security checklist 12-14).
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // Why: the page asks (beforeunload) when it has unsaved changes; Electron needs us to show the question.
  contents.on('will-prevent-unload', (event) => {
    if (!mainWindow) return;
    const choice = dialog.showMessageBoxSync(mainWindow, {
      type: 'question',
      buttons: ['Close without saving', 'Keep editing'],
      defaultId: 1,
      cancelId: 1,
      title: 'Unsaved changes',
      message: 'You have unsaved changes.',
      detail: 'They are also kept as a draft and offered back the next time you open Skillbench.',
    });
    if (choice === 0) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternal(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  mainWindow.once('ready-to-show', () => mainWindow?.show());
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  void mainWindow.loadURL(`${APP_ORIGIN}/index.html`);
}

// Why here, before the lock: the lock lives in userData, and both shells share settings, drafts and trash.
app.setPath('userData', defaultUserDataDir());

// Why: a second instance would race the first on the same files and settings.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });

  void app.whenReady().then(() => {
    // Why: the UI asks for no permission (camera, notifications, ...); deny every request and check.
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
      callback(false),
    );
    session.defaultSession.setPermissionCheckHandler(() => false);

    protocol.handle(APP_SCHEME, async (request) => {
      const file = resolveAppAsset(rendererDir, request.url);
      if (!file) return new Response('Not found', { status: 404 });
      const response = await net.fetch(pathToFileURL(file).toString());
      const headers = new Headers(response.headers);
      for (const [key, value] of Object.entries(SECURITY_HEADERS)) headers.set(key, value);
      return new Response(response.body, { status: response.status, headers });
    });

    // Why safeStorage: secrets (the server token) are sealed with the OS keychain, never plain text.
    const secretBox = safeStorage.isEncryptionAvailable()
      ? {
          encrypt: (plain: string) => safeStorage.encryptString(plain).toString('base64'),
          decrypt: (sealed: string) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
        }
      : null;
    // Why openExternal for OAuth: consent belongs in the user's own browser (OAuth 2.1 for native apps,
    // RFC 8252 §8.12), never in our window; only https: pages are opened, so a hostile server cannot
    // make us launch file:, custom-scheme or plain-http URLs.
    const openBrowser = async (url: string): Promise<void> => {
      if (new URL(url).protocol !== 'https:')
        throw new Error(`The sign-in page ${url} is not an https: address, so it was not opened.`);
      await shell.openExternal(url);
    };
    // Why warm: the workers load while the window does, so the first library listing does not wait for them.
    // Why the replace: in a packaged app the worker bundle is unpacked beside the asar archive (electron-builder.yml asarUnpack).
    useBuiltWorkers(__dirname.replace(/app\.asar([\\/]|$)/, 'app.asar.unpacked$1'), {
      warm: true,
    });
    const services = createServices(
      app.getPath('userData'),
      (event, payload) => send(event, payload),
      {
        secretBox,
        openBrowser,
        // Why: MCP clients start this app's own CLI, run by the app's executable as Node.
        cliLaunch: cliLaunch(__dirname),
        // Why: deleted files end in the OS trash, where people look for them (after the in-app Undo window).
        osTrash: (path) => shell.trashItem(path),
      },
    );
    // Why now: the remembered libraries are listed while the window loads.
    void services.library.prefetch();
    const handlers = createApiHandlers({
      shell: 'electron',
      version: app.getVersion(),
      ...services,
      revealPath: (path) => shell.showItemInFolder(path),
      pickFolder: async (title) => {
        const options = {
          title: title ?? 'Open a folder of skills',
          properties: ['openDirectory' as const, 'createDirectory' as const],
        };
        const result = mainWindow
          ? await dialog.showOpenDialog(mainWindow, options)
          : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
    });
    const dispatch = createDispatch(handlers, (channel, error) =>
      console.error(`Skillbench: ${channel} failed:`, error),
    );
    registerIpcHandlers(ipcMain, dispatch);
    // Why quitting waits: work the window asked for (an install, an update, a save) ends before
    // the process does, as the browser shell's close waits for it (main/web/browser-shell.ts).
    let quitting = false;
    app.on('before-quit', (event) => {
      if (quitting) return;
      quitting = true;
      event.preventDefault();
      void Promise.all([dispatch.settle(), services.dispose()]).finally(() => app.quit());
    });
    createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
