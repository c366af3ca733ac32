/**
 * `skill://` URIs (SEP-2640 §1): `skill://<skill-path>/<file-path>`, where the first segment sits
 * in the URI authority and is never resolved over the network. Parsing is strict on purpose:
 * the embedded server maps URIs to files, so anything that could name a different place than
 * it appears to (`..`, `%2e%2e`, encoded slashes `%2f`/`%5c`, backslashes, a query, a fragment,
 * empty segments, userinfo or a port, other schemes such as `file:`) is refused before any
 * lookup (docs/skills-over-mcp.md §5 "reject file: URIs by parsed scheme").
 */

/** Longest URI we look at; real skill URIs are far shorter, and a bound keeps parsing cheap. */
export const MAX_URI_LENGTH = 4096;

/** A parsed, safe hierarchical URI. */
export interface ParsedSkillUri {
  /** Lowercased scheme with its colon, e.g. `skill:`. */
  scheme: string;
  /** Decoded path segments; the first one is the authority. Never empty, never `.`/`..`. */
  segments: string[];
  /** The canonical spelling: lowercase scheme, each segment percent-encoded the same way. */
  href: string;
}

/** The outcome of {@link parseSkillUri}: the URI, or a plain sentence saying why it was refused. */
export type SkillUriResult = { ok: true; uri: ParsedSkillUri } | { ok: false; reason: string };

/** Options for {@link parseSkillUri}. */
export interface ParseSkillUriOptions {
  /** Schemes accepted (with colon). Default: only `skill:`. */
  schemes?: readonly string[];
}

// pchar = unreserved / pct-encoded / sub-delims / ":" / "@" (RFC 3986 §3.3); non-ASCII letters are
// accepted too (IRI form, RFC 3987) and encoded in the canonical spelling.
const RAW_SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2}|[^\p{ASCII}])+$/u;
// Why: a userinfo `@` or port `:` in the authority would make the first segment mean something else (RFC 3986 §3.2).
const RAW_AUTHORITY = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2}|[^\p{ASCII}])+$/u;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x1f\x7f]/;
/**
 * Half of a UTF-16 surrogate pair on its own: no character, so it has no percent-encoding
 * (`encodeURIComponent` throws on it). JSON can carry one (`"\ud800"`), and so can a file name
 * on Windows.
 */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/** True when a decoded segment may appear in a served URI: non-empty, not `.`/`..`, no slash, backslash or control character. */
export function isSafeSegment(segment: string): boolean {
  return (
    segment.length > 0 &&
    segment !== '.' &&
    segment !== '..' &&
    !segment.includes('/') &&
    !segment.includes('\\') &&
    !CONTROL.test(segment) &&
    !LONE_SURROGATE.test(segment)
  );
}

/** Percent-encode one decoded segment the canonical way (encodeURIComponent, which leaves unreserved characters alone). */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment);
}

/**
 * Percent-encode a `/`-separated relative path segment by segment (a SARIF location, the URI of a
 * listed file). Never throws: half a surrogate pair, which has no encoding, becomes U+FFFD.
 */
export function encodeRelativePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment.replace(LONE_SURROGATES, '\ufffd')))
    .join('/');
}

/** Parse and check a hierarchical URI such as `skill://acme/refunds/SKILL.md`; never throws. */
export function parseSkillUri(uri: unknown, options: ParseSkillUriOptions = {}): SkillUriResult {
  const schemes = options.schemes ?? ['skill:'];
  if (typeof uri !== 'string' || uri.length === 0)
    return { ok: false, reason: 'The URI is empty.' };
  if (uri.length > MAX_URI_LENGTH)
    return { ok: false, reason: `The URI is longer than ${MAX_URI_LENGTH} characters.` };
  const colon = uri.indexOf(':');
  const scheme = colon > 0 ? uri.slice(0, colon + 1).toLowerCase() : '';
  // Why: compare the parsed scheme, not a prefix of the text (docs/skills-over-mcp.md §5: reject file: by parsed scheme).
  if (!schemes.includes(scheme)) {
    return {
      ok: false,
      reason: `Only ${schemes.map((s) => `${s}//`).join(' and ')} URIs are served here.`,
    };
  }
  if (uri.slice(colon + 1, colon + 3) !== '//')
    return { ok: false, reason: 'The URI has no "//" after its scheme.' };
  if (uri.includes('?'))
    return { ok: false, reason: 'The URI has a query ("?"), which no skill file has.' };
  if (uri.includes('#'))
    return { ok: false, reason: 'The URI has a fragment ("#"), which no skill file has.' };
  if (uri.includes('\\'))
    return {
      ok: false,
      reason: 'The URI contains a backslash, which could step outside a folder on some systems.',
    };
  if (CONTROL.test(uri) || /\s/.test(uri))
    return { ok: false, reason: 'The URI contains spaces or control characters.' };
  const raw = uri.slice(colon + 3).split('/');
  const segments: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const part = raw[i] ?? '';
    if (part.length === 0)
      return { ok: false, reason: 'The URI has an empty path segment ("//" or a trailing "/").' };
    if (!(i === 0 ? RAW_AUTHORITY : RAW_SEGMENT).test(part)) {
      return {
        ok: false,
        reason: `The URI segment "${part}" has characters that are not allowed in a URI.`,
      };
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return { ok: false, reason: `The URI segment "${part}" has a broken percent-encoding.` };
    }
    // Why: decoding first catches `%2e%2e`, `%2f` and `%5c`, which a naive check on the raw text lets through.
    if (decoded === '.' || decoded === '..')
      return { ok: false, reason: 'The URI tries to step to a parent folder ("..").' };
    if (decoded.includes('/') || decoded.includes('\\')) {
      return {
        ok: false,
        reason:
          'The URI contains an encoded slash or backslash (%2F or %5C), which could step outside a folder.',
      };
    }
    if (!isSafeSegment(decoded))
      return {
        ok: false,
        reason: 'The URI contains characters that are not allowed in a file name.',
      };
    segments.push(decoded);
  }
  return { ok: true, uri: { scheme, segments, href: joinUri(scheme, segments) } };
}

/**
 * A segment of characters `encodeURIComponent` leaves as they are (RFC 3986 unreserved): safe
 * unless it is `.` or `..`, and its own encoding. Why: nearly every name in a library is one,
 * and a server start builds a URI for every file it lists.
 */
const PLAIN_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** Build a canonical URI from decoded segments; throws when a segment is unsafe (see {@link isSafeSegment}). */
export function joinUri(scheme: string, segments: readonly string[]): string {
  if (segments.length === 0) throw new Error('A URI needs at least one path segment.');
  let uri = `${scheme}/`;
  for (const s of segments) {
    if (PLAIN_SEGMENT.test(s) && s !== '.' && s !== '..') {
      uri += `/${s}`;
      continue;
    }
    if (!isSafeSegment(s))
      throw new Error(
        `"${s}" cannot be a URI segment: it is empty, "." or "..", or contains a slash, backslash or control character.`,
      );
    uri += `/${encodeSegment(s)}`;
  }
  return uri;
}

/** `skill://` + segments, canonical. */
export function joinSkillUri(segments: readonly string[]): string {
  return joinUri('skill:', segments);
}

/** Split a `/`-separated relative path into segments, dropping nothing: empty segments make it unsafe. */
export function splitPath(path: string): string[] {
  return path.length === 0 ? [] : path.split('/');
}

/** The URI of a skill's `SKILL.md` for a skill path such as `acme/billing/refunds`. */
export function skillMdUri(skillPath: string): string {
  return joinSkillUri([...splitPath(skillPath), 'SKILL.md']);
}

/** The URI of a file inside a skill (`relPath` is `/`-separated, relative to the skill folder). */
export function skillFileUri(skillPath: string, relPath: string): string {
  return joinSkillUri([...splitPath(skillPath), ...splitPath(relPath)]);
}

/** The directory resource URI of a skill root or one of its subfolders (no trailing slash, SEP-2640 §1). */
export function skillDirUri(skillPath: string, relDir = ''): string {
  return joinSkillUri([...splitPath(skillPath), ...splitPath(relDir)]);
}

/**
 * For a `SKILL.md` URI, the skill path (`acme/billing/refunds`) and name (its final segment);
 * undefined when the URI is unsafe or does not end in `/SKILL.md` below at least one segment.
 */
export function skillPathOf(uri: string): { skillPath: string; name: string } | undefined {
  const parsed = parseSkillUri(uri);
  if (!parsed.ok) return undefined;
  const segs = parsed.uri.segments;
  if (segs.length < 2 || segs[segs.length - 1] !== 'SKILL.md') return undefined;
  const path = segs.slice(0, -1);
  return { skillPath: path.join('/'), name: path[path.length - 1] ?? '' };
}

/** True when `child` (canonical) is `parent` itself or lies below it. */
export function isWithin(parent: string, child: string): boolean {
  return child === parent || child.startsWith(`${parent}/`);
}
