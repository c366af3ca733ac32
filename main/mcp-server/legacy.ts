/**
 * Legacy compatibility resources, computed lazily per snapshot:
 * - `skill://index.json` in the June 2026 shape of seed 004 (docs/skills-over-mcp.md §6 B):
 *   `{skills: [{url, digest, frontmatter, archives: [{url, mimeType, digest}]}]}`;
 * - each skill's `.tar.gz` and `.zip` (SKILL.md at the archive root, reproducible bytes),
 *   beside the skill folder: `skill://acme/billing/refunds.tar.gz`;
 * - the seed-000 mapping for skills with an `x-personal-mcp` block:
 *   `resource://skills/<id>/document` and one resource per reference.
 */
import { joinSkillUri, joinUri, LEGACY_INDEX_URI } from '../../shared/sep';
import type { ArchiveItem } from '../platform/archive-writer';
import { sha256Digest } from '../platform/digest';
import type { CatalogSnapshot, ServedSkill } from './catalog';

/** A resource the legacy layer serves, with its bytes and listing metadata. */
export interface LegacyResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  /** Bytes, computed on first use. */
  bytes(): Promise<Uint8Array>;
  /** Text when the content is UTF-8 text; undefined for archives. */
  text?(): Promise<string>;
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

/** Compute once, on first use; later calls share the same promise. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= fn());
}

/**
 * A skill's legacy archive with the one archive writer: SKILL.md at the root, the served files
 * only (so an archive never holds a file the listing withholds), sorted by the UTF-8 bytes of
 * their paths so every machine writes the same bytes. No worker threads: one skill is small.
 */
async function skillArchive(format: 'zip' | 'tar.gz', skill: ServedSkill): Promise<Buffer> {
  // Why loaded here: the archive writer (and archiver under it) is needed only when an archive is
  // read, never for a start-up or a listing.
  const { encodeArchive } = await import('../platform/archive-writer');
  const items: ArchiveItem[] = skill.files
    .map((f) => ({
      name: f.relPath,
      kind: 'file' as const,
      mode: 0o644,
      data: Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength),
    }))
    .sort((a, b) => Buffer.compare(Buffer.from(a.name, 'utf8'), Buffer.from(b.name, 'utf8')));
  return encodeArchive(format, items, { pool: null });
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
  type Archives = { tarGz: () => Promise<Uint8Array>; zip: () => Promise<Uint8Array> };
  const archives = new Map<ServedSkill, Archives>();
  for (const skill of snapshot.skills) {
    archives.set(skill, {
      tarGz: once(() => skillArchive('tar.gz', skill)),
      zip: once(() => skillArchive('zip', skill)),
    });
  }
  if (options.archives) {
    const indexBytes = once(async () => {
      const skills = [];
      // Why one skill at a time: building every archive at once would hold them all in memory.
      for (const s of snapshot.skills) {
        const a = archives.get(s) as Archives;
        const uris = archiveUris(s);
        const md = s.files.find((f) => f.relPath === 'SKILL.md');
        skills.push({
          url: s.uri,
          digest: md?.digest,
          frontmatter: s.frontmatter,
          archives: [
            {
              url: uris.tarGz,
              mimeType: 'application/gzip',
              digest: sha256Digest(await a.tarGz()),
            },
            { url: uris.zip, mimeType: 'application/zip', digest: sha256Digest(await a.zip()) },
          ],
        });
      }
      return new TextEncoder().encode(`${JSON.stringify({ skills }, null, 2)}\n`);
    });
    list.push({
      uri: LEGACY_INDEX_URI,
      name: 'index.json',
      title: 'Skill index (legacy, June 2026 shape)',
      description:
        'Every served skill with its SKILL.md digest and .tar.gz/.zip archives, for clients that predate the skills extension.',
      mimeType: 'application/json',
      bytes: indexBytes,
      text: once(async () => new TextDecoder().decode(await indexBytes())),
    });
    for (const skill of snapshot.skills) {
      const a = archives.get(skill) as Archives;
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
        bytes: async () => md.bytes,
        text: async () => md.text ?? '',
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
          bytes: async () => file.bytes,
          text: file.text !== undefined ? async () => file.text ?? '' : undefined,
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
