/**
 * OAuth 2.1 for HTTP servers that ask for it, through the SDK's client auth
 * (`@modelcontextprotocol/sdk/client/auth`: metadata discovery, dynamic client registration,
 * PKCE). This module supplies the {@link OAuthClientProvider} and the loopback redirect listener;
 * the browser is opened by an injected callback (Electron passes `shell.openExternal`).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { InspectorError } from './errors';

/** Opens the authorization URL for the user's consent (a browser, or a test that follows redirects). */
export type OpenBrowser = (url: string) => void | Promise<void>;

/** What an OAuth session remembers between connections (stored encrypted by the connection store). */
export interface OAuthState {
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** Port the client was registered with; reused so the registered redirect URI stays valid. */
  redirectPort?: number;
}

/** Options for {@link LoopbackOAuthProvider}. */
export interface LoopbackOAuthOptions {
  openBrowser: OpenBrowser;
  state?: OAuthState;
  /** Called whenever tokens or client registration change, to persist them (encrypted). */
  onStateChange?: (state: OAuthState) => void | Promise<void>;
  clientName?: string;
}

const CALLBACK_PATH = '/oauth/callback';

function sameText(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/**
 * An OAuth client for one server: a loopback redirect listener on 127.0.0.1, PKCE verifier and
 * `state` kept in memory, tokens and client registration handed to `onStateChange`.
 */
export class LoopbackOAuthProvider implements OAuthClientProvider {
  private server: HttpServer | undefined;
  private port = 0;
  private verifier = '';
  private expectedState = '';
  private waiter: { resolve: (code: string) => void; reject: (e: Error) => void } | undefined;
  private received: { code?: string; error?: Error } | undefined;
  private current: OAuthState;
  /** True once the SDK sent the user to the authorization page in this attempt. */
  redirected = false;

  constructor(private readonly options: LoopbackOAuthOptions) {
    this.current = { ...(options.state ?? {}) };
  }

  /** Start the redirect listener (127.0.0.1, the address not the name: docs/conventions.md §9). */
  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((req, res) =>
      this.onRequest(req.url ?? '', req.headers.host ?? '', res),
    );
    const listen = (port: number): Promise<void> =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    try {
      await listen(this.current.redirectPort ?? 0);
    } catch {
      // Why: the registered redirect URI names a port; if it is taken now, register again on a new one.
      await listen(0);
    }
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    if (this.current.redirectPort !== this.port) {
      this.current = { ...this.current, clientInformation: undefined, redirectPort: this.port };
    }
  }

  /** Stop the listener. */
  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    this.waiter?.reject(new InspectorError('cancelled', 'Sign-in was cancelled.'));
    this.waiter = undefined;
  }

  private onRequest(url: string, host: string, res: import('node:http').ServerResponse): void {
    const parsed = new URL(url, 'http://127.0.0.1');
    // Why: only our own callback on our own loopback address is accepted (DNS rebinding defence, docs/conventions.md §9).
    if (parsed.pathname !== CALLBACK_PATH || host !== `127.0.0.1:${this.port}`) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.');
      return;
    }
    const state = parsed.searchParams.get('state') ?? '';
    const code = parsed.searchParams.get('code');
    const error = parsed.searchParams.get('error');
    let outcome: { code?: string; error?: Error };
    // Why: RFC 6749 §10.12 — the `state` must match the one we sent, or the redirect is forged.
    if (!this.expectedState || !sameText(state, this.expectedState))
      outcome = {
        error: new InspectorError(
          'unauthorized',
          'The sign-in answer did not match the request (state mismatch). Try signing in again.',
        ),
      };
    else if (error)
      outcome = {
        error: new InspectorError(
          'unauthorized',
          `The authorization server refused: ${error}${parsed.searchParams.get('error_description') ? ` (${parsed.searchParams.get('error_description')})` : ''}.`,
        ),
      };
    else if (!code)
      outcome = {
        error: new InspectorError('unauthorized', 'The sign-in answer had no authorization code.'),
      };
    else outcome = { code };
    res
      .writeHead(outcome.code ? 200 : 400, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'",
      })
      .end(
        outcome.code
          ? '<!doctype html><title>Skillbench</title><p>Signed in. You can close this tab and return to Skillbench.</p>'
          : '<!doctype html><title>Skillbench</title><p>Sign-in failed. Return to Skillbench for details.</p>',
      );
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      if (outcome.code) w.resolve(outcome.code);
      else w.reject(outcome.error ?? new Error('sign-in failed'));
    } else this.received = outcome;
  }

  /** Wait for the redirect to arrive with the authorization code. */
  waitForCode(timeoutMs: number, signal?: AbortSignal): Promise<string> {
    if (this.received) {
      const r = this.received;
      this.received = undefined;
      return r.code
        ? Promise.resolve(r.code)
        : Promise.reject(r.error ?? new Error('sign-in failed'));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(
          new InspectorError(
            'timeout',
            `Sign-in was not finished within ${Math.round(timeoutMs / 1000)} seconds.`,
          ),
        );
      }, timeoutMs);
      const onAbort = (): void => {
        clearTimeout(timer);
        this.waiter = undefined;
        reject(new InspectorError('cancelled', 'Sign-in was cancelled.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiter = {
        resolve: (code) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(code);
        },
        reject: (e) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      };
    });
  }

  /** The remembered tokens and registration (for the store). */
  get snapshot(): OAuthState {
    return { ...this.current };
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}${CALLBACK_PATH}`;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? 'Skillbench Inspector',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // Why: a desktop app cannot keep a client secret; it is a public client using PKCE (OAuth 2.1 §2.1).
      token_endpoint_auth_method: 'none',
    };
  }

  /** A fresh random `state` for each authorization request (RFC 6749 §10.12). */
  state(): string {
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.current.clientInformation;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    this.current = { ...this.current, clientInformation: info, redirectPort: this.port };
    await this.options.onStateChange?.(this.snapshot);
  }

  tokens(): OAuthTokens | undefined {
    return this.current.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.current = { ...this.current, tokens };
    await this.options.onStateChange?.(this.snapshot);
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    // Why: only http(s) pages are opened; a hostile authorization server must not make us open other schemes.
    if (authorizationUrl.protocol !== 'https:' && authorizationUrl.protocol !== 'http:') {
      throw new InspectorError(
        'unauthorized',
        `The authorization page address "${authorizationUrl.protocol}" is not a web address; it was not opened.`,
      );
    }
    this.redirected = true;
    this.received = undefined;
    await this.options.openBrowser(authorizationUrl.toString());
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new InspectorError('unauthorized', 'No sign-in is in progress.');
    return this.verifier;
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'all' || scope === 'tokens')
      this.current = { ...this.current, tokens: undefined };
    if (scope === 'all' || scope === 'client')
      this.current = { ...this.current, clientInformation: undefined };
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
    await this.options.onStateChange?.(this.snapshot);
  }
}
