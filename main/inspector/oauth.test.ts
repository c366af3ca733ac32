import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/skill-library';
import { CONNECTIONS_FILE } from './connection-store';
import { InspectorService } from './service';
import { aesBox, fixtureSkill, startFixture } from '../testing/inspector-servers';
import type { FixtureSpec } from '../testing/inspector-servers';
import type { ConnectionStatus } from './types';

/** A loopback authorization server in the same HTTP server as the MCP endpoint: metadata, registration, PKCE, tokens. */
function oauthFixture(options: { endlessToken?: boolean } = {}): {
  spec: Partial<FixtureSpec>;
  stats: { registrations: number; authorizations: number; tokens: string[]; badVerifiers: number };
} {
  const stats = { registrations: 0, authorizations: 0, tokens: [] as string[], badVerifiers: 0 };
  const clients = new Map<string, string[]>();
  const codes = new Map<string, { challenge: string; redirect: string; client: string }>();
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown): true => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return true;
  };
  const spec: Partial<FixtureSpec> = {
    route: (req, res, body) => {
      const base = `http://${req.headers.host ?? ''}`;
      const url = new URL(req.url ?? '/', base);
      if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
        return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
      if (url.pathname === '/.well-known/oauth-authorization-server') {
        return json(res, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      }
      if (url.pathname.startsWith('/.well-known/')) return json(res, 404, { error: 'not_found' });
      if (url.pathname === '/register' && req.method === 'POST') {
        const meta = JSON.parse(body.toString('utf8')) as { redirect_uris: string[] };
        const id = `client-${++stats.registrations}`;
        clients.set(id, meta.redirect_uris);
        return json(res, 201, {
          ...meta,
          client_id: id,
          client_id_issued_at: Math.floor(Date.now() / 1000),
        });
      }
      if (url.pathname === '/authorize') {
        const p = url.searchParams;
        const client = p.get('client_id') ?? '';
        const redirect = p.get('redirect_uri') ?? '';
        if (
          !clients.get(client)?.includes(redirect) ||
          p.get('code_challenge_method') !== 'S256' ||
          !p.get('code_challenge')
        )
          return json(res, 400, { error: 'invalid_request' });
        stats.authorizations++;
        const code = randomBytes(8).toString('hex');
        codes.set(code, { challenge: p.get('code_challenge') ?? '', redirect, client });
        const to = new URL(redirect);
        to.searchParams.set('code', code);
        to.searchParams.set('state', p.get('state') ?? '');
        res.writeHead(302, { location: to.toString() }).end();
        return true;
      }
      if (url.pathname === '/token' && req.method === 'POST' && options.endlessToken) {
        // A token answer that starts and never ends.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"access_token": "');
        const chunk = 'a'.repeat(64 * 1024);
        const go = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', go);
        };
        go();
        return true;
      }
      if (url.pathname === '/token' && req.method === 'POST') {
        const p = new URLSearchParams(body.toString('utf8'));
        const grant = codes.get(p.get('code') ?? '');
        const verifier = p.get('code_verifier') ?? '';
        if (!grant || grant.redirect !== p.get('redirect_uri'))
          return json(res, 400, { error: 'invalid_grant' });
        if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
          stats.badVerifiers++;
          return json(res, 400, { error: 'invalid_grant' });
        }
        codes.delete(p.get('code') ?? '');
        const token = randomBytes(16).toString('hex');
        stats.tokens.push(token);
        return json(res, 200, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: 3600,
          refresh_token: `r-${token}`,
        });
      }
      return false;
    },
    authorize: (authorization, req) => {
      const token = authorization?.replace(/^Bearer /, '');
      if (token && stats.tokens.includes(token)) return { ok: true };
      // RFC 9728 §5.1: the challenge points at the protected-resource metadata.
      return {
        ok: false,
        wwwAuthenticate: `Bearer resource_metadata="http://${req.headers.host ?? ''}/.well-known/oauth-protected-resource/mcp"`,
      };
    },
  };
  return { spec, stats };
}

/** A skill server with one skill (pdf) behind the loopback authorization server above. */
async function startOAuthServer(options: { endlessToken?: boolean } = {}) {
  const { entry, files } = fixtureSkill(
    'pdf',
    { name: 'pdf', description: 'PDF.' },
    { 'SKILL.md': '---\nname: pdf\ndescription: PDF.\n---\n' },
  );
  const { spec, stats } = oauthFixture(options);
  const real = await startFixture({
    extension: {},
    listSkills: () => ({ skills: [entry] }),
    files,
    ...spec,
  });
  return { real, stats };
}

/** Follows the consent page's redirect to our loopback listener, as a browser would. */
async function followRedirect(url: string): Promise<void> {
  const r = await fetch(url, { redirect: 'manual' });
  const location = r.headers.get('location');
  if (!location) throw new Error(`no redirect from ${url}: ${r.status}`);
  const back = await fetch(location);
  expect(back.status).toBe(200);
}

describe('OAuth 2.1 with the SDK client auth', () => {
  it('discovers metadata, registers dynamically, runs PKCE with a loopback redirect, and keeps tokens encrypted', async () => {
    const { real, stats } = await startOAuthServer();
    const data = await tempDir('skillbench-insp-oauth-');
    const opened: string[] = [];
    const service = new InspectorService({
      dataDir: data.path,
      secretBox: aesBox(),
      openBrowser: async (url) => {
        opened.push(url);
        await followRedirect(url);
      },
    });
    const states: ConnectionStatus['state'][] = [];
    service.on('status', (s) => states.push(s.state));
    try {
      const saved = await service.saveConnection({ label: 'secured', kind: 'http', url: real.url });
      const status = await service.connect({ savedId: saved.id });
      expect(status.state).toBe('connected');
      expect(states).toEqual(['connecting', 'authorizing', 'connected']);
      expect(stats).toMatchObject({ registrations: 1, authorizations: 1, badVerifiers: 0 });
      expect(opened).toHaveLength(1);
      expect(new URL(opened[0] ?? '').searchParams.get('code_challenge_method')).toBe('S256');
      expect(new URL(opened[0] ?? '').searchParams.get('redirect_uri')).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/,
      );
      const d = await service.discover('secured');
      expect(d.skills.map((s) => s.uri)).toEqual(['skill://pdf/SKILL.md']);
      // Tokens are stored, encrypted: the file never contains the access token.
      const file = await readFile(join(data.path, CONNECTIONS_FILE), 'utf8');
      expect(stats.tokens).toHaveLength(1);
      expect(file).not.toContain(stats.tokens[0]);
      expect((await service.listConnections())[0]).toMatchObject({ hasOAuthTokens: true });
      expect(JSON.stringify(await service.listConnections())).not.toContain(stats.tokens[0]);
      // Reconnecting uses the stored token: no second consent, no second registration.
      await service.reconnect('secured');
      expect(opened).toHaveLength(1);
      expect(stats.registrations).toBe(1);
    } finally {
      await service.close();
      await real.close();
      await data.remove();
    }
  }, 60_000);

  it('a token endpoint whose answer never ends is cut off at the message bound, not read into memory', async () => {
    const { real, stats } = await startOAuthServer({ endlessToken: true });
    const data = await tempDir('skillbench-insp-oauth-');
    const service = new InspectorService({
      dataDir: data.path,
      secretBox: aesBox(),
      // A message bound of about 1 MB (a resource of 1 KB, base64, plus 1 MiB of framing).
      limits: { maxResourceBytes: 1024 },
      openBrowser: (url) => followRedirect(url),
    });
    try {
      await expect(
        service.connect({ label: 'endless', kind: 'http', url: real.url }),
      ).rejects.toThrow(/more than 1,049,942 bytes/);
      expect(stats).toMatchObject({ registrations: 1, authorizations: 1, tokens: [] });
    } finally {
      await service.close();
      await real.close();
      await data.remove();
    }
  }, 60_000);

  it('without a way to open a browser, a server that asks for OAuth fails with a plain message', async () => {
    const { spec } = oauthFixture();
    const server = await startFixture({
      extension: {},
      listSkills: () => ({ skills: [] }),
      ...spec,
    });
    const data = await tempDir('skillbench-insp-oauth-');
    const service = new InspectorService({ dataDir: data.path });
    try {
      await expect(
        service.connect({ label: 'secured', kind: 'http', url: server.url }),
      ).rejects.toThrow(/refused the credentials \(or asked for some\)/);
    } finally {
      await service.close();
      await server.close();
      await data.remove();
    }
  });
});

describe('saved connections and secrets', () => {
  it('encrypts secrets through the SecretBox and never hands them back', async () => {
    const data = await tempDir('skillbench-insp-store-');
    const service = new InspectorService({ dataDir: data.path, secretBox: aesBox() });
    try {
      const saved = await service.saveConnection({
        label: 'remote',
        kind: 'http',
        url: 'https://skills.example/mcp',
        headers: [
          { name: 'X-Team', value: 'blue' },
          { name: 'X-Api-Key', value: 'super-secret-key', secret: true },
        ],
        bearerToken: 'bearer-secret-value',
      });
      await service.saveConnection({
        label: 'local',
        kind: 'stdio',
        command: 'node',
        args: ['server.js'],
        env: [
          { name: 'API_TOKEN', value: 'env-secret-value', secret: true },
          { name: 'MODE', value: 'dev' },
        ],
        cwd: '/tmp',
      });
      const file = await readFile(join(data.path, CONNECTIONS_FILE), 'utf8');
      for (const secret of ['super-secret-key', 'bearer-secret-value', 'env-secret-value'])
        expect(file).not.toContain(secret);
      expect(file).toContain('blue');
      const list = await service.listConnections();
      expect(JSON.stringify(list)).not.toMatch(
        /super-secret-key|bearer-secret-value|env-secret-value/,
      );
      expect(list[0]).toMatchObject({
        label: 'remote',
        hasBearerToken: true,
        headers: [
          { name: 'X-Team', value: 'blue', secret: false },
          { name: 'X-Api-Key', secret: true, hasSecret: true },
        ],
      });
      expect(list[1]).toMatchObject({
        label: 'local',
        env: [
          { name: 'API_TOKEN', secret: true, hasSecret: true },
          { name: 'MODE', value: 'dev' },
        ],
      });
      // Editing without re-entering the secret keeps it.
      await service.saveConnection(
        {
          label: 'remote2',
          kind: 'http',
          url: 'https://skills.example/mcp',
          headers: [{ name: 'X-Api-Key', value: '', secret: true }],
        },
        saved.id,
      );
      const resolved = await service.store.resolve(saved.id);
      expect(resolved.input.headers).toEqual([
        { name: 'X-Api-Key', value: 'super-secret-key', secret: true },
      ]);
      expect(resolved.input.bearerToken).toBe('bearer-secret-value');
      expect(await service.removeConnection(saved.id)).toBe(true);
      expect((await service.listConnections()).map((c) => c.label)).toEqual(['local']);
    } finally {
      await service.close();
      await data.remove();
    }
  });

  it('refuses to save a secret when no SecretBox is available, and saves plain settings', async () => {
    const data = await tempDir('skillbench-insp-store-');
    const service = new InspectorService({ dataDir: data.path });
    try {
      await expect(
        service.saveConnection({
          label: 'x',
          kind: 'http',
          url: 'https://a.example/mcp',
          bearerToken: 't0ken',
        }),
      ).rejects.toThrow(/secure storage is not available here, so it cannot be saved/);
      await expect(
        service.saveConnection({
          label: 'x',
          kind: 'http',
          url: 'https://a.example/mcp',
          headers: [{ name: 'K', value: 'v', secret: true }],
        }),
      ).rejects.toThrow(/The header "K" is a secret/);
      await expect(readFile(join(data.path, CONNECTIONS_FILE), 'utf8')).rejects.toThrow();
      const ok = await service.saveConnection({
        label: 'plain',
        kind: 'http',
        url: 'https://a.example/mcp',
        headers: [{ name: 'X-Team', value: 'blue' }],
      });
      expect(ok).toMatchObject({
        hasBearerToken: false,
        headers: [{ name: 'X-Team', value: 'blue' }],
      });
    } finally {
      await data.remove();
    }
  });

  it('connects with a saved bearer token and custom headers; a wrong token fails plainly', async () => {
    const { entry, files } = fixtureSkill(
      'pdf',
      { name: 'pdf', description: 'PDF.' },
      { 'SKILL.md': '---\nname: pdf\ndescription: PDF.\n---\n' },
    );
    const seen: (string | undefined)[] = [];
    const server = await startFixture({
      extension: {},
      listSkills: () => ({ skills: [entry] }),
      files,
      requireToken: 'the-right-token',
      route: (req) => {
        seen.push(req.headers['x-team'] as string | undefined);
        return false;
      },
    });
    const data = await tempDir('skillbench-insp-store-');
    const service = new InspectorService({ dataDir: data.path, secretBox: aesBox() });
    try {
      const saved = await service.saveConnection({
        label: 'tok',
        kind: 'http',
        url: server.url,
        bearerToken: 'the-right-token',
        headers: [{ name: 'X-Team', value: 'blue' }],
      });
      expect((await service.connect({ savedId: saved.id })).state).toBe('connected');
      expect((await service.discover('tok')).skills).toHaveLength(1);
      expect(seen.every((h) => h === 'blue')).toBe(true);
      await expect(
        service.connect({ label: 'wrong', kind: 'http', url: server.url, bearerToken: 'nope' }),
      ).rejects.toThrow(/refused the credentials/);
      await expect(
        service.connect({
          label: 'bad',
          kind: 'http',
          url: server.url,
          headers: [{ name: 'X-Bad', value: 'a\r\nInjected: 1' }],
        }),
      ).rejects.toThrow(/line break/);
    } finally {
      await service.close();
      await server.close();
      await data.remove();
    }
  });
});
