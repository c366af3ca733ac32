/**
 * Verification of reads (docs/skills-over-mcp.md §5): byte size and sha256 digest of
 * every listed file, field-by-field comparison of SKILL.md frontmatter with the entry, unlisted
 * files as failures. Pure functions over bytes; the session does the reading.
 */
import { grouped } from '../../shared/text/words';
import { isDigest } from '../../shared/sep';
import { parseSkill } from '../../shared/skill';
import type { FileVerification, FrontmatterDiff, ManifestFile } from './types';
import { sha256Digest } from '../platform/digest';
import { isJsonObject, jsonEqual } from '../../shared/json/values';

export { sha256Digest } from '../platform/digest';

function pointer(path: string[]): string {
  return `/${path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/**
 * Compare the entry's frontmatter with the file's, field by field (docs/skills-over-mcp.md §5: "any
 * difference is a verification failure"). Objects are compared per key so the report names the
 * exact field; arrays and scalars as wholes.
 */
export function compareFrontmatter(
  entry: unknown,
  file: unknown,
  path: string[] = [],
): FrontmatterDiff[] {
  if (isJsonObject(entry) && isJsonObject(file)) {
    const diffs: FrontmatterDiff[] = [];
    for (const k of Object.keys(entry)) {
      if (!Object.prototype.hasOwnProperty.call(file, k))
        diffs.push({ field: pointer([...path, k]), kind: 'missing-in-file', entry: entry[k] });
      else diffs.push(...compareFrontmatter(entry[k], file[k], [...path, k]));
    }
    for (const k of Object.keys(file)) {
      if (!Object.prototype.hasOwnProperty.call(entry, k))
        diffs.push({ field: pointer([...path, k]), kind: 'missing-in-entry', file: file[k] });
    }
    return diffs;
  }
  return jsonEqual(entry, file)
    ? []
    : [{ field: path.length ? pointer(path) : '/', kind: 'different', entry, file }];
}

/** The frontmatter of a SKILL.md text as JSON, or a plain reason why it could not be read. */
export function frontmatterOf(
  text: string,
): { ok: true; data: Record<string, unknown> } | { ok: false; reason: string } {
  const parsed = parseSkill(text);
  if (!parsed.frontmatter)
    return { ok: false, reason: 'The served SKILL.md has no frontmatter block.' };
  if (parsed.yamlErrors.length > 0)
    return {
      ok: false,
      reason: `The served SKILL.md frontmatter is not valid YAML: ${parsed.yamlErrors[0]?.message ?? ''}`,
    };
  if (!isJsonObject(parsed.data))
    return { ok: false, reason: 'The served SKILL.md frontmatter is not a mapping of fields.' };
  // Why JSON round-trip: the entry travels as JSON, so compare JSON to JSON (dates and such as JSON would carry them).
  return { ok: true, data: JSON.parse(JSON.stringify(parsed.data)) as Record<string, unknown> };
}

function describeDiff(d: FrontmatterDiff): string {
  const show = (v: unknown): string => {
    const s = JSON.stringify(v);
    return s === undefined ? 'nothing' : s.length > 120 ? `${s.slice(0, 117)}…` : s;
  };
  if (d.kind === 'missing-in-file')
    return `Field ${d.field} is in the listing (${show(d.entry)}) but not in the served SKILL.md.`;
  if (d.kind === 'missing-in-entry')
    return `Field ${d.field} is in the served SKILL.md (${show(d.file)}) but not in the listing.`;
  return `Field ${d.field} differs: the listing says ${show(d.entry)}, the served SKILL.md says ${show(d.file)}.`;
}

/** What we know about one read when verifying it. */
export interface ReadFacts {
  bytes: Uint8Array;
  encoding: 'text' | 'blob';
  mimeType?: string;
  text?: string;
}

/**
 * Verify one read of a file against its manifest entry (or the lack of one). `entryFrontmatter`
 * is given for the skill's own SKILL.md. `listed` false means the file is not in the manifest.
 */
export function verifyRead(
  file: ManifestFile,
  read: ReadFacts,
  options: {
    listed: boolean;
    isSkillMd: boolean;
    entryFrontmatter?: Record<string, unknown>;
    legacy?: boolean;
  },
): FileVerification {
  const digest = sha256Digest(read.bytes);
  const actual = {
    digest,
    size: read.bytes.byteLength,
    mimeType: read.mimeType,
    encoding: read.encoding,
  };
  const base = {
    uri: file.uri,
    path: file.path,
    expected: { digest: file.digest, size: file.size },
    actual,
    checkedAt: new Date().toISOString(),
  };
  // Why: SEP-2640 §5 — "While acting on a skill, read only URIs listed in its manifest; an unlisted file is a verification failure."
  if (!options.listed)
    return {
      ...base,
      status: 'unlisted',
      reasons: ["This file is not in the skill's manifest, so it cannot be trusted."],
    };
  const reasons: string[] = [];
  let failed = false;
  let checked = 0;
  if (file.size !== undefined) {
    checked++;
    // Why: a size mismatch is a failure on its own, equivalent to a digest mismatch (SEP-2640 verification on read).
    if (file.size !== read.bytes.byteLength) {
      failed = true;
      reasons.push(
        `The listing says ${grouped(file.size)} bytes, the server sent ${grouped(read.bytes.byteLength)}.`,
      );
    }
  }
  if (file.digest !== undefined) {
    checked++;
    if (!isDigest(file.digest)) {
      failed = true;
      reasons.push(
        `The listed digest "${file.digest}" is not "sha256:" and 64 lowercase hex digits.`,
      );
    } else if (file.digest !== digest) {
      failed = true;
      reasons.push(
        `The content does not match the listed digest (listed ${file.digest}, got ${digest}).`,
      );
    }
  }
  let frontmatterDiffs: FrontmatterDiff[] | undefined;
  if (options.isSkillMd && options.entryFrontmatter !== undefined) {
    checked++;
    const text = read.text ?? Buffer.from(read.bytes).toString('utf8');
    const fm = frontmatterOf(text);
    if (!fm.ok) {
      failed = true;
      reasons.push(fm.reason);
    } else {
      // Why: SEP-2640 §5 — compare the parsed frontmatter field by field with the entry; any difference fails.
      frontmatterDiffs = compareFrontmatter(options.entryFrontmatter, fm.data);
      if (frontmatterDiffs.length > 0) {
        failed = true;
        reasons.push(...frontmatterDiffs.map(describeDiff));
      }
    }
  }
  if (failed) return { ...base, status: 'mismatch', reasons, frontmatterDiffs };
  if (checked === 0 || options.legacy) {
    const why =
      checked === 0
        ? 'The listing gives no digest or size for this file, so it could not be checked.'
        : 'Checked against a legacy listing, which is not a verified manifest.';
    return { ...base, status: 'unverifiable', reasons: [why], frontmatterDiffs };
  }
  const what = [
    file.size !== undefined ? 'size' : '',
    file.digest !== undefined ? 'digest' : '',
    frontmatterDiffs ? 'frontmatter' : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    ...base,
    status: 'verified',
    reasons: [`Matches the listing (${what}).`],
    frontmatterDiffs,
  };
}
