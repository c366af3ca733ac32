import { mkdtemp, mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleCli, runCliProcess } from '../testing/skill-library';
import { photoSkillZip, truncatedTars } from '../pack/craft-archives';
import { startBrowserShell, type BrowserShell } from './browser-shell';

/** A raw HTTP request with full control of Host and Origin (fetch forbids setting Host). */
function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

describe('browser-shell host', () => {
  let dir: string;
  let shell: BrowserShell;
  let host: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skillbench-host-'));
    await mkdir(join(dir, 'renderer'));
    await writeFile(
      join(dir, 'renderer', 'index.html'),
      '<!doctype html><title>Skillbench</title>',
    );
    await writeFile(join(dir, 'secret.txt'), 'outside the renderer');
    await mkdir(join(dir, 'lib', 'alpha'), { recursive: true });
    await writeFile(
      join(dir, 'lib', 'alpha', 'SKILL.md'),
      '---\nname: alpha\ndescription: First skill\n---\nBody\n',
    );
    shell = await startBrowserShell({
      rendererDir: join(dir, 'renderer'),
      version: 'test',
      userDataDir: join(dir, 'userdata'),
    });
    host = `127.0.0.1:${shell.host.port}`;
  });

  afterEach(async () => {
    await shell.close();
    await rm(dir, { recursive: true, force: true });
  });

  const auth = () => ({ Host: host, Authorization: `Bearer ${shell.host.token}` });
  const json = (body: unknown) => ({
    ...auth(),
    'Content-Type': 'application/json',
    body: JSON.stringify(body),
  });

  it('binds 127.0.0.1 and prints a URL that carries the token', () => {
    expect(shell.host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
  });

  it('serves the page (public code) without the token, and refuses every API call without it with 401', async () => {
    const page = await send(shell.host.port, { path: '/', headers: { Host: host } });
    expect(page.status).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    const call = await send(shell.host.port, {
      method: 'POST',
      path: '/api/app.info',
      headers: { Host: host, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(call.status).toBe(401);
    expect(call.body).toContain('access token');
    const events = await send(shell.host.port, { path: '/api/events', headers: { Host: host } });
    expect(events.status).toBe(401);
  });

  it('refuses a wrong token with 401', async () => {
    const res = await send(shell.host.port, {
      method: 'POST',
      path: '/api/app.info',
      headers: { Host: host, Authorization: 'Bearer nope', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });

  it('refuses a foreign Origin with 403, even with the token', async () => {
    const res = await send(shell.host.port, {
      method: 'POST',
      path: '/api/app.info',
      headers: { ...auth(), Origin: 'http://evil.example', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
  });

  it('refuses a Host other than 127.0.0.1/localhost with 403 (DNS rebinding)', async () => {
    for (const badHost of [
      'evil.example',
      `evil.example:${shell.host.port}`,
      '127.0.0.1:1',
      `0.0.0.0:${shell.host.port}`,
    ]) {
      const res = await send(shell.host.port, {
        path: '/',
        headers: { Host: badHost, Authorization: `Bearer ${shell.host.token}` },
      });
      expect(res.status, badHost).toBe(403);
    }
    const ok = await send(shell.host.port, {
      path: '/',
      headers: {
        Host: `localhost:${shell.host.port}`,
        Authorization: `Bearer ${shell.host.token}`,
      },
    });
    expect(ok.status).toBe(200);
  });

  it('never hands out a cookie, and a token in a cookie is no token at all', async () => {
    // Why: a cookie for 127.0.0.1 goes to every port of 127.0.0.1, so another local page would get it.
    const res = await send(shell.host.port, {
      path: `/?token=${shell.host.token}`,
      headers: { Host: host },
    });
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const viaCookie = await send(shell.host.port, {
      method: 'POST',
      path: '/api/app.info',
      headers: {
        Host: host,
        Cookie: `skillbench_token=${shell.host.token}`,
        'Content-Type': 'application/json',
      },
      body: '{}',
    });
    expect(viaCookie.status).toBe(401);
  });

  it('never serves files outside the renderer build', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt']) {
      const res = await send(shell.host.port, { path, headers: auth() });
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('outside the renderer');
    }
  });

  it('answers contract channels as data and rejects bad input with a plain message', async () => {
    const { body: infoBody, status } = await send(shell.host.port, {
      method: 'POST',
      path: '/api/app.info',
      headers: json({}),
      body: '{}',
    });
    expect(status).toBe(200);
    expect(JSON.parse(infoBody)).toMatchObject({
      ok: true,
      value: { shell: 'browser', version: 'test', nativeDialogs: false },
    });

    const bad = await send(shell.host.port, {
      method: 'POST',
      path: '/api/library.open',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: '{"path": 42}',
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'invalid-input' } });

    const unknown = await send(shell.host.port, {
      method: 'POST',
      path: '/api/nope.nothing',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(unknown.status).toBe(404);

    const form = await send(shell.host.port, {
      method: 'POST',
      path: '/api/app.info',
      headers: { ...auth(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a=b',
    });
    expect(form.status).toBe(415);
  });

  it('opens a library, saves through the API, and pushes an outside edit as skill.changed over Server-Sent Events', async () => {
    const opened = await send(shell.host.port, {
      method: 'POST',
      path: '/api/library.open',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: join(dir, 'lib') }),
    });
    const library = JSON.parse(opened.body);
    expect(library.value.skills).toHaveLength(1);
    const skillPath = library.value.skills[0].path as string;

    const events: string[] = [];
    const stream = request({
      host: '127.0.0.1',
      port: shell.host.port,
      path: '/api/events',
      headers: auth(),
    });
    const gotEvent = new Promise<void>((resolve) => {
      stream.on('response', (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          events.push(chunk);
          if (chunk.includes('event: skill.changed')) resolve();
        });
      });
    });
    const connected = new Promise<void>((resolve) => {
      stream.on('response', (res) => res.once('data', () => resolve()));
    });
    stream.end();
    // Why wait for the stream's first bytes: an event sent before it is connected would be missed.
    await connected;

    const saved = await send(shell.host.port, {
      method: 'POST',
      path: '/api/skill.save',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: skillPath, text: 'new text\n' }),
    });
    expect(JSON.parse(saved.body)).toMatchObject({ ok: true });
    expect(await readFile(skillPath, 'utf8')).toBe('new text\n');
    await send(shell.host.port, {
      method: 'POST',
      path: '/api/skill.read',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: skillPath }),
    });
    await writeFile(skillPath, 'edited by another program\n');
    await gotEvent;
    expect(events.join('')).toContain(JSON.stringify(skillPath));
    stream.destroy();
  });

  it('refuses to read or write outside the opened library', async () => {
    await send(shell.host.port, {
      method: 'POST',
      path: '/api/library.open',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: join(dir, 'lib') }),
    });
    const read = await send(shell.host.port, {
      method: 'POST',
      path: '/api/skill.read',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: join(dir, 'secret.txt') }),
    });
    expect(JSON.parse(read.body)).toMatchObject({ ok: false, error: { code: 'outside-library' } });
    const escape = await send(shell.host.port, {
      method: 'POST',
      path: '/api/skill.save',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: join(dir, 'lib', '..', 'secret.txt'), text: 'x' }),
    });
    expect(JSON.parse(escape.body)).toMatchObject({
      ok: false,
      error: { code: 'outside-library' },
    });
    expect(await readFile(join(dir, 'secret.txt'), 'utf8')).toBe('outside the renderer');
  });

  it('says in plain words that the port is taken when `skillbench web --port` names a busy one', async () => {
    const build = join(dir, 'build');
    await mkdir(build);
    const cli = await bundleCli(build);
    const busy = shell.host.port;
    const run = await runCliProcess(cli, [
      'web',
      '--port',
      String(busy),
      '--renderer-dir',
      join(dir, 'renderer'),
      '--user-data',
      join(dir, 'userdata-2'),
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `Port ${busy} on 127.0.0.1 is already in use by another program. Choose another port, or leave the port out to use a free one.`,
    );
    expect(run.stderr).not.toContain('EADDRINUSE');
  }, 60_000);
});

/** POST a contract channel with the token, as the page does. */
async function call(
  port: number,
  token: string,
  channel: string,
  input: unknown,
): Promise<{ status: number; body: { ok: boolean; value?: unknown; error?: unknown } }> {
  const res = await send(port, {
    method: 'POST',
    path: `/api/${channel}`,
    headers: {
      Host: `127.0.0.1:${port}`,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(input),
  });
  return { status: res.status, body: JSON.parse(res.body) as { ok: boolean } };
}

describe('the browser-shell host refuses hostile and damaged imports and answers the next request', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skillbench-host-import-'));
    await mkdir(join(dir, 'renderer'));
    await writeFile(
      join(dir, 'renderer', 'index.html'),
      '<!doctype html><title>Skillbench</title>',
    );
    await writeFile(join(dir, 'photos.zip'), photoSkillZip());
    for (const [i, cut] of truncatedTars().entries())
      await writeFile(join(dir, `${i}-${cut.file}`), cut.bytes);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('previews each as a refusal, in the host running in this process', async () => {
    const shell = await startBrowserShell({
      rendererDir: join(dir, 'renderer'),
      version: 'test',
      userDataDir: join(dir, 'userdata'),
    });
    try {
      const { port, token } = shell.host;
      const photos = await call(port, token, 'import.preview', { source: join(dir, 'photos.zip') });
      expect(photos).toMatchObject({
        status: 200,
        body: { ok: true, value: { status: 'refused', refusal: { code: 'too-large' } } },
      });
      for (const [i, cut] of truncatedTars().entries()) {
        const preview = await call(port, token, 'import.preview', {
          source: join(dir, `${i}-${cut.file}`),
        });
        expect([cut.name, preview.body]).toEqual([
          cut.name,
          {
            ok: true,
            value: { status: 'refused', refusal: expect.objectContaining({ code: 'damaged' }) },
          },
        ]);
      }
      const again = await call(port, token, 'app.info', {});
      expect(again).toMatchObject({ status: 200, body: { ok: true } });
    } finally {
      await shell.close();
    }
  });

  it('previews each as a refusal, and the `skillbench web` process lives on', async () => {
    const build = join(dir, 'build');
    await mkdir(build);
    const cli = await bundleCli(build);
    const child = spawn(
      process.execPath,
      [
        cli,
        'web',
        '--port',
        '0',
        '--renderer-dir',
        join(dir, 'renderer'),
        '--user-data',
        join(dir, 'userdata'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out);
          if (found) resolve(new URL(found[0]));
        });
        child.on('exit', () => reject(new Error(`skillbench web exited: ${stderr}`)));
      });
      const port = Number(url.port);
      const token = url.searchParams.get('token') ?? '';
      const photos = await call(port, token, 'import.preview', { source: join(dir, 'photos.zip') });
      expect(photos.body).toMatchObject({ ok: true, value: { status: 'refused' } });
      for (const [i, cut] of truncatedTars().entries()) {
        const preview = await call(port, token, 'import.preview', {
          source: join(dir, `${i}-${cut.file}`),
        });
        expect([cut.name, preview.body]).toMatchObject([
          cut.name,
          { ok: true, value: { status: 'refused' } },
        ]);
      }
      expect(await call(port, token, 'app.info', {})).toMatchObject({
        status: 200,
        body: { ok: true },
      });
      expect(child.exitCode).toBeNull();
      expect(stderr).not.toMatch(/TypeError|Unexpected end of data|^\s+at /m);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
