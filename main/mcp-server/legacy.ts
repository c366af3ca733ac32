/**
 * Legacy compatibility resources, computed lazily per snapshot (issue 5 point 4):
 * - `skill://index.json` in the June 2026 shape of seed 004 (SKILLS-OVER-MCP.md §6 B):
 *   `{skills: [{url, digest, frontmatter, archives: [{url, mimeType, digest}]}]}`;
 * - each skill's `.tar.gz` and `.zip` (SKILL.md at the archive root, reproducible bytes),
 *   beside the skill folder: `skill://acme/billing/refunds.tar.gz`;
 * - the seed-000 mapping for skills with an `x-personal-mcp` block:
 *   `resource://skills/<id>/document` and one resource per reference.
 */
import { createHash } from 'node:crypto';
import { joinSkillUri, joinUri, LEGACY_INDEX_URI } from '../../shared/sep';
import { tarGzBytes, zipBytes } from './archive';
import type { CatalogSnapshot, ServedSkill } from './catalog';

/** A resource the legacy layer serves, with its bytes and listing metadata. */
export interface LegacyResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  /** Bytes, computed on first use. */
  bytes(): Uint8Array;
  /** Text when the content is UTF-8 text; undefined for archives. */
  text?(): string;
  annotations?: { audience?: ('user' | 'assistant')[]; priority?: number };
  _meta?: Record<string, unknown>;
}

/** The legacy view of one snapshot. */
export interface LegacyView {
  /** Every legacy resource by URI. */
  byUri: Map<string, LegacyResource>;
  /** In listing order. */
  list: LegacyResource[];
}

const views = new WeakMap<CatalogSnapshot, Map<string, LegacyView>>();

function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function once<T>(fn: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = fn();
      done = true;
    }
    return value;
  };
}

/** The archive URIs of a skill: its folder path with `.tar.gz` / `.zip` appended to the last segment. */
export function archiveUris(skill: ServedSkill): { tarGz: string; zip: string } {
  const segs = skill.skillPath.split('/');
  const last = segs.pop() ?? skill.name;
  return {
    tarGz: joinSkillUri([...segs, `${last}.tar.gz`]),
    zip: joinSkillUri([...segs, `${last}.zip`]),
  };
}

/** The legacy resources of a snapshot (built once per snapshot, bytes on first read). */
export function legacyView(
  snapshot: CatalogSnapshot,
  options: { archives: boolean; personal: boolean },
): LegacyView {
  const key = `${options.archives}/${options.personal}`;
  const perSnapshot = views.get(snapshot) ?? new Map<string, LegacyView>();
  views.set(snapshot, perSnapshot);
  const cached = perSnapshot.get(key);
  if (cached) return cached;
  const list: LegacyResource[] = [];
  const archives = new Map<ServedSkill, { tarGz: () => Uint8Array; zip: () => Uint8Array }>();
  for (const skill of snapshot.skills) {
    const files = skill.files.map((f) => ({ path: f.relPath, bytes: f.bytes }));
    archives.set(skill, { tarGz: once(() => tarGzBytes(files)), zip: once(() => zipBytes(files)) });
  }
  if (options.archives) {
    const indexBytes = once(() => {
      const doc = {
        skills: snapshot.skills.map((s) => {
          const a = archives.get(s) as { tarGz: () => Uint8Array; zip: () => Uint8Array };
          const uris = archiveUris(s);
          const md = s.files.find((f) => f.relPath === 'SKILL.md');
          return {
            url: s.uri,
            digest: md?.digest,
            frontmatter: s.frontmatter,
            archives: [
              { url: uris.tarGz, mimeType: 'application/gzip', digest: sha256(a.tarGz()) },
              { url: uris.zip, mimeType: 'application/zip', digest: sha256(a.zip()) },
            ],
          };
        }),
      };
      return new TextEncoder().encode(`${JSON.stringify(doc, null, 2)}\n`);
    });
    list.push({
      uri: LEGACY_INDEX_URI,
      name: 'index.json',
      title: 'Skill index (legacy, June 2026 shape)',
      description:
        'Every served skill with its SKILL.md digest and .tar.gz/.zip archives, for clients that predate the skills extension.',
      mimeType: 'application/json',
      bytes: indexBytes,
      text: once(() => new TextDecoder().decode(indexBytes())),
    });
    for (const skill of snapshot.skills) {
      const a = archives.get(skill) as { tarGz: () => Uint8Array; zip: () => Uint8Array };
      const uris = archiveUris(skill);
      list.push({
        uri: uris.tarGz,
        name: `${skill.name}.tar.gz`,
        description: `Archive of ${skill.skillPath} (SKILL.md at the root).`,
        mimeType: 'application/gzip',
        bytes: a.tarGz,
      });
      list.push({
        uri: uris.zip,
        name: `${skill.name}.zip`,
        description: `Archive of ${skill.skillPath} (SKILL.md at the root).`,
        mimeType: 'application/zip',
        bytes: a.zip,
      });
    }
  }
  if (options.personal) {
    const seen = new Set<string>();
    for (const skill of snapshot.skills) {
      const p = skill.personal;
      // Why: ids address resources; the first skill with an id owns it, like a URI (SEP-2640 §3).
      if (!p || seen.has(p.id) || !/^[a-z][a-z0-9-]*$/.test(p.id)) continue;
      seen.add(p.id);
      const md = skill.files.find((f) => f.relPath === 'SKILL.md');
      if (!md) continue;
      const common = { tags: p.tags, version: p.version };
      // Seed 000: read-only resources. MCP resource annotations have no read-only hint (only tools
      // do, `readOnlyHint`), so it is carried in `_meta.read_only`; the server accepts no writes anyway.
      list.push({
        uri: joinUri('resource:', ['skills', p.id, 'document']),
        name: p.id,
        title: skill.name,
        description: skill.description,
        mimeType: 'text/markdown',
        bytes: () => md.bytes,
        text: () => md.text ?? '',
        annotations: { audience: ['user', 'assistant'], priority: 1 },
        _meta: {
          skill_id: p.id,
          path: 'SKILL.md',
          read_only: true,
          depends_on: p.dependsOn,
          ...common,
        },
      });
      for (const ref of p.references) {
        const file = skill.files.find((f) => f.relPath === ref.path);
        if (!file) continue;
        list.push({
          uri: joinUri('resource:', ['skills', p.id, 'references', ref.refId]),
          name: ref.refId,
          title: ref.title ?? ref.refId,
          mimeType: ref.mimeType,
          bytes: () => file.bytes,
          text: file.text !== undefined ? () => file.text ?? '' : undefined,
          annotations: { audience: ['user', 'assistant'], priority: 0.5 },
          _meta: { skill_id: p.id, ref_id: ref.refId, path: ref.path, read_only: true, ...common },
        });
      }
    }
  }
  list.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  const view = { byUri: new Map(list.map((r) => [r.uri, r])), list };
  perSnapshot.set(key, view);
  return view;
}
