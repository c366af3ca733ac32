import type { ValidationLimits } from '../skill/limits';

/**
 * The validation core's public types. Every consumer (editor, library list, exporter,
 * embedded server, inspector, CLI) speaks these; keep them stable.
 */

import type { Range, TextEdit } from '../skill/text-types';

export type { Position, Range, TextEdit } from '../skill/text-types';

/** One reader of SKILL.md (docs/skill-format.md §2). */
export type ProfileId =
  | 'agentskills'
  | 'claude-upload'
  | 'claude-code'
  | 'agentskills-mcp'
  | 'x-personal-mcp'
  | 'universal-2.1'
  | 'mcp-serve';

/** Every profile id, default first. */
export const PROFILE_IDS: readonly ProfileId[] = [
  'agentskills',
  'claude-upload',
  'claude-code',
  'agentskills-mcp',
  'x-personal-mcp',
  'universal-2.1',
  'mcp-serve',
];

export type Severity = 'error' | 'warning' | 'info';

/** A change on disk that a fix needs besides text edits (e.g. rename the skill folder). */
export interface FileOperation {
  kind: 'rename-folder';
  /** New folder name (a sibling of the current skill folder). */
  newName: string;
}

/** A one-click fix. `safe` fixes may be applied in bulk ("Fix all safe problems", `--fix`). */
export interface QuickFix {
  title: string;
  edits: TextEdit[];
  fileOperations?: FileOperation[];
  safe: boolean;
}

/** One finding, written for a person first. */
export interface Diagnostic {
  /** Stable id `area/what`, e.g. `yaml/unquoted-colon`. */
  ruleId: string;
  severity: Severity;
  /** The profile that raised it. */
  profile: ProfileId;
  /** A plain sentence a non-developer understands. */
  message: string;
  /** The technical detail (parser message, limit, pattern). */
  detail?: string;
  /** Where in the file; absent for findings about the folder as a whole. */
  range?: Range;
  /** Path of the file the finding is about, relative to the skill folder ('SKILL.md' when absent). */
  file?: string;
  /** JSON pointer (RFC 6901) of the frontmatter field the finding is about, e.g. `/x-personal-mcp/version`. */
  field?: string;
  fixes?: QuickFix[];
}

/** What a rule may know about the skill's folder without touching the disk. */
export interface FileViewEntry {
  /** Path relative to the skill folder, `/` separated. */
  path: string;
  kind: 'file' | 'directory' | 'symlink';
  size: number;
  /** For symlinks: true when the target resolves outside the skill folder (or is dangling). */
  escapes?: boolean;
  /** For a symlink that stays in the skill: what it resolves to, relative to the skill folder. */
  target?: string;
  /**
   * Set when the path stays in the author's folder but is withheld whenever the skill is shared
   * (a secret-looking file, the root `evals/`): the plain reason. Exports and the server leave
   * it out, so rules about what a destination receives do not count it.
   */
  withheld?: string;
}

/** A small picture of the skill folder, built by main/validate from the disk. */
export interface FileView {
  /** The skill folder's own name (last path segment). */
  folderName: string;
  /** The folder path relative to its library root, `/` separated (for mcp-serve). */
  relativePath?: string;
  /** The file's own name as found on disk (`SKILL.md`, or `skill.md`). */
  fileName?: string;
  entries: FileViewEntry[];
  /** Contents of small text files some rules compare against (e.g. `tools.json`). */
  texts?: Record<string, string>;
  /**
   * The other names in the folder that holds the skill folder, when known (the editor's view of
   * one skill): a fix never offers to rename the folder to a name already taken there.
   */
  takenNames?: string[];
}

/** Options for one validation run. */
export interface ValidateOptions {
  /** Profiles to check; defaults to ['agentskills']. */
  profiles?: ProfileId[];
  /**
   * The skill's own format among `profiles` (shared/validation/choose-profiles.ts): the other
   * profiles are extra targets, whose fixes never break the skill for its own format.
   */
  ownProfiles?: ProfileId[];
  /** When absent, folder-dependent rules use only what the text tells. */
  fileView?: FileView;
  /**
   * Bounds on the work for this file (shared/skill/limits.ts VALIDATION_LIMITS, the default).
   * Used when the text is parsed here; a ParsedSkill keeps the bounds it was parsed with, and
   * only `findings` applies to it from here.
   */
  limits?: Partial<ValidationLimits>;
}

/** The outcome of validating one SKILL.md. */
export interface ValidationResult {
  diagnostics: Diagnostic[];
  /** Per profile: 'valid' (nothing), 'warning' (warnings only), 'error' (at least one error). */
  verdicts: Partial<Record<ProfileId, 'valid' | 'warning' | 'error'>>;
}
