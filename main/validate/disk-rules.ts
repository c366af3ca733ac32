import type { ParsedSkill } from '../../shared/skill';
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
import { formatBytes } from '../platform/fs-errors';
import { classifyLinkTarget, findFileMentions, findMarkdownLinks } from './markdown-links';

function every(s: Severity): Partial<Record<ProfileId, Severity>> {
  return Object.fromEntries(PROFILE_IDS.map((p) => [p, s]));
}

/**
 * Rules that need the disk or the whole library, checked here in main/validate (the pure core
 * in shared/validation covers the rest). Same shape as the core's RULES, for SARIF and help.
 */
const DISK_CATALOG = [
  // relative Markdown links in the body must resolve inside the skill.
  {
    id: 'links/broken',
    title: 'Link to a missing file',
    help: 'A relative link in SKILL.md points at a file that is not in the skill folder. The agent cannot open it.',
    severity: every('warning'),
  },
  {
    id: 'links/mentioned-missing',
    title: 'Instructions name a missing file',
    help: "The instructions name a file in the skill's scripts/, references/ or assets/ folder (`python scripts/fill.py`) that is not there. The agent will try to open or run it and fail.",
    severity: every('warning'),
  },
  {
    id: 'links/outside-skill',
    title: 'Link leaves the skill folder',
    help: 'A link points outside the skill folder (`../` or an absolute path). Packages contain only the skill folder, so the link breaks once the skill is shared.',
    severity: every('warning'),
  },
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
    help: 'The skill folder is bigger than a destination accepts (claude.ai and the Claude API: 30 MB; Agent Skills archive: 16 MiB).',
    severity: { 'claude-upload': 'error', agentskills: 'warning' },
  },
  {
    id: 'file/unreadable',
    title: 'SKILL.md cannot be read',
    help: 'Skillbench could not read the file (permissions, or it vanished).',
    severity: every('error'),
  },
  // library-wide checks.
  {
    id: 'library/duplicate-name',
    title: 'Two skills with the same name',
    help: 'Agents and the skill server tell skills apart by name; two skills with one name hide each other.',
    severity: { ...every('error'), 'claude-code': 'warning' },
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
 * Relative Markdown links in the body must resolve to a file or folder of the skill, and so
 * must the paths into its scripts/, references/ and assets/ folders that the instructions name
 * (looked up in the file view: no extra disk access). Ranges cover the path in SKILL.md.
 */
export function linkDiagnostics(
  parsed: ParsedSkill,
  view: FileView,
  profiles: readonly ProfileId[],
): Diagnostic[] {
  // Why only the checked part: past VALIDATION_LIMITS.bodyBytes the core reports
  // file/too-complex; scanning a 50 MB body for links cost seconds and hundreds of MB here.
  const body =
    parsed.checkedBodyEnd < parsed.text.length
      ? parsed.text.slice(parsed.bodyStart, parsed.checkedBodyEnd)
      : parsed.body;
  const links = findMarkdownLinks(body, parsed.bodyStart);
  const mentions = findFileMentions(body, parsed.bodyStart, links);
  if (links.length === 0 && mentions.length === 0) return [];
  let paths: Set<string> | undefined;
  let lower: Map<string, string> | undefined;
  /** The path as the skill holds it, or a path that differs only in letter case, or null. */
  const lookUp = (path: string): { found: true } | { found: false; other?: string } => {
    paths ??= new Set(view.entries.map((e) => e.path));
    if (paths.has(path)) return { found: true };
    if (!lower) {
      lower = new Map();
      for (const e of view.entries)
        if (!lower.has(e.path.toLowerCase())) lower.set(e.path.toLowerCase(), e.path);
    }
    const other = lower.get(path.toLowerCase());
    return other === undefined ? { found: false } : { found: false, other };
  };
  const out: Diagnostic[] = [];
  // The same bound on findings as the core's, per profile.
  const max = parsed.limits.findings * profiles.length;
  for (const link of links) {
    if (out.length >= max) break;
    const t = classifyLinkTarget(link.target);
    if (t.kind === 'external') continue;
    let range: Range | undefined;
    const what = link.image ? 'image' : 'link';
    for (const profile of profiles) {
      let d: Diagnostic | null;
      if (t.kind === 'relative') {
        const at = lookUp(t.path);
        if (at.found) break;
        d = diskDiagnostic('links/broken', profile, {
          message:
            at.other !== undefined
              ? `The ${what} "${link.target}" points at a file that is not in the skill folder. There is a "${at.other}" that differs only in capital letters; most systems treat them as different files.`
              : `The ${what} "${link.target}" points at a file that is not in the skill folder, so the agent cannot open it. Add the file or fix the link.`,
          detail: `relative link target ${t.path} not found in the skill folder`,
          range: (range ??= parsed.rangeAt(link.start, link.end)),
        });
      } else {
        d = diskDiagnostic('links/outside-skill', profile, {
          message:
            t.kind === 'absolute'
              ? `The ${what} "${link.target}" is an absolute path on this computer. Once the skill is shared it points nowhere; copy the file into the skill and link to it relatively.`
              : `The ${what} "${link.target}" leaves the skill folder. Only the skill folder is packaged, so the link breaks once the skill is shared; copy the file into the skill.`,
          detail: `${t.kind} link target ${t.path} outside the skill folder`,
          range: (range ??= parsed.rangeAt(link.start, link.end)),
        });
      }
      if (d) out.push(d);
    }
  }
  // Each missing path once, where the instructions first name it.
  const named = new Set<string>();
  for (const mention of mentions) {
    if (out.length >= max) break;
    const t = classifyLinkTarget(mention.path);
    if (t.kind !== 'relative' || named.has(t.path)) continue;
    named.add(t.path);
    const at = lookUp(t.path);
    if (at.found) continue;
    const folder = t.path.slice(0, t.path.indexOf('/'));
    const range = parsed.rangeAt(mention.start, mention.end);
    for (const profile of profiles) {
      const d = diskDiagnostic('links/mentioned-missing', profile, {
        message:
          at.other !== undefined
            ? `The instructions name "${t.path}", but the skill holds "${at.other}", which differs in capital letters; most systems treat them as different files.`
            : `The instructions name "${t.path}", but the skill's ${folder} folder has no such file, so the agent cannot ${folder === 'scripts' ? 'run' : 'open'} it. Add the file or correct the path.`,
        detail: `${t.path} named in the body, not found in the skill folder`,
        range,
      });
      if (d) out.push(d);
    }
  }
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
      const d = diskDiagnostic('package/too-large', profile, {
        message: `The skill folder holds ${formatBytes(size.bytes)}; ${tooBig.map((t) => t.label).join(', ')} accept${tooBig.length === 1 ? 's' : ''} at most ${formatBytes(max)}. Remove large files.`,
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
