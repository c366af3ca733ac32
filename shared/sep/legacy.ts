/**
 * Lenient parsers for the discovery shapes older servers still emit (docs/skills-over-mcp.md §6):
 * A. the April 2026 draft index, B. the June 2026 index (seed 004), C. FastMCP 3.x `_manifest`.
 * They never throw: they return what they could read and a list of plain-sentence problems,
 * because a host labels these "legacy, unverified" rather than refusing them outright.
 */
import { z } from 'zod';
import { isDigest } from './digest';
import { isSafeSegment } from './skill-uri';

/** What a legacy parser returns: readable items and the problems met on the way. */
export interface LegacyParse<T> {
  items: T[];
  problems: string[];
}

/** One entry of the April 2026 draft index (shape A). */
export interface AprilIndexEntry {
  type: 'skill-md' | 'archive' | 'mcp-resource-template';
  name?: string;
  description?: string;
  url: string;
  digest?: string;
}

/** One archive of a June 2026 entry. */
export interface JuneArchive {
  url: string;
  mimeType?: string;
  digest?: string;
}

/** One entry of the June 2026 index (shape B): `url` (+ `digest`), a non-empty `archives`, or both. */
export interface JuneIndexEntry {
  url?: string;
  digest?: string;
  frontmatter: Record<string, unknown>;
  archives: JuneArchive[];
}

/** One file of a FastMCP `_manifest` (shape C). */
export interface FastMcpManifestFile {
  path: string;
  size?: number;
  hash?: string;
}

/** A FastMCP `skill://<name>/_manifest` document. */
export interface FastMcpManifest {
  skill: string;
  files: FastMcpManifestFile[];
}

/** Schema of shape A entries (lenient: extra fields kept). */
export const AprilIndexEntrySchema = z.looseObject({
  type: z.enum(['skill-md', 'archive', 'mcp-resource-template']),
  name: z.string().optional(),
  description: z.string().optional(),
  url: z.string().min(1),
  digest: z.string().optional(),
});

/** Schema of shape B archives. */
export const JuneArchiveSchema = z.looseObject({
  url: z.string().min(1),
  mimeType: z.string().optional(),
  digest: z.string().optional(),
});

/** Schema of shape B entries. */
export const JuneIndexEntrySchema = z.looseObject({
  url: z.string().min(1).optional(),
  digest: z.string().optional(),
  frontmatter: z.record(z.string(), z.unknown()),
  archives: z.array(JuneArchiveSchema).optional(),
});

/** Schema of the June 2026 index document as the embedded server writes it. */
export const JuneIndexSchema = z.looseObject({ skills: z.array(JuneIndexEntrySchema) });

/** Schema of a FastMCP `_manifest`. */
export const FastMcpManifestSchema = z.looseObject({
  skill: z.string(),
  files: z.array(
    z.looseObject({ path: z.string(), size: z.number().optional(), hash: z.string().optional() }),
  ),
});

function asJson(input: unknown): { value?: unknown; problem?: string } {
  if (typeof input !== 'string') return { value: input };
  try {
    return { value: JSON.parse(input) };
  } catch (e) {
    return {
      problem: `The document is not valid JSON (${e instanceof Error ? e.message : String(e)}).`,
    };
  }
}

function skillsArray(value: unknown, problems: string[]): unknown[] {
  if (
    typeof value !== 'object' ||
    value === null ||
    !Array.isArray((value as { skills?: unknown }).skills)
  ) {
    problems.push('The index has no "skills" list.');
    return [];
  }
  return (value as { skills: unknown[] }).skills;
}

function issueText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(entry)'}: ${i.message}`).join('; ');
}

/** Read an April 2026 draft `skill://index.json` (text or parsed JSON). */
export function parseAprilIndex(input: unknown): LegacyParse<AprilIndexEntry> {
  const problems: string[] = [];
  const { value, problem } = asJson(input);
  if (problem) return { items: [], problems: [problem] };
  const items: AprilIndexEntry[] = [];
  skillsArray(value, problems).forEach((raw, i) => {
    const r = AprilIndexEntrySchema.safeParse(raw);
    if (!r.success) {
      problems.push(`Entry ${i + 1} was left out: ${issueText(r.error)}.`);
      return;
    }
    if (r.data.digest !== undefined && !isDigest(r.data.digest))
      problems.push(
        `Entry ${i + 1} has a digest that is not "sha256:" and 64 lowercase hex digits.`,
      );
    items.push({
      type: r.data.type,
      name: r.data.name,
      description: r.data.description,
      url: r.data.url,
      digest: r.data.digest,
    });
  });
  return { items, problems };
}

/** Read a June 2026 `skill://index.json` (text or parsed JSON). */
export function parseJuneIndex(input: unknown): LegacyParse<JuneIndexEntry> {
  const problems: string[] = [];
  const { value, problem } = asJson(input);
  if (problem) return { items: [], problems: [problem] };
  const items: JuneIndexEntry[] = [];
  skillsArray(value, problems).forEach((raw, i) => {
    const r = JuneIndexEntrySchema.safeParse(raw);
    if (!r.success) {
      problems.push(`Entry ${i + 1} was left out: ${issueText(r.error)}.`);
      return;
    }
    const archives = r.data.archives ?? [];
    // Why: seed 004 — each entry has `url` (+digest), a non-empty `archives`, or both.
    if (r.data.url === undefined && archives.length === 0) {
      problems.push(`Entry ${i + 1} was left out: it has neither a url nor any archive.`);
      return;
    }
    for (const d of [r.data.digest, ...archives.map((a) => a.digest)]) {
      if (d !== undefined && !isDigest(d))
        problems.push(
          `Entry ${i + 1} has a digest that is not "sha256:" and 64 lowercase hex digits.`,
        );
    }
    items.push({
      url: r.data.url,
      digest: r.data.digest,
      frontmatter: r.data.frontmatter,
      archives: archives.map((a) => ({ url: a.url, mimeType: a.mimeType, digest: a.digest })),
    });
  });
  return { items, problems };
}

/** Read a FastMCP 3.x `_manifest` (text or parsed JSON). */
export function parseFastMcpManifest(input: unknown): LegacyParse<FastMcpManifest> {
  const { value, problem } = asJson(input);
  if (problem) return { items: [], problems: [problem] };
  const r = FastMcpManifestSchema.safeParse(value);
  if (!r.success)
    return { items: [], problems: [`The manifest was not understood: ${issueText(r.error)}.`] };
  const problems: string[] = [];
  const files = r.data.files.filter((f) => {
    // Why every segment through isSafeSegment: the path becomes a skill:// URI (and a file name
    // on Save), so it must hold only names such a URI can carry; `/a` starts with an empty one.
    const bad = f.path.split('/').some((segment) => !isSafeSegment(segment));
    if (bad)
      problems.push(
        `The manifest path ${JSON.stringify(f.path)} was left out: it is empty, absolute, steps outside the skill or holds a character no file name can.`,
      );
    return !bad;
  });
  return {
    items: [
      {
        skill: r.data.skill,
        files: files.map((f) => ({ path: f.path, size: f.size, hash: f.hash })),
      },
    ],
    problems,
  };
}

/** Is this the shape of a June index (entries with `frontmatter`) rather than an April one (entries with `type`)? */
export function detectIndexShape(input: unknown): 'april-2026' | 'june-2026' | 'unknown' {
  const { value } = asJson(input);
  const list =
    typeof value === 'object' && value !== null
      ? (value as { skills?: unknown }).skills
      : undefined;
  if (!Array.isArray(list) || list.length === 0) return 'unknown';
  const first = list[0] as Record<string, unknown>;
  if (typeof first?.frontmatter === 'object') return 'june-2026';
  if (typeof first?.type === 'string') return 'april-2026';
  return 'unknown';
}
