/**
 * URI checks on the client side. A remote server names the URIs we read; before any request we
 * check the parsed scheme and the path so a hostile listing cannot make us read a local file or
 * write outside a library folder later.
 */
import { isSafeSegment, parseSkillUri, SKILL_MD } from '../../shared/sep';

/** The lowercased scheme with its colon (`skill:`), or undefined when the text has none (RFC 3986 §3.1). */
export function schemeOf(uri: string): string | undefined {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri);
  return m ? `${(m[1] ?? '').toLowerCase()}:` : undefined;
}

/** May we send `resources/read` for this URI? Never throws. */
export function checkReadableUri(uri: unknown): { ok: true } | { ok: false; reason: string } {
  if (typeof uri !== 'string' || uri.length === 0)
    return { ok: false, reason: 'The URI is empty.' };
  if (uri.length > 4096) return { ok: false, reason: 'The URI is longer than 4096 characters.' };
  const scheme = schemeOf(uri);
  if (!scheme) return { ok: false, reason: `"${uri}" has no URI scheme.` };
  // Why: a file: URI names a file on *our* machine's side of many hosts; refuse it by parsed scheme,
  // never by a text prefix, so `FILE:` and `File:` are caught too (docs/skills-over-mcp.md §5).
  if (scheme === 'file:')
    return {
      ok: false,
      reason: `"${uri}" is a file: URI, which is refused: a skill server must not point at local files.`,
    };
  if (scheme === 'skill:') {
    // Why: the shared parser rejects `..`, encoded slashes, queries and fragments (shared/sep/skill-uri.ts).
    const parsed = parseSkillUri(uri);
    if (!parsed.ok) return { ok: false, reason: `"${uri}" was refused: ${parsed.reason}` };
  }
  return { ok: true };
}

/** The skill folder URI of a `SKILL.md` URI (without the trailing `/SKILL.md`), or undefined. */
export function skillRootOf(skillMdUri: string): string | undefined {
  const suffix = `/${SKILL_MD}`;
  if (!skillMdUri.endsWith(suffix)) return undefined;
  const root = skillMdUri.slice(0, -suffix.length);
  const scheme = schemeOf(root);
  if (!scheme || root.length <= scheme.length + 2) return undefined;
  return root;
}

/** The skill path (`acme/billing/refunds`) of a `skill://` SKILL.md URI, or undefined. */
export function skillPathOfUri(skillMdUri: string): string | undefined {
  const parsed = parseSkillUri(skillMdUri);
  if (!parsed.ok) return undefined;
  const segs = parsed.uri.segments;
  if (segs.length < 2 || segs[segs.length - 1] !== SKILL_MD) return undefined;
  return segs.slice(0, -1).join('/');
}

/** The final segment of the skill folder URI (what must equal the frontmatter `name`, SEP-2640 §1). */
export function finalSegment(rootUri: string): string {
  const scheme = schemeOf(rootUri) ?? '';
  const rest = rootUri.slice(scheme.length).replace(/^\/\//, '');
  const last = rest.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * The `/`-separated path of `uri` inside the skill folder `rootUri`, decoded, or undefined when the
 * URI is outside the folder or a segment is unsafe (`..`, an encoded slash, empty).
 */
export function relativePathIn(rootUri: string, uri: string): string | undefined {
  if (!uri.startsWith(`${rootUri}/`)) return undefined;
  const rest = uri.slice(rootUri.length + 1);
  if (/[?#\\]/.test(rest)) return undefined;
  const out: string[] = [];
  for (const raw of rest.split('/')) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    // Why: the path is later joined onto a library folder; `..` or an encoded slash would step out of it.
    if (!isSafeSegment(seg)) return undefined;
    out.push(seg);
  }
  return out.join('/');
}

/**
 * Why a URI a skill's manifest lists may not be read as part of that skill, as a plain sentence;
 * undefined when it is a safe path inside the skill folder. Decided before any read, and the URI
 * is never requested afterwards (docs/skills-over-mcp.md §5 "Verifying every read").
 */
export function manifestUriProblem(rootUri: string, uri: string): string | undefined {
  const check = checkReadableUri(uri);
  if (!check.ok) return check.reason;
  if (relativePathIn(rootUri, uri) === undefined)
    return `"${uri}" is outside the skill folder ${rootUri}.`;
  return undefined;
}

/** The key of a skill: host-assigned server label plus URI (SEP-2640 §5: never the self-reported name). */
export function skillKey(server: string, uri: string): string {
  return `${server}\n${uri}`;
}

/** Split a skill key back into its label and URI. */
export function parseSkillKey(key: string): { server: string; uri: string } | undefined {
  const i = key.indexOf('\n');
  return i < 0 ? undefined : { server: key.slice(0, i), uri: key.slice(i + 1) };
}

/**
 * The problem of a manifest that leaves out the skill's own SKILL.md (a faulty entry,
 * docs/skills-over-mcp.md §5 point 2), or undefined; judged from the listing alone.
 */
export function missingSkillMdProblem(
  skillMdUri: string,
  manifest: readonly { uri: string }[],
): string | undefined {
  return manifest.some((f) => f.uri === skillMdUri)
    ? undefined
    : "The manifest does not list the skill's own SKILL.md.";
}
