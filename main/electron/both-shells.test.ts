import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_PREFIX } from '../../shared/ipc/contract';
import { registerIpcHandlers, type IpcRegistry } from './registrar';
import { startWebHost, type WebHost } from '../web/host';
import { createDispatch, type Dispatch } from '../api/dispatch';
import { createApiHandlers } from '../api/handlers';
import { createServices, type Services } from '../api/services';

// The same table of channel calls, through the Electron IPC adapter and through the
// browser-shell HTTP host, over one set of real services: both must answer alike, including
// for a handler that throws (here: settings.update when the user-data folder cannot be written).

type Listener = Parameters<IpcRegistry['handle']>[1];

let tmp: string;
let services: Services;
let dispatch: Dispatch;
let host: WebHost;
const ipcListeners = new Map<string, Listener>();
const failures: string[] = [];

/** Electron's ipcMain stand-in: records the listeners the registrar adds, so they can be invoked. */
const ipc: IpcRegistry = {
  handle: (channel, listener) => {
    ipcListeners.set(channel, listener);
  },
};

/** A frame as Electron describes our own top-level window. */
function trustedFrame(): { url: string; top: unknown } {
  const frame: { url: string; top: unknown } = { url: 'app://skillbench/index.html', top: null };
  frame.top = frame;
  return frame;
}

async function viaIpc(name: string, raw: unknown): Promise<unknown> {
  const listener = ipcListeners.get(`${IPC_PREFIX}${name}`);
  if (!listener) {
    // Why: the registrar registers exactly the contract's channels; an unknown one has no listener,
    // and the preload never sends it. Ask the dispatch directly to compare its answer.
    return dispatch(name, raw);
  }
  const event = { senderFrame: trustedFrame() } as unknown as Parameters<Listener>[0];
  return listener(event, raw);
}

function viaHttp(name: string, raw: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(raw);
    const req = request(
      {
        host: '127.0.0.1',
        port: host.port,
        method: 'POST',
        path: `/api/${encodeURIComponent(name)}`,
        headers: {
          Host: `127.0.0.1:${host.port}`,
          'Content-Type': 'application/json',
          Authorization: `Bearer ${host.token}`,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) as unknown }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-dispatch-'));
  await mkdir(join(tmp, 'lib', 'demo'), { recursive: true });
  await writeFile(
    join(tmp, 'lib', 'demo', 'SKILL.md'),
    '---\nname: demo\ndescription: A demo skill for the dispatch test.\n---\nBody.\n',
  );
  // Why a file where the user-data folder should be: settings.update then throws (ENOTDIR).
  await writeFile(join(tmp, 'not-a-folder'), 'x');
  services = createServices(join(tmp, 'not-a-folder', 'user-data'), () => undefined);
  dispatch = createDispatch(
    createApiHandlers({ shell: 'browser', version: 'test', ...services }),
    (channel) => failures.push(channel),
  );
  registerIpcHandlers(ipc, dispatch);
  host = await startWebHost({ dispatch, rendererDir: join(tmp, 'no-renderer') });
});

afterAll(async () => {
  await host?.close();
  await services?.dispose().catch(() => undefined);
  await rm(tmp, { recursive: true, force: true });
});

describe('one dispatch for both shells', () => {
  const table: [string, unknown, number][] = [
    ['app.info', {}, 200],
    ['settings.get', {}, 200],
    ['fs.browse', { path: '/definitely/not/here' }, 200],
    ['skill.read', { path: 'relative/path/SKILL.md' }, 200],
    ['skill.read', { path: 42 }, 400],
    ['no.such-channel', {}, 404],
    ['settings.update', { profiles: ['agentskills'] }, 200],
    ['drafts.put', { path: '/x/SKILL.md', text: 'x', baseVersion: null }, 200],
  ];

  it.each(table)('%s answers the same through IPC and HTTP', async (name, input, status) => {
    const ipcResult = await viaIpc(name, input);
    const http = await viaHttp(name, input);
    expect(http.status).toBe(status);
    expect(http.body).toEqual(JSON.parse(JSON.stringify(ipcResult)));
    expect(http.body).toHaveProperty('ok');
  });

  it('a handler that throws becomes a plain error result in both shells, never a rejection', async () => {
    failures.length = 0;
    const ipcResult = (await viaIpc('settings.update', { profiles: ['agentskills'] })) as {
      ok: boolean;
      error?: { code: string; message: string };
    };
    expect(ipcResult.ok).toBe(false);
    expect(ipcResult.error?.code).toBe('internal');
    expect(ipcResult.error?.message).toContain('settings.update');
    const http = await viaHttp('settings.update', { profiles: ['agentskills'] });
    expect(http.body).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(failures).toEqual(['settings.update', 'settings.update']);
  });

  it('the IPC adapter refuses a sender that is not our top frame', async () => {
    const listener = ipcListeners.get(`${IPC_PREFIX}app.info`) as Listener;
    const foreign = { senderFrame: { url: 'https://example.com/', top: null } };
    const result = await listener(foreign as unknown as Parameters<Listener>[0], {});
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });
});
