/**
 * Public types of the export/import planner. Pure data: the UI, the contract, main/pack and
 * the CLI all speak these.
 */
import type { SafetyReviewResult } from '../safety/types';
import type { FileSetRule } from '../skill/file-set';
import type { Diagnostic, ProfileId } from '../validation/types';

/** One export destination (docs/skill-format.md §3). */
export type TargetId =
  'claude-ai' | 'skill' | 'claude-api' | 'archive-tgz' | 'archive-zip' | 'claude-code' | 'folder';

/** Hard limits a destination enforces on the package. */
export interface TargetLimits {
  /** Most files (directories not counted). */
  maxFiles?: number;
  /** Most bytes, uncompressed, summed over files. */
  maxBytes?: number;
  /** Most bytes of any one file. */
  maxFileBytes?: number;
}

/** What a target is and how a package for it is laid out. */
export interface TargetDefinition {
  id: TargetId;
  /** Short name for people ("claude.ai / Claude Desktop upload"). */
  label: string;
  /** One sentence on where the result goes. */
  description: string;
  /** What is written: an archive, or a folder copy. */
  output: 'zip' | 'tar.gz' | 'folder';
  /** File name extension of the archive (with the dot). */
  extension?: '.zip' | '.skill' | '.tar.gz';
  /** `wrapped`: one top folder named after the skill; `root`: SKILL.md at the archive root; `folder`: a copy. */
  layout: 'wrapped' | 'root' | 'folder';
  /** `upload`: only the six standard keys; `unchanged`: the author's frontmatter as is. */
  frontmatter: 'upload' | 'unchanged';
  /** Validation profiles run on the projected SKILL.md before export. */
  profiles: ProfileId[];
  /** The profile package findings are filed under. */
  packageProfile: ProfileId;
  limits: TargetLimits;
  /** Errors may be overridden by the user (folder-copy targets only). */
  overrideAllowed: boolean;
  /** Universal 2.1 `tools` is also written as `tools.json`. */
  writesToolsJson: boolean;
  /** Package findings are errors for this destination (uploads are strict), else warnings. */
  strictPackage: boolean;
}

/** What kind of thing a path on disk is, as seen by lstat (links are never followed). */
export type SourceKind = 'file' | 'directory' | 'symlink' | 'other';

/** One path of the skill folder as found on disk, given to the planner by main/pack. */
export interface SourceEntry {
  /** Relative to the skill folder, `/` separated, as found on disk. */
  path: string;
  kind: SourceKind;
  /** Bytes (files); for symlinks, the size of what the link points to when that is a file inside the skill. */
  size: number;
  /** Any execute bit set on the file. */
  executable?: boolean;
  /** For symlinks: the link text. */
  linkTarget?: string;
  /** For symlinks: true when the target resolves outside the skill folder or is missing. */
  linkEscapes?: boolean;
  /** For symlinks: what the target is. */
  linkTargetKind?: 'file' | 'directory' | 'missing' | 'other';
  /** Text of small text files, for the secret scan (absent for binary or big files). */
  text?: string;
  /** A folder that was not entered because it is always excluded (e.g. node_modules). */
  notDescended?: boolean;
}

/** Why a file is left out, or why it needs a decision: the file set's rules plus the export's own. */
export type ExclusionRule =
  FileSetRule | 'symlink' | 'special-file' | 'duplicate-skill-file' | 'replaced-by-generated';

/** One line of the export dialog's file list. */
export interface PlanEntry {
  /** Path in the source folder; null for files the export generates (tools.json). */
  source: string | null;
  /** Path inside the package, relative to the package root (wrapper folder included). */
  output: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  /** 0o644 or 0o755 (directories and executables). */
  mode: number;
  included: boolean;
  /** Why it is excluded, warned about, renamed or generated: a plain sentence. */
  reason?: string;
  rule?: ExclusionRule;
  /** True when the user may keep it by listing it in `keep` (secrets, links inside the skill). */
  keepable: boolean;
  /** When set, write this text instead of the source bytes (the projected SKILL.md, tools.json). */
  content?: string;
  /** For kept symlinks: the file inside the skill whose bytes are written. */
  followedFrom?: string;
}

/** What happened to one frontmatter key in the projection. */
export interface ProjectionChange {
  key: string;
  action: 'kept' | 'moved-to-metadata' | 'dropped' | 'converted' | 'written-to-file';
  /** Where it went (e.g. `metadata.x-personal-mcp.version`, `tools.json`). */
  to?: string;
  /** Why, in a plain sentence. */
  why: string;
}

/** One normalisation applied to SKILL.md itself. */
export interface Normalisation {
  kind: 'bom-stripped' | 'crlf-to-lf' | 'file-renamed' | 'trailing-newline';
  why: string;
}

/** The SKILL.md a target receives, and what changed to get there. */
export interface ProjectionResult {
  /** The full projected SKILL.md text (LF, no BOM). */
  text: string;
  /** The skill's `name` when the frontmatter has one. */
  name?: string;
  changes: ProjectionChange[];
  normalisations: Normalisation[];
  /** Pretty JSON of the Universal 2.1 `tools`, when written as tools.json. */
  toolsJson?: string;
  /** Set when the frontmatter could not be read; `text` is then the normalised source. */
  problem?: { message: string; detail: string };
}

/** A package-level finding; the destination's own words when we know them. */
export interface PackageIssue extends Diagnostic {
  /** The message the destination itself shows for this fault, word for word. */
  destinationWording?: string;
}

/** Everything the export dialog shows and the writer needs. */
export interface ExportPlan {
  target: TargetDefinition;
  /** The skill name (frontmatter `name`, else the folder name). */
  skillName: string;
  /** The wrapper folder inside the archive ('' for root layouts and folder copies). */
  wrapper: string;
  entries: PlanEntry[];
  projection: ProjectionResult;
  /** Package checks plus the validator's findings on the projected SKILL.md. */
  issues: PackageIssue[];
  totals: { files: number; bytes: number };
  /** Errors stop the export. */
  blocked: boolean;
  /** The user may override a block (folder-copy targets). */
  canOverride: boolean;
  /** Claude API multipart upload: the `files[]` paths, in order. */
  apiFiles?: string[];
  /** The safety review of the source folder, when the exporter ran it (docs/safety-review.md). */
  safety?: SafetyReviewResult;
}

/** Limits applied while reading an archive for import. */
export interface ImportLimits {
  maxFiles: number;
  maxBytes: number;
  /** Inflated/compressed ratio, per entry and for the whole archive. */
  maxRatio: number;
  /** Most path segments. */
  maxDepth: number;
}

/** Why an import was refused. */
export type RefusalCode =
  | 'path-traversal'
  | 'absolute-path'
  | 'unsafe-name'
  | 'link'
  | 'special-file'
  | 'collision'
  | 'too-many-files'
  | 'too-large'
  | 'compression-ratio'
  | 'too-deep'
  | 'encrypted'
  | 'unsupported'
  | 'damaged'
  | 'no-skill'
  | 'not-a-skill-source';

/** A refusal, written for a person first. */
export interface Refusal {
  code: RefusalCode;
  /** A plain sentence. */
  message: string;
  /** Technical detail (entry name, limit, header field). */
  detail: string;
  /** The archive entry at fault, as written in the archive. */
  entry?: string;
}

/** What an import source is. */
export type SourceFormat = 'zip' | 'tar.gz' | 'tar' | 'folder' | 'skill-md';

/** Files added, changed and removed between an existing folder copy and a new export. */
export interface FolderDiff {
  added: string[];
  changed: string[];
  removed: string[];
  unchanged: number;
}

/** One file of a previewed skill. */
export interface PreviewFile {
  /** Path inside the skill folder (the skill file is always `SKILL.md`). */
  path: string;
  /** Path inside the source. */
  source: string;
  size: number;
  mode: number;
}

/** One skill found in an import source. */
export interface PreviewSkill {
  /** Its folder inside the source ('' when SKILL.md is at the root). */
  root: string;
  /** The folder name it gets in the library. */
  name: string;
  files: PreviewFile[];
  /** Folders (empty ones included), relative to the skill. */
  dirs: string[];
  bytes: number;
  skillText: string;
  /** Findings of the validation core (empty when none was given). */
  diagnostics: Diagnostic[];
  /** Set when the name in SKILL.md cannot be a folder name: why, and the name used instead (a plain sentence). */
  nameNote?: string;
  /** The safety review of the files as they would be written (docs/safety-review.md). */
  safety?: SafetyReviewResult;
}

/** What an import source holds, checked; nothing is written. */
export type ImportPreview =
  | { status: 'refused'; refusal: Refusal }
  | {
      status: 'ok';
      format: SourceFormat;
      skills: PreviewSkill[];
      /** Entries skipped (macOS leftovers, node_modules, .git …). */
      ignored: string[];
      /** Files of the source outside every skill folder (not imported). */
      outside: string[];
    };

/** The outcome of an import. */
export type ImportResult =
  | { status: 'refused'; refusal: Refusal }
  /** Several skills: call again with `pick` set to one of `skills[].root`. */
  | { status: 'choose'; message: string; skills: PreviewSkill[] }
  /** The library already has this name: call again with onConflict 'rename' (suggestion) or 'replace', or cancel. */
  | {
      status: 'conflict';
      message: string;
      name: string;
      existing: string;
      suggestion: string;
      skill: PreviewSkill;
      /** The existing folder holds exactly these files, byte for byte: nothing to import. */
      identical: boolean;
    }
  /** The safety review says "Don't trust": call again with `trust` (a reason and days) to import anyway. */
  | { status: 'unsafe'; message: string; skill: PreviewSkill; safety: SafetyReviewResult }
  | {
      status: 'imported';
      name: string;
      dir: string;
      files: string[];
      skill: PreviewSkill;
      renamedFrom?: string;
      trashedTo?: string;
    };

/** The result of an export. */
export type ExportResult =
  | {
      status: 'written';
      plan: ExportPlan;
      path: string;
      bytes: number;
      sha256?: string;
      sha256Path?: string;
      trashedTo?: string;
      files: number;
    }
  /** Errors of the pre-upload check stop the export (plan.issues says which). */
  | { status: 'blocked'; plan: ExportPlan }
  /** The destination folder exists; pass `overwrite: true` after showing this diff. */
  | { status: 'exists'; plan: ExportPlan; path: string; diff: FolderDiff }
  /** The archive file exists; nothing was written. Pass `overwrite: true` once the user agreed. */
  | { status: 'archive-exists'; plan: ExportPlan; path: string };
