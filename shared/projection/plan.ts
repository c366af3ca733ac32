import type { FileView, ProfileId, ValidateOptions, ValidationResult } from '../validation/types';
import { formatBytesAgainst } from '../text/bytes';
import { leftOutByContent, leftOutByPath, tokenLookingContent } from '../skill/file-set';
import { projectSkillText } from './frontmatter';
import { parseSkill } from '../skill/frontmatter-parser';
import { chooseProfiles } from '../validation/choose-profiles';
import {
  collisionKey,
  normaliseOutputPath,
  unportableSegmentReason,
  utf8Length,
} from './normalise';
import { getTarget } from './targets';
import type {
  ExportPlan,
  PackageIssue,
  PlanEntry,
  SourceEntry,
  TargetDefinition,
  TargetId,
} from './types';

/** The validation core's entry point, injected so that projection does not depend on its build order. */
export type ValidateFn = (text: string, options: ValidateOptions) => ValidationResult;

/** Everything {@link planExport} needs, all of it read from disk by main/pack beforehand. */
export interface PlanInput {
  target: TargetId;
  /** SKILL.md as read from disk. */
  skillText: string;
  /** The skill file's name on disk (`SKILL.md`, or `skill.md`). */
  skillFileName: string;
  /** The skill folder's own name. */
  folderName: string;
  /** Every path of the skill folder (SKILL.md included), from lstat. */
  entries: SourceEntry[];
  /** Source paths the user keeps despite a warning (secret-looking files, links inside the skill). */
  keep?: readonly string[];
  /** Archive and folder targets: project the frontmatter as for an upload (uploads always are). */
  project?: boolean;
  /** Folder copy only: the profiles to check; default the skill's own format (`chooseProfiles`). */
  profiles?: ProfileId[];
  /** The validation core; when absent, only package checks run. */
  validate?: ValidateFn;
}

/** File mode of regular files in packages. */
const FILE_MODE = 0o644;
/** File mode of directories and executables in packages. */
const EXEC_MODE = 0o755;

/** True when `name` can be used as one folder name. */
function isFolderName(name: string | undefined): name is string {
  return (
    !!name &&
    // Why no leading dot: ".", "..", and names such as .git or .ssh that a copy would put
    // beside (or over, once told to) the hidden folders of the place it is written to.
    !name.startsWith('.') &&
    !/[/\\]/.test(name) &&
    !name.includes('\u0000') &&
    unportableSegmentReason(name) === undefined
  );
}

/** A package finding for the target. */
function issue(
  target: TargetDefinition,
  severity: PackageIssue['severity'],
  ruleId: string,
  message: string,
  detail: string,
  extra: Partial<PackageIssue> = {},
): PackageIssue {
  return { ruleId, severity, profile: target.packageProfile, message, detail, ...extra };
}

/**
 * Why a file is not copied into a skill folder: the one sentence for a folder export and for an
 * install from the Agents view (see COPY_MAX_FILE_BYTES).
 */
export function fileTooLargeToCopy(path: string, size: number, max: number): string {
  const [found, most] = formatBytesAgainst(size, max);
  return `${path} is ${found}; Skillbench copies files of up to ${most} into a skill folder. Move large data out of the skill.`;
}

/**
 * Plan an export: which file goes where, what is left out and why, the projected SKILL.md,
 * the package checks with the destination's wording, and whether the export is blocked.
 * Pure: every byte it needs is in `input`.
 */
export function planExport(input: PlanInput): ExportPlan {
  const target = getTarget(input.target);
  const keep = new Set(input.keep ?? []);
  const projectFrontmatter = target.frontmatter === 'upload' || input.project === true;
  const projection = projectSkillText(input.skillText, {
    frontmatter: projectFrontmatter ? 'upload' : 'unchanged',
    toolsJson: target.writesToolsJson,
  });
  const skillName = isFolderName(projection.name) ? projection.name : input.folderName;
  const wrapper = target.layout === 'wrapped' ? skillName : '';
  const place = (path: string): string =>
    normaliseOutputPath(wrapper ? `${wrapper}/${path}` : path);
  const issues: PackageIssue[] = [];
  const entries: PlanEntry[] = [];

  if (wrapper)
    entries.push({
      source: null,
      output: `${normaliseOutputPath(wrapper)}/`,
      kind: 'directory',
      size: 0,
      mode: EXEC_MODE,
      included: true,
      keepable: false,
      reason: 'The one top-level folder the destination expects, named after the skill.',
    });

  const sorted = [...input.entries].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  const excludedFolders: string[] = [];
  for (const entry of sorted) {
    if (excludedFolders.some((folder) => entry.path.startsWith(`${folder}/`))) continue;
    const base: Pick<PlanEntry, 'source' | 'output' | 'kind' | 'size'> = {
      source: entry.path,
      output: place(entry.path),
      kind: entry.kind,
      size: entry.size,
    };
    // Why the one list: the export leaves out exactly what every other reader of the folder does.
    const left = leftOutByPath(entry.path, entry.kind === 'directory');
    if (left && !left.keepable && entry.kind !== 'symlink') {
      if (entry.kind === 'directory') excludedFolders.push(entry.path);
      entries.push({
        ...base,
        output: entry.kind === 'directory' ? `${base.output}/` : base.output,
        mode: entry.kind === 'directory' ? EXEC_MODE : FILE_MODE,
        included: false,
        reason: left.reason,
        rule: left.rule,
        keepable: false,
      });
      continue;
    }
    if (entry.kind === 'directory') {
      entries.push({
        ...base,
        output: `${base.output}/`,
        mode: EXEC_MODE,
        included: true,
        keepable: false,
      });
      continue;
    }
    if (entry.kind === 'other') {
      // Why: FIFOs, sockets and devices are not files; copying one could block or read a device.
      entries.push({
        ...base,
        mode: FILE_MODE,
        included: false,
        rule: 'special-file',
        keepable: false,
        reason: 'This is not a regular file (a pipe, socket or device) and cannot be packed.',
      });
      continue;
    }
    if (entry.kind === 'symlink') {
      // Why: a link may point outside the skill (leaking files) or loop; never followed silently (docs/skill-format.md §3).
      const inside = entry.linkEscapes === false && entry.linkTargetKind === 'file';
      const kept = inside && keep.has(entry.path);
      const what = `a shortcut (symbolic link) to ${entry.linkTarget ?? 'an unknown place'}`;
      const reason = kept
        ? `This is ${what}; you chose to include the file it points to, which is inside the skill.`
        : inside
          ? `This is ${what}. Links are never followed silently: it is left out unless you choose to include the file it points to.`
          : `This is ${what} outside the skill folder (or to nothing). It is left out: packing it would copy a file from elsewhere on your computer.`;
      entries.push({
        ...base,
        kind: 'symlink',
        mode: FILE_MODE,
        included: kept,
        rule: 'symlink',
        keepable: inside,
        reason,
        ...(kept ? { followedFrom: entry.linkTarget } : {}),
      });
      if (!kept)
        issues.push(
          issue(
            target,
            'warning',
            'package/symlink-left-out',
            `${entry.path} is ${what}; it is left out of the package.`,
            `symlink ${entry.path} -> ${entry.linkTarget ?? '?'} (${inside ? 'inside the skill' : 'escapes or dangles'})`,
            { file: entry.path },
          ),
        );
      continue;
    }
    const isSkillFile = entry.path === input.skillFileName;
    if (isSkillFile) {
      const renamed = input.skillFileName !== 'SKILL.md';
      const reasons = [...projection.normalisations.map((n) => n.why)];
      if (renamed)
        reasons.push(
          `The file was named ${input.skillFileName}; upload destinations need exactly SKILL.md.`,
        );
      if (projection.changes.length > 0)
        reasons.push('The frontmatter was prepared for this destination (see the changes).');
      entries.push({
        ...base,
        output: place('SKILL.md'),
        size: utf8Length(projection.text),
        mode: FILE_MODE,
        included: true,
        keepable: false,
        content: projection.text,
        ...(reasons.length ? { reason: reasons.join(' ') } : {}),
      });
      const token = tokenLookingContent(projection.text);
      if (token && !keep.has(entry.path)) {
        issues.push(
          issue(
            target,
            'error',
            'package/secret-in-skill-md',
            `SKILL.md seems to contain ${token}. Remove it before sharing the skill, or confirm that it is not a secret.`,
            `token pattern: ${token}`,
            { file: 'SKILL.md' },
          ),
        );
      }
      continue;
    }
    if (!entry.path.includes('/') && entry.path.toLowerCase() === 'skill.md') {
      entries.push({
        ...base,
        mode: FILE_MODE,
        included: false,
        rule: 'duplicate-skill-file',
        keepable: false,
        reason: `The skill file is ${input.skillFileName}; a second ${entry.path} would make two SKILL.md files on Windows and macOS.`,
      });
      continue;
    }
    if (entry.path === 'tools.json' && projection.toolsJson !== undefined) {
      entries.push({
        ...base,
        mode: FILE_MODE,
        included: false,
        rule: 'replaced-by-generated',
        keepable: false,
        reason: 'tools.json is written from the frontmatter tools so that the two always match.',
      });
      continue;
    }
    const secret =
      left ?? (entry.text !== undefined ? leftOutByContent(entry.path, entry.text) : undefined);
    if (secret) {
      const kept = keep.has(entry.path);
      const why = secret.reason;
      entries.push({
        ...base,
        mode: entry.executable ? EXEC_MODE : FILE_MODE,
        included: kept,
        rule: secret.rule,
        keepable: true,
        reason: kept
          ? `${why} You chose to include it anyway.`
          : `${why} It is left out unless you choose to keep it.`,
      });
      issues.push(
        kept
          ? issue(
              target,
              'warning',
              'package/secret-kept',
              `You chose to include ${entry.path}. ${why} Anyone who gets the package can read it.`,
              secret.detail ?? secret.rule,
              { file: entry.path },
            )
          : issue(
              target,
              'warning',
              'package/secret-left-out',
              `${entry.path} is left out. ${why}`,
              secret.detail ?? secret.rule,
              { file: entry.path },
            ),
      );
      continue;
    }
    entries.push({
      ...base,
      mode: entry.executable ? EXEC_MODE : FILE_MODE,
      included: true,
      keepable: false,
    });
  }
  if (projection.toolsJson !== undefined) {
    entries.push({
      source: null,
      output: place('tools.json'),
      kind: 'file',
      size: utf8Length(projection.toolsJson),
      mode: FILE_MODE,
      included: true,
      keepable: false,
      content: projection.toolsJson,
      reason: 'Written from the frontmatter tools (Universal Agent Skill 2.1).',
    });
  }
  entries.sort((a, b) => (a.output < b.output ? -1 : a.output > b.output ? 1 : 0));

  const included = entries.filter((e) => e.included);
  const files = included.filter((e) => e.kind !== 'directory');
  const totals = { files: files.length, bytes: files.reduce((sum, e) => sum + e.size, 0) };

  if (projection.problem) {
    issues.push(
      issue(
        target,
        'error',
        'package/frontmatter-unreadable',
        projection.problem.message,
        projection.problem.detail,
        { file: 'SKILL.md' },
      ),
    );
  }
  issues.push(...packageChecks(target, included, totals, wrapper));

  if (input.validate) {
    const relative = (output: string): string =>
      (wrapper ? output.slice(wrapper.length + 1) : output).replace(/\/$/, '');
    const fileView: FileView = {
      folderName: wrapper || input.folderName,
      fileName: 'SKILL.md',
      entries: included
        .filter((e) => relative(e.output) !== '')
        .map((e) => ({
          path: relative(e.output),
          kind: e.kind === 'directory' ? 'directory' : 'file',
          size: e.size,
        })),
      ...(projection.toolsJson !== undefined
        ? { texts: { 'tools.json': projection.toolsJson } }
        : {}),
    };
    // Why the skill's own format (or the caller's profiles) only for folder copies: a copy has no
    // reader of its own, while every other destination is a known reader with its own profile
    // (docs/skill-format.md §2, §3).
    const choice =
      target.id === 'folder'
        ? chooseProfiles(parseSkill(projection.text), input.profiles)
        : { profiles: [...target.profiles], own: [...target.profiles] };
    const result = input.validate(projection.text, {
      profiles: choice.profiles,
      ownProfiles: choice.own,
      fileView,
    });
    issues.push(...result.diagnostics);
  }

  const blocked = issues.some((i) => i.severity === 'error');
  return {
    target,
    skillName,
    wrapper,
    entries,
    projection,
    issues,
    totals,
    blocked,
    canOverride: blocked && target.overrideAllowed,
    ...(target.id === 'claude-api' ? { apiFiles: files.map((f) => f.output) } : {}),
  };
}

/** The package rules of the destination, run on what would be written (docs/skill-format.md §2 claude-upload, §3). */
function packageChecks(
  target: TargetDefinition,
  included: PlanEntry[],
  totals: { files: number; bytes: number },
  wrapper: string,
): PackageIssue[] {
  const issues: PackageIssue[] = [];
  const upload = target.frontmatter === 'upload';
  const strict = target.strictPackage ? 'error' : 'warning';
  const files = included.filter((e) => e.kind !== 'directory');

  // Why: claude.ai refuses zips with zero or several SKILL.md files; nested skills count (docs/skill-format.md §2 claude-upload).
  const skillFiles = files.filter(
    (e) => (e.output.split('/').pop() ?? '').toLowerCase() === 'skill.md',
  );
  if (skillFiles.length !== 1) {
    const wording = 'Zip must contain exactly one SKILL.md file';
    issues.push(
      issue(
        target,
        upload ? 'error' : 'warning',
        'package/skill-md-count',
        skillFiles.length === 0
          ? 'The package has no SKILL.md file.'
          : `The package has ${skillFiles.length} SKILL.md files (${skillFiles.map((e) => e.output).join(', ')}); ${upload ? 'upload destinations accept exactly one' : 'readers may take the nested ones for separate skills'}.`,
        `${skillFiles.length} SKILL.md files`,
        upload ? { destinationWording: wording } : {},
      ),
    );
  }
  if (upload) {
    // Why: "A skill cannot contain a plugin manifest" (claude.ai, docs/skill-format.md §2 claude-upload).
    const manifest = files.find((e) => e.output.endsWith('.claude-plugin/plugin.json'));
    if (manifest) {
      issues.push(
        issue(
          target,
          'error',
          'package/plugin-manifest',
          `${manifest.output} is a Claude Code plugin manifest; a skill upload cannot contain one. Upload the skill folder on its own, without the plugin around it.`,
          'plugin manifest found',
          {
            destinationWording: 'A skill cannot contain a plugin manifest',
            file: manifest.source ?? manifest.output,
          },
        ),
      );
    }
    if (wrapper) {
      const outside = included.find(
        (e) => e.output !== `${wrapper}/` && !e.output.startsWith(`${wrapper}/`),
      );
      if (outside)
        issues.push(
          issue(
            target,
            'error',
            'package/outside-top-folder',
            `${outside.output} would sit outside the skill's folder.`,
            'entry outside the wrapper',
            { destinationWording: 'All files must be inside the top-level folder' },
          ),
        );
    }
  }
  const { maxFiles, maxBytes, maxFileBytes } = target.limits;
  if (maxFileBytes !== undefined)
    for (const file of files)
      if (file.size > maxFileBytes)
        issues.push(
          issue(
            target,
            'error',
            'package/file-too-large',
            fileTooLargeToCopy(file.source ?? file.output, file.size, maxFileBytes),
            `${file.size} bytes > ${maxFileBytes}`,
            { file: file.source ?? file.output },
          ),
        );
  if (maxFiles !== undefined && totals.files > maxFiles) {
    const wording = upload ? `Zip contains too many files (maximum ${maxFiles})` : undefined;
    issues.push(
      issue(
        target,
        'error',
        'package/too-many-files',
        `${target.label} accepts at most ${maxFiles} files; this package would hold ${totals.files}. Remove files the skill does not need.`,
        `${totals.files} files > ${maxFiles}`,
        wording ? { destinationWording: wording } : {},
      ),
    );
  }
  if (maxBytes !== undefined && totals.bytes > maxBytes) {
    // Why only claude.ai/.skill get the wording: it is the message claude.ai shows; the API's text is not documented.
    const wording =
      target.id === 'claude-ai' || target.id === 'skill'
        ? 'Zip file uncompressed size exceeds 30MB'
        : undefined;
    const [held, most] = formatBytesAgainst(totals.bytes, maxBytes);
    issues.push(
      issue(
        target,
        'error',
        'package/too-large',
        `${target.label} accepts at most ${most} of files (before compression); this package would hold ${held}. Move large data out of the skill.`,
        `${totals.bytes} bytes > ${maxBytes}`,
        wording ? { destinationWording: wording } : {},
      ),
    );
  }
  const seen = new Map<string, string>();
  for (const entry of included) {
    const path = entry.output.replace(/\/$/, '');
    for (const segment of path.split('/')) {
      const why = unportableSegmentReason(segment);
      if (why) {
        issues.push(
          issue(
            target,
            upload ? 'error' : 'warning',
            'package/unportable-name',
            `The name "${segment}" in ${path} ${why}. Rename it so the package opens on every system.`,
            `unportable path segment in ${path}`,
            { file: entry.source ?? path },
          ),
        );
        break;
      }
    }
    // Why: macOS and Windows fold case and Unicode forms, so these two would overwrite each other on unpacking.
    const key = collisionKey(path);
    const other = seen.get(key);
    if (other !== undefined) {
      issues.push(
        issue(
          target,
          strict,
          'package/name-collision',
          `${other} and ${path} would become the same file on Windows and macOS, which ignore upper/lower case. Rename one of them.`,
          `collision after NFC + case folding: ${key}`,
          { file: entry.source ?? path },
        ),
      );
    } else {
      seen.set(key, path);
    }
  }
  return issues;
}
