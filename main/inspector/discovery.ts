/**
 * Discovery with fallbacks (docs/skills-over-mcp.md §3 and §6): the Skills extension
 * first, then `skill://index.json` (April and June 2026 shapes), then FastMCP `_manifest`
 * resources, then `resources/list` entries ending in `/SKILL.md`, then resource templates with
 * URIs the caller supplies. Every step is recorded so the route taken can be shown. Nothing is
 * read ahead of need: the only read is the legacy index, which *is* the listing.
 */
import { z } from 'zod';
import {
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  detectIndexShape,
  INVALID_PARAMS,
  LEGACY_INDEX_URI,
  parseAprilIndex,
  parseJuneIndex,
  SkillEntrySchema,
} from '../../shared/sep';
import type { SkillEntry } from '../../shared/sep';
import { InspectorError, rpcCode } from './errors';
import type { InspectorSession } from './session';
import {
  checkReadableUri,
  finalSegment,
  manifestUriProblem,
  missingSkillMdProblem,
  relativePathIn,
  skillKey,
  skillPathOfUri,
  skillRootOf,
} from './uris';
import { LEGACY_LABEL } from './types';
import type {
  DiscoveryResult,
  DiscoveryRoute,
  DiscoveryStep,
  InspectedSkill,
  ManifestFile,
} from './types';
import { count } from '../../shared/text/words';

/** Options for {@link discoverSkills}. */
export interface DiscoverOptions {
  /** Concrete SKILL.md URIs the user typed for a resource template (route 5). */
  templateUris?: string[];
  /** Keep trying later routes even after one found skills. Default false. */
  allRoutes?: boolean;
  signal?: AbortSignal;
}

/** JSON-RPC "method not found": the server does not offer that method at all. */
const METHOD_NOT_FOUND = -32601;

const LoosePage = z.looseObject({
  skills: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** Build an inspected skill from a Skills-extension entry; undefined (with a problem) when unusable. */
export function skillFromEntry(
  server: string,
  entry: SkillEntry,
  problems: string[],
): InspectedSkill | undefined {
  const uriCheck = checkReadableUri(entry.uri);
  if (!uriCheck.ok) {
    problems.push(`An entry was left out: ${uriCheck.reason}`);
    return undefined;
  }
  const rootUri = skillRootOf(entry.uri);
  if (!rootUri) {
    problems.push(
      `The entry ${entry.uri} was left out: a skill URI must end in /SKILL.md (SEP-2640 §1).`,
    );
    return undefined;
  }
  const skillProblems: string[] = [];
  let manifest: ManifestFile[] | 'dynamic';
  if (entry.resources === 'dynamic') manifest = 'dynamic';
  else {
    manifest = entry.resources.map((r) => ({
      uri: r.uri,
      path: relativePathIn(rootUri, r.uri),
      digest: r.digest,
      size: r.size,
    }));
    for (const f of manifest) {
      const problem = manifestUriProblem(rootUri, f.uri);
      if (problem)
        skillProblems.push(`The manifest lists a file that is not part of the skill: ${problem}`);
    }
    const missing = missingSkillMdProblem(entry.uri, manifest);
    if (missing) skillProblems.push(missing);
  }
  const fm = entry.frontmatter as Record<string, unknown>;
  // Why: the final segment of the skill path must equal the frontmatter name (docs/skills-over-mcp.md
  // §1); a host that let them differ could show the user one skill and load another.
  const last = finalSegment(rootUri);
  if (fm.name !== last)
    skillProblems.push(
      `The skill is called ${JSON.stringify(fm.name)}, but its address ends in "${last}"; the two must be the same.`,
    );
  return {
    key: skillKey(server, entry.uri),
    server,
    uri: entry.uri,
    name: typeof fm.name === 'string' ? fm.name : finalSegment(rootUri),
    description: typeof fm.description === 'string' ? fm.description : undefined,
    skillPath: skillPathOfUri(entry.uri),
    rootUri,
    route: 'extension',
    frontmatter: fm,
    manifest,
    sameNameAs: [],
    problems: skillProblems,
  };
}

function legacySkill(
  server: string,
  uri: string,
  route: DiscoveryRoute,
  extra: Partial<InspectedSkill>,
  problems: string[],
): InspectedSkill | undefined {
  const check = checkReadableUri(uri);
  if (!check.ok) {
    problems.push(`A legacy entry was left out: ${check.reason}`);
    return undefined;
  }
  const rootUri = skillRootOf(uri);
  if (!rootUri) {
    problems.push(`The legacy entry ${uri} was left out: it does not end in /SKILL.md.`);
    return undefined;
  }
  return {
    key: skillKey(server, uri),
    server,
    uri,
    name: finalSegment(rootUri),
    skillPath: skillPathOfUri(uri),
    rootUri,
    route,
    label: LEGACY_LABEL,
    sameNameAs: [],
    problems: [],
    ...extra,
  };
}

/** Page through a list method to the end or the page bound; returns items and whether it was cut short. */
async function pageAll<T>(
  fetchPage: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>,
  maxPages: number,
  what: string,
  problems: string[],
): Promise<{ items: T[]; pages: number; partial: boolean }> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    if (pages >= maxPages) {
      // Why: a server may hand out cursors forever; docs/skills-over-mcp.md §5 "bound page counts".
      problems.push(
        `Stopped ${what} after ${maxPages} pages; the server kept returning a next page. The listing is partial.`,
      );
      return { items, pages, partial: true };
    }
    const page = await fetchPage(cursor);
    pages++;
    items.push(...page.items);
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (seen.has(cursor)) {
        problems.push(
          `Stopped ${what}: the server returned the same cursor twice, which would loop forever. The listing is partial.`,
        );
        return { items, pages, partial: true };
      }
      seen.add(cursor);
    }
  } while (cursor !== undefined);
  return { items, pages, partial: false };
}

/** Follow `skills/list` to the end (bounded); entries that do not parse are reported, not dropped silently. */
export async function listExtensionSkills(
  session: InspectorSession,
  signal?: AbortSignal,
): Promise<{
  skills: InspectedSkill[];
  pages: number;
  partial: boolean;
  problems: string[];
  raw: unknown[];
}> {
  const problems: string[] = [];
  const { items, pages, partial } = await pageAll(
    async (cursor) => {
      const r = await session.request(
        'skills/list',
        cursor !== undefined ? { cursor } : {},
        LoosePage,
        signal,
      );
      return { items: r.skills, nextCursor: r.nextCursor };
    },
    session.limits.maxPages,
    'skills/list',
    problems,
  );
  const skills: InspectedSkill[] = [];
  const seen = new Set<string>();
  items.forEach((raw, i) => {
    const parsed = SkillEntrySchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(
        `Entry ${i + 1} of skills/list was left out: ${parsed.error.issues.map((x) => `${x.path.join('.') || '(entry)'}: ${x.message}`).join('; ')}.`,
      );
      return;
    }
    if (seen.has(parsed.data.uri)) {
      problems.push(`${parsed.data.uri} was listed more than once; the first entry is kept.`);
      return;
    }
    seen.add(parsed.data.uri);
    const s = skillFromEntry(session.label, parsed.data, problems);
    if (s) skills.push(s);
  });
  return { skills, pages, partial, problems, raw: items };
}

/** Mark skills that share a name with the keys of the others (shown side by side, never shadowed). */
export function markSameNames(skills: InspectedSkill[]): void {
  const byName = new Map<string, InspectedSkill[]>();
  for (const s of skills) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
  for (const group of byName.values())
    for (const s of group) s.sameNameAs = group.filter((o) => o !== s).map((o) => o.key);
}

/** Run discovery on a connected session. */
export async function discoverSkills(
  session: InspectorSession,
  options: DiscoverOptions = {},
): Promise<DiscoveryResult> {
  const started = performance.now();
  const steps: DiscoveryStep[] = [];
  const problems: string[] = [];
  const skills: InspectedSkill[] = [];
  const templates: DiscoveryResult['templates'] = [];
  let route: DiscoveryRoute | undefined;
  let partial = false;
  const server = session.label;
  const done = (): boolean => skills.length > 0 && options.allRoutes !== true;
  const use = (r: DiscoveryRoute, found: InspectedSkill[]): void => {
    const known = new Set(skills.map((s) => s.key));
    for (const s of found) if (!known.has(s.key)) skills.push(s);
    if (found.length > 0) route ??= r;
  };

  // 1. The Skills extension (SEP-2640 §3).
  if (session.skillsCapability !== undefined) {
    try {
      const r = await listExtensionSkills(session, options.signal);
      problems.push(...r.problems);
      partial ||= r.partial;
      use('extension', r.skills);
      steps.push({
        route: 'extension',
        outcome: r.skills.length ? 'used' : 'empty',
        pages: r.pages,
        detail: `skills/list: ${count(r.skills.length, 'skill')} in ${count(r.pages, 'page')}${r.partial ? ', stopped early' : ''}.`,
      });
    } catch (e) {
      if (e instanceof InspectorError && e.code === 'cancelled') throw e;
      steps.push({
        route: 'extension',
        outcome: 'failed',
        detail: `The server declares the Skills extension but skills/list failed: ${(e as Error).message}`,
      });
    }
  } else
    steps.push({
      route: 'extension',
      outcome: 'not-offered',
      detail: 'The server does not declare the Skills extension (io.modelcontextprotocol/skills).',
    });

  // 2. skill://index.json (April / June 2026).
  if (!done()) {
    try {
      const read = await session.readResource(LEGACY_INDEX_URI, options.signal);
      const text = Buffer.from(read.bytes).toString('utf8');
      const shape = detectIndexShape(text);
      const found: InspectedSkill[] = [];
      if (shape === 'june-2026') {
        const p = parseJuneIndex(text);
        problems.push(...p.problems.map((x) => `index.json: ${x}`));
        for (const e of p.items) {
          const uri =
            e.url ??
            (e.archives[0] ? e.archives[0].url.replace(/\.(tar\.gz|tgz|zip)$/, '/SKILL.md') : '');
          const s = legacySkill(
            server,
            uri,
            'index-june-2026',
            {
              frontmatter: e.frontmatter,
              description:
                typeof e.frontmatter.description === 'string'
                  ? e.frontmatter.description
                  : undefined,
              manifest: e.url ? [{ uri: e.url, path: 'SKILL.md', digest: e.digest }] : undefined,
              archives: e.archives,
            },
            problems,
          );
          if (s) {
            if (typeof e.frontmatter.name === 'string') s.name = e.frontmatter.name;
            found.push(s);
          }
        }
      } else if (shape === 'april-2026') {
        const p = parseAprilIndex(text);
        problems.push(...p.problems.map((x) => `index.json: ${x}`));
        for (const e of p.items) {
          if (e.type === 'mcp-resource-template') {
            templates.push({ uriTemplate: e.url, name: e.name, description: e.description });
            continue;
          }
          const uri =
            e.type === 'skill-md' ? e.url : e.url.replace(/\.(tar\.gz|tgz|zip)$/, '/SKILL.md');
          const s = legacySkill(
            server,
            uri,
            'index-april-2026',
            {
              description: e.description,
              manifest:
                e.type === 'skill-md'
                  ? [{ uri: e.url, path: 'SKILL.md', digest: e.digest }]
                  : undefined,
              archives:
                e.type === 'archive'
                  ? [
                      {
                        url: e.url,
                        digest: e.digest,
                        mimeType: e.url.endsWith('.zip') ? 'application/zip' : 'application/gzip',
                      },
                    ]
                  : undefined,
            },
            problems,
          );
          if (s) {
            if (e.name) s.name = e.name;
            found.push(s);
          }
        }
      } else
        problems.push(
          'skill://index.json was read but its shape (April or June 2026) was not recognised.',
        );
      use(shape === 'june-2026' ? 'index-june-2026' : 'index-april-2026', found);
      steps.push({
        route: shape === 'june-2026' ? 'index-june-2026' : 'index-april-2026',
        outcome: found.length ? 'used' : 'empty',
        detail: `skill://index.json (${shape}): ${found.length} skill(s).`,
      });
    } catch (e) {
      if (e instanceof InspectorError && e.code === 'cancelled') throw e;
      // Why: -32602 is the extension's "not served" (SEP-2640 §3); -32002 is MCP's resource-not-found.
      const code = rpcCode(e);
      const missing = code === INVALID_PARAMS || code === -32002 || code === METHOD_NOT_FOUND;
      steps.push({
        route: 'index-june-2026',
        outcome: missing ? 'not-offered' : 'failed',
        detail: missing
          ? 'The server does not serve skill://index.json.'
          : `Reading skill://index.json failed: ${(e as Error).message}`,
      });
    }
  } else
    steps.push({
      route: 'index-june-2026',
      outcome: 'skipped',
      detail: 'Not needed: an earlier route found skills.',
    });

  // 3–4. resources/list: FastMCP `_manifest` siblings, then plain `/SKILL.md` entries.
  if (!done()) {
    try {
      const r = await pageAll(
        async (cursor) => {
          const page = await session.request(
            'resources/list',
            cursor !== undefined ? { cursor } : {},
            ListResourcesResultSchema,
            options.signal,
          );
          return { items: page.resources, nextCursor: page.nextCursor };
        },
        session.limits.maxPages,
        'resources/list',
        problems,
      );
      partial ||= r.partial;
      const uris = new Set(r.items.map((x) => x.uri));
      const fast: InspectedSkill[] = [];
      const plain: InspectedSkill[] = [];
      for (const res of r.items) {
        if (!res.uri.endsWith('/SKILL.md')) continue;
        const root = skillRootOf(res.uri);
        const manifestUri = root ? `${root}/_manifest` : undefined;
        const extra: Partial<InspectedSkill> = { description: res.description };
        if (manifestUri && uris.has(manifestUri)) {
          const s = legacySkill(
            server,
            res.uri,
            'fastmcp-manifest',
            { ...extra, manifestUri },
            problems,
          );
          if (s) fast.push(s);
        } else {
          const s = legacySkill(server, res.uri, 'resources-list', extra, problems);
          if (s) plain.push(s);
        }
      }
      use('fastmcp-manifest', fast);
      steps.push({
        route: 'fastmcp-manifest',
        outcome: fast.length ? 'used' : 'empty',
        pages: r.pages,
        detail: `resources/list: ${count(fast.length, 'skill')} with a FastMCP _manifest.`,
      });
      if (!done() || plain.length > 0) {
        use('resources-list', plain);
        steps.push({
          route: 'resources-list',
          outcome: plain.length ? 'used' : 'empty',
          pages: r.pages,
          detail: `resources/list: ${count(plain.length, 'other resource')} ending in /SKILL.md (of ${r.items.length} listed).`,
        });
      }
    } catch (e) {
      if (e instanceof InspectorError && e.code === 'cancelled') throw e;
      // Why: -32601 (method not found) is a server without resources, not a listing that failed.
      const missing = rpcCode(e) === METHOD_NOT_FOUND;
      steps.push({
        route: 'resources-list',
        outcome: missing ? 'not-offered' : 'failed',
        detail: missing
          ? 'The server does not offer resources/list.'
          : `resources/list failed: ${(e as Error).message}`,
      });
    }
  } else
    steps.push({
      route: 'resources-list',
      outcome: 'skipped',
      detail: 'Not needed: an earlier route found skills.',
    });

  // 5. Resource templates, with the URIs the user typed.
  if (!done() || (options.templateUris?.length ?? 0) > 0) {
    try {
      const r = await pageAll(
        async (cursor) => {
          const page = await session.request(
            'resources/templates/list',
            cursor !== undefined ? { cursor } : {},
            ListResourceTemplatesResultSchema,
            options.signal,
          );
          return { items: page.resourceTemplates, nextCursor: page.nextCursor };
        },
        session.limits.maxPages,
        'resources/templates/list',
        problems,
      );
      for (const t of r.items)
        templates.push({ uriTemplate: t.uriTemplate, name: t.name, description: t.description });
      const found: InspectedSkill[] = [];
      for (const uri of options.templateUris ?? []) {
        const s = legacySkill(server, uri, 'resource-template', {}, problems);
        if (s) found.push(s);
      }
      use('resource-template', found);
      steps.push({
        route: 'resource-template',
        outcome: found.length ? 'used' : 'empty',
        pages: r.pages,
        detail: `${count(r.items.length, 'template')}; ${count(found.length, 'URI')} supplied.`,
      });
    } catch (e) {
      if (e instanceof InspectorError && e.code === 'cancelled') throw e;
      const found: InspectedSkill[] = [];
      for (const uri of options.templateUris ?? []) {
        const s = legacySkill(server, uri, 'resource-template', {}, problems);
        if (s) found.push(s);
      }
      use('resource-template', found);
      const missing = rpcCode(e) === METHOD_NOT_FOUND;
      steps.push({
        route: 'resource-template',
        outcome: found.length ? 'used' : missing ? 'not-offered' : 'failed',
        detail: missing
          ? 'The server does not offer resources/templates/list.'
          : `resources/templates/list failed: ${(e as Error).message}`,
      });
    }
  } else
    steps.push({
      route: 'resource-template',
      outcome: 'skipped',
      detail: 'Not needed: an earlier route found skills.',
    });

  markSameNames(skills);
  return {
    server,
    route,
    steps,
    skills,
    templates,
    partial,
    problems,
    durationMs: Math.round(performance.now() - started),
  };
}
