import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../shared/ipc/contract';
import { fakeApi, ok } from '../testing/fake-api';
import { browserToken, eventFrames, httpClient, settled } from './api';

/** A client whose every channel behaves like `call`, as a shell might. */
function shellWhere(call: (input: unknown) => unknown): ApiClient {
  return new Proxy({} as ApiClient, { get: () => call });
}

describe('settled: every call from either shell ends in a Result', () => {
  it('passes a Result through unchanged', async () => {
    const { api } = fakeApi({
      'settings.get': () => ok({ roots: [], lastOpenSkill: null, extraProfiles: [] }),
    });
    await expect(settled(api)['settings.get']({})).resolves.toEqual(
      ok({ roots: [], lastOpenSkill: null, extraProfiles: [] }),
    );
    const failed = { ok: false, error: { code: 'conflict', message: 'Changed on disk.' } };
    await expect(
      settled(shellWhere(async () => failed))['skill.save']({ path: 'a', text: '' }),
    ).resolves.toEqual(failed);
  });

  it('turns a rejected call (Electron, when a handler throws) into an internal error', async () => {
    const api = settled(
      shellWhere(() =>
        Promise.reject(new Error("Error invoking remote method 'skillbench:export.plan': boom")),
      ),
    );
    const result = await api['export.plan']({ skillDir: '/s', target: 'claude-ai' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('internal');
    expect(result.error.message).toMatch(/^Something went wrong inside Skillbench/);
    expect(result.error.detail).toContain('export.plan');
    expect(result.error.detail).toContain('boom');
  });

  it('turns a call that throws before it returns a promise into an internal error', async () => {
    const api = settled(
      shellWhere(() => {
        throw new TypeError('An object could not be cloned.');
      }),
    );
    const result = await api['library.list']({});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('turns an answer that is not a Result into an internal error', async () => {
    for (const answer of [undefined, null, 'text', {}, { ok: true }, { ok: false, error: 'x' }]) {
      const result = await settled(shellWhere(async () => answer))['app.info']({});
      expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    }
  });
});

describe('httpClient: the browser shell', () => {
  it('posts the input as JSON to /api/<channel> and returns the parsed answer', async () => {
    const requests: { url: unknown; method?: string; body: unknown }[] = [];
    const client = httpClient(async (url, init) => {
      requests.push({ url, method: init?.method, body: init?.body });
      return new Response(JSON.stringify(ok({ roots: ['/lib'] })), { status: 200 });
    });
    await expect(client['library.close']({ root: '/lib' })).resolves.toEqual(
      ok({ roots: ['/lib'] }),
    );
    expect(requests).toEqual([
      { url: '/api/library.close', method: 'POST', body: '{"root":"/lib"}' },
    ]);
  });

  it('says the service is not answering when the request cannot be sent', async () => {
    const client = httpClient(() => Promise.reject(new TypeError('Failed to fetch')));
    const result = await client['library.list']({});
    expect(result).toMatchObject({ ok: false, error: { code: 'disconnected' } });
  });

  it('says the access token was lost on a 401', async () => {
    const client = httpClient(async () => new Response('', { status: 401 }));
    await expect(client['library.list']({})).resolves.toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
  });

  it('gives an internal error, through settled, for a body that is not JSON', async () => {
    const client = settled(
      httpClient(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    await expect(client['library.list']({})).resolves.toMatchObject({
      ok: false,
      error: { code: 'internal' },
    });
  });
});

describe('the browser shell keeps its token out of cookies and the address bar', () => {
  it('sends the token in an Authorization header, never with cookies', async () => {
    const seen: RequestInit[] = [];
    const client = httpClient(
      async (_url, init) => {
        seen.push(init ?? {});
        return new Response(JSON.stringify(ok({ roots: [] })), { status: 200 });
      },
      () => 'tok-123',
    );
    await client['library.close']({ root: '/lib' });
    expect(seen[0]?.credentials).toBe('omit');
    expect((seen[0]?.headers as Record<string, string>).Authorization).toBe('Bearer tok-123');
  });

  it('takes the token from ?token= once, keeps it in session storage and drops it from the address', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const replaced: string[] = [];
    const first = browserToken(
      { search: '?token=abc', pathname: '/', hash: '#x' },
      storage,
      (url) => replaced.push(url),
    );
    expect(first).toBe('abc');
    expect(replaced).toEqual(['/#x']);
    // A reload of the same tab finds it again without the query.
    expect(browserToken({ search: '', pathname: '/', hash: '' }, storage, () => undefined)).toBe(
      'abc',
    );
    expect(
      browserToken(
        { search: '', pathname: '/', hash: '' },
        { getItem: () => null, setItem: () => undefined },
        () => undefined,
      ),
    ).toBeNull();
  });

  it('reads Server-Sent Events frames across chunk boundaries', () => {
    const split = eventFrames();
    expect(split(': connected\n\nevent: library.changed\nda')).toEqual([]);
    expect(split('ta: {"root":"/lib"}\n\nevent: skill.changed\r\ndata: {}\r\n\r\n')).toEqual([
      { event: 'library.changed', data: '{"root":"/lib"}' },
      { event: 'skill.changed', data: '{}' },
    ]);
  });
});
