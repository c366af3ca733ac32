import { TARGETS } from '../../shared/projection';
import type { TargetId } from '../../shared/projection';
import type {
  Diagnostic,
  FileView,
  ProfileId,
  Range,
  RuleInfo,
  Severity,
} from '../../shared/validation';
import { PROFILE_IDS } from '../../shared/validation';
import { formatBytesAgainst } from '../../shared/text/bytes';
import { isUtf8 } from 'node:buffer';
import { LineIndex } from '../../shared/skill';
import { firstInvalidUtf8 } from '../../shared/text/utf8';

function every(s: Severity): Partial<Record<ProfileId, Severity>> {
  return Object.fromEntries(PROFILE_IDS.map((p) => [p, s]));
}

/**
 * Rules that need the disk or the whole library, checked here in main/validate (the pure core
 * in shared/validation covers the rest). Same shape as the core's RULES, for SARIF and help.
 */
const DISK_CATALOG = [
  // Spec §2 claude-upload "≤ 200 files; ≤ 30 MB uncompressed" and §3 archive "≤ 512 files, ≤ 16 MiB".
  {
    id: 'package/too-many-files',
    title: 'Too many files for an export target',
    help: 'The skill has more files than a destination accepts (claude.ai upload: 200; Agent Skills archive: 512).',
    severity: { 'claude-upload': 'error', agentskills: 'warning' },
  },
  {
    id: 'package/too-large',
    title: 'Too large for an export target',
    help: 'The skill folder is bigger than a destination accepts (claude.ai and the Claude API: 30 MB; Agent Skills archive: 16.8 MB, which is 16 MiB).',
    severity: { 'claude-upload': 'error', agentskills: 'warning' },
  },
  {
    id: 'file/unreadable',
    title: 'SKILL.md cannot be read',
    help: 'Skillbench could not read the file (permissions, or it vanished).',
    severity: every('error'),
  },
  {
    id: 'file/not-utf8',
    title: 'SKILL.md is not UTF-8 text',
    help: 'Some bytes of SKILL.md are not UTF-8 (often a file saved as Windows-1252 or Latin-1). The skill server does not serve it, strict readers refuse it, and an editor that saves it as text replaces those bytes with "�". Claude Code reads it with the "�" in place. Save the file as UTF-8.',
    severity: { ...every('error'), 'claude-code': 'warning' },
  },
  // library-wide checks.
  {
    id: 'library/duplicate-name',
    title: 'Two skills with the same name',
    help: 'Agents tell skills apart by name; two skills with one name hide each other. The skill server serves both, each by its path, so for it this is a warning: a host that lists its skills by name still shows one.',
    severity: { ...every('error'), 'claude-code': 'warning', 'mcp-serve': 'warning' },
  },
  {
    id: 'library/depends-on-missing',
    title: 'Dependency not in the library',
    help: 'A `depends_on` entry names a skill that is not in this library.',
    severity: { 'x-personal-mcp': 'error', 'universal-2.1': 'error' },
  },
  {
    id: 'library/description-budget',
    title: 'Descriptions over the listing budget',
    help: 'All descriptions together exceed 8,000 characters; agents may drop skills from the list they show the model.',
    severity: every('warning'),
  },
] as const satisfies readonly RuleInfo[];

/** The rules checked here, for people and SARIF (the same shape as the core's). */
export const DISK_RULES: readonly RuleInfo[] = DISK_CATALOG;

/** A rule id of the disk and library checks: a misspelt id does not compile. */
export type DiskRuleId = (typeof DISK_CATALOG)[number]['id'];

const BY_ID = new Map(DISK_RULES.map((r) => [r.id, r]));

/** Severity of a main-side rule in a profile, or null when the profile does not check it. */
export function diskSeverity(ruleId: DiskRuleId, profile: ProfileId): Severity | null {
  return BY_ID.get(ruleId)?.severity[profile] ?? null;
}

/** Build a diagnostic of a main-side rule, or null when `profile` does not check it. */
export function diskDiagnostic(
  ruleId: DiskRuleId,
  profile: ProfileId,
  d: { message: string; detail?: string; range?: Range; file?: string; field?: string },
): Diagnostic | null {
  const severity = diskSeverity(ruleId, profile);
  if (!severity) return null;
  const out: Diagnostic = { ruleId, severity, profile, message: d.message };
  if (d.detail !== undefined) out.detail = d.detail;
  if (d.range !== undefined) out.range = d.range;
  if (d.file !== undefined) out.file = d.file;
  if (d.field !== undefined) out.field = d.field;
  return out;
}

/**
 * Files and bytes of the skill as a package would contain them: the file set without what is
 * withheld when the skill is shared (the file view never holds what a skill never holds).
 */
export function packageSize(view: FileView): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const e of view.entries) {
    if (e.withheld || e.kind === 'directory') continue;
    files++;
    if (e.kind === 'file') bytes += e.size;
  }
  return { files, bytes };
}

/** Whether the skill fits one export target's limits. */
export interface TargetFit {
  target: TargetId;
  label: string;
  maxFiles?: number;
  maxBytes?: number;
  fits: boolean;
}

/** Per export target with limits: does the package fit (docs/skill-format.md §3 table, "limits" column)? */
export function targetFits(size: { files: number; bytes: number }): TargetFit[] {
  const out: TargetFit[] = [];
  for (const t of TARGETS) {
    const { maxFiles, maxBytes } = t.limits;
    if (maxFiles === undefined && maxBytes === undefined) continue;
    const fit: TargetFit = {
      target: t.id,
      label: t.label,
      fits:
        (maxFiles === undefined || size.files <= maxFiles) &&
        (maxBytes === undefined || size.bytes <= maxBytes),
    };
    if (maxFiles !== undefined) fit.maxFiles = maxFiles;
    if (maxBytes !== undefined) fit.maxBytes = maxBytes;
    out.push(fit);
  }
  return out;
}

/**
 * File count and size per export target, filed under each target's package profile (the
 * mcp-serve limits are the core's `files/too-many` and `files/too-large`).
 */
export function packageDiagnostics(
  size: { files: number; bytes: number },
  profiles: readonly ProfileId[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const profile of profiles) {
    if (profile === 'mcp-serve') continue;
    const targets = TARGETS.filter((t) => t.packageProfile === profile);
    const tooMany = targets.filter(
      (t) => t.limits.maxFiles !== undefined && size.files > t.limits.maxFiles,
    );
    const tooBig = targets.filter(
      (t) => t.limits.maxBytes !== undefined && size.bytes > t.limits.maxBytes,
    );
    if (tooMany.length > 0) {
      const max = Math.min(...tooMany.map((t) => t.limits.maxFiles ?? Infinity));
      const d = diskDiagnostic('package/too-many-files', profile, {
        message: `The skill has ${size.files} files; ${tooMany.map((t) => t.label).join(', ')} accept${tooMany.length === 1 ? 's' : ''} at most ${max}. Remove files the skill does not need.`,
        detail:
          profile === 'claude-upload'
            ? `Zip contains too many files (maximum ${max})`
            : `${size.files} files > ${max}`,
      });
      if (d) out.push(d);
    }
    if (tooBig.length > 0) {
      const max = Math.min(...tooBig.map((t) => t.limits.maxBytes ?? Infinity));
      const [held, most] = formatBytesAgainst(size.bytes, max);
      const d = diskDiagnostic('package/too-large', profile, {
        message: `The skill folder holds ${held}; ${tooBig.map((t) => t.label).join(', ')} accept${tooBig.length === 1 ? 's' : ''} at most ${most}. Remove large files.`,
        detail:
          profile === 'claude-upload'
            ? 'Zip file uncompressed size exceeds 30MB'
            : `${size.bytes} bytes > ${max}`,
      });
      if (d) out.push(d);
    }
  }
  return out;
}

/** Where a file stops being UTF-8: the first such byte (hex) and its place in the decoded text. */
export interface NotUtf8Place {
  hex: string;
  range: Range;
}

/** The first byte of `bytes` that is not UTF-8, placed in `text` (their decoding); undefined for UTF-8. */
export function notUtf8Place(bytes: Uint8Array, text: string): NotUtf8Place | undefined {
  if (isUtf8(bytes)) return undefined;
  const at = Math.max(0, firstInvalidUtf8(bytes));
  // The bytes before are UTF-8, so their text is the start of `text`.
  const offset = Buffer.from(bytes.buffer, bytes.byteOffset, at).toString('utf8').length;
  const range = new LineIndex(text).rangeAt(offset, Math.min(offset + 1, text.length));
  return { hex: (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0'), range };
}

/** "the byte 0xE9 at line 3, column 17", for messages. */
export function notUtf8Words(place: NotUtf8Place): string {
  return `the byte 0x${place.hex} at line ${place.range.start.line}, column ${place.range.start.column}`;
}

/**
 * The place where SKILL.md stops being UTF-8, as a diagnostic per profile; none when it is
 * UTF-8. Why on the bytes: the text the rules see was decoded with "�" for each bad byte, so
 * nothing in it tells a file that is not UTF-8 from one that is (the server reads the bytes).
 */
export function notUtf8Diagnostics(
  bytes: Uint8Array,
  text: string,
  profiles: readonly ProfileId[],
): Diagnostic[] {
  const place = notUtf8Place(bytes, text);
  if (!place) return [];
  return profiles.flatMap(
    (p) =>
      diskDiagnostic('file/not-utf8', p, {
        message: `SKILL.md is not UTF-8 text: ${notUtf8Words(place)} is not UTF-8 (shown as "�"). Save the file as UTF-8.`,
        range: place.range,
      }) ?? [],
  );
}
