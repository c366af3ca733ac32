import { sameSecret } from '../platform/secret';

/** The outcome of checking a request's Host, Origin and token. */
export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/** The request facts the guard looks at (lower-case header names, as Node gives them). */
export interface GuardRequest {
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
}

/**
 * Check where a request to the browser-shell host comes from. Why each check (the MCP
 * Inspector's hardening, docs/conventions.md §9): Host must name loopback with our port (DNS rebinding
 * makes a foreign name resolve to 127.0.0.1); Origin, when sent, must be our own (a page on
 * another site, or on another port of this computer, may call us).
 */
export function checkOrigin(request: GuardRequest, port: number): GuardVerdict {
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
  return { ok: true };
}

/**
 * Check a call of the API: where it comes from (see {@link checkOrigin}), and the random per-run
 * token in the Authorization header. Why a header and never a cookie: browsers send a cookie for
 * 127.0.0.1 to every port of 127.0.0.1, so any other local web page the user visits would
 * receive it; a header is only sent by script of our own origin, which keeps the token in its
 * own session storage (origins include the port).
 */
export function checkRequest(request: GuardRequest, port: number, token: string): GuardVerdict {
  const where = checkOrigin(request, port);
  if (!where.ok) return where;
  const bearer = request.authorization?.startsWith('Bearer ')
    ? request.authorization.slice(7).trim()
    : undefined;
  if (bearer === undefined || !sameSecret(bearer, token)) {
    return { ok: false, status: 401, reason: 'Missing or wrong token' };
  }
  return { ok: true };
}
