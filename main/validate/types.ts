/** The results validation on disk gives: one skill, a whole library. */
import type {
  DescriptionBudget,
  Diagnostic,
  ProfileId,
  ValidationResult,
} from '../../shared/validation';
import type { TargetFit } from './disk-rules';
import type { LibraryFinding } from './library-checks';

/** How many findings of each severity. */
export interface SeverityCounts {
  error: number;
  warning: number;
  info: number;
}

/** The validation of one skill folder, disk checks included. */
export interface SkillValidation {
  /** Absolute path of the SKILL.md (or skill.md). */
  file: string;
  /** Absolute path of the skill folder. */
  dir: string;
  /** The folder relative to the library root, `/` separated (the folder name for a lone skill). */
  relativePath: string;
  /** The frontmatter `name` (NFKC), or null when absent or not text. */
  name: string | null;
  profiles: ProfileId[];
  /** `given` by the caller, or `suggested` by the core from the frontmatter. */
  profilesSource: 'given' | 'suggested';
  /** Core, disk and library findings; ranges are always in the SKILL.md text, `file` names what the finding is about. */
  diagnostics: Diagnostic[];
  verdicts: ValidationResult['verdicts'];
  counts: SeverityCounts;
  /** Files and bytes as a package would contain them. */
  size: { files: number; bytes: number };
  /** Whether the skill fits each export target with limits. */
  targets: TargetFit[];
  /** The frontmatter `description` when it is text (the library list shows it without reading the file again). */
  description?: string;
  /** The core's profile suggestion for this skill, whatever `profiles` were checked. */
  suggestedProfiles: ProfileId[];
}

/** The validation of a library folder: every skill under it plus library-wide findings. */
export interface LibraryValidation {
  root: string;
  skills: SkillValidation[];
  /** Findings about the library as a whole (the description budget). */
  findings: LibraryFinding[];
  budget: DescriptionBudget;
  counts: SeverityCounts;
}
