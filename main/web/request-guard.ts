import { timingSafeEqual } from 'node:crypto';

/** The outcome of checking a request's Host, Origin and token. */
export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/** The request facts the guard looks at (lower-case header names, as Node gives them). */
export interface GuardRequest {
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
  cookie: string | undefined;
}

/** The cookie that carries the token after the first visit (HttpOnly, SameSite=Strict). */
export const TOKEN_COOKIE = 'skillbench_token';

/** Compare two secrets in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Read the token from a `Cookie` header. */
export function tokenFromCookie(cookie: string | undefined): string | undefined {
  if (!cookie) return undefined;
  for (const part of cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === TOKEN_COOKIE) return rest.join('=');
  }
  return undefined;
}

/**
 * Check a request to the browser-shell host. Why each check (MCP Inspector's hardening,
 * CONVENTIONS 9): Host must name loopback with our port (DNS rebinding makes a foreign name
 * resolve to 127.0.0.1); Origin, when sent, must be our own (a page on another site may call
 * us); and the random per-run token must be presented (other local users and programs).
 */
export function checkRequest(request: GuardRequest, port: number, token: string): GuardVerdict {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!request.host || !allowedHosts.includes(request.host.toLowerCase())) {
    return { ok: false, status: 403, reason: 'Host not allowed' };
  }
  if (request.origin !== undefined) {
    const allowedOrigins = allowedHosts.map((h) => `http://${h}`);
    if (!allowedOrigins.includes(request.origin.toLowerCase())) {
      return { ok: false, status: 403, reason: 'Origin not allowed' };
    }
  }
  const bearer = request.authorization?.startsWith('Bearer ')
    ? request.authorization.slice(7).trim()
    : undefined;
  const presented = bearer ?? tokenFromCookie(request.cookie);
  if (presented === undefined || !sameSecret(presented, token)) {
    return { ok: false, status: 401, reason: 'Missing or wrong token' };
  }
  return { ok: true };
}
