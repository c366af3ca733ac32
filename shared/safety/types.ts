/**
 * The safety review's public types (docs/safety-review.md). Every consumer (the CLI, the
 * inspector's Save, import, install, export, the embedded server, the library list, the
 * editor) speaks these.
 */

/** How much a finding matters. `low` is shown but does not change the verdict. */
export type SafetySeverity = 'low' | 'medium' | 'high' | 'critical';

/** The one answer: `clear` "No known risks found", `review` "Review before trusting", `danger` "Don't trust". */
export type SafetyVerdict = 'clear' | 'review' | 'danger';

/** The families of rules, as the benchmark and the docs group them. */
export type SafetyCategory =
  | 'hidden-text'
  | 'agent-instructions'
  | 'scripts'
  | 'frontmatter'
  | 'supply-chain'
  | 'files'
  | 'secrets';

/** A user's "Trust anyway": why, until when, tied to the skill's content hash. */
export interface SafetyAcceptance {
  reason: string;
  /** ISO date-time after which the review asks again. */
  expires: string;
  acceptedAt: string;
}

/** One finding, written for a person first. */
export interface SafetyFinding {
  /** Stable id `area/what`, e.g. `hidden/tag-characters`. */
  rule: string;
  severity: SafetySeverity;
  category: SafetyCategory;
  /** Path relative to the skill folder, `/`-separated. */
  file: string;
  /** 1-based line; 0 when the finding is about the file as a whole. */
  line: number;
  /** 1-based column of the start and end (exclusive) on that line, when known. */
  column?: number;
  endColumn?: number;
  /** A one-line headline in plain words. */
  title: string;
  /** The technical detail: what matched, made visible. */
  detail: string;
  /** Why it matters, in plain words. */
  why: string;
  /** What to do. */
  action: string;
  /** Hidden text decoded and shown (tag characters, zero-width codes, comments). */
  hidden?: string;
  /** The line as an agent reads it, with invisible characters made visible (at most 240 characters). */
  excerpt?: string;
  /** Set when the user accepted this skill's findings ("Trust anyway") and the acceptance holds. */
  accepted?: SafetyAcceptance;
}

/** A path whose content the review did not examine, and why (never skipped silently). */
export interface NotExamined {
  path: string;
  reason: string;
}

/** What the skill can do, in plain words ("runs commands: scripts/setup.sh"). */
export interface SafetyCapabilities {
  /** Files that run as programs, and other ways the skill runs commands. */
  runs: string[];
  /** Web addresses (host names) its scripts and commands contact. */
  contacts: string[];
  /** Sensitive places it reads (`~/.ssh`, browser data …). */
  reads: string[];
  /** Places outside the skill it changes (shell start-up files, agent settings …). */
  changes: string[];
}

/** The outcome of reviewing one skill. */
export interface SafetyReport {
  verdict: SafetyVerdict;
  /** The verdict in plain words: "No known risks found", "Review before trusting", "Don't trust". */
  headline: string;
  /** One sentence of what the skill can do. */
  summary: string;
  capabilities: SafetyCapabilities;
  findings: SafetyFinding[];
  notExamined: NotExamined[];
}

/** One path of the skill as the review sees it (no disk access in shared/). */
export interface ReviewFile {
  /** `/`-separated, relative to the skill folder. */
  path: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  /** The file's text, when it is UTF-8 text and was read whole. */
  text?: string;
  /** The first bytes of a file that is not text (at least 8, up to 512), for its magic number. */
  head?: Uint8Array;
  executable?: boolean;
  /** For links: what they point to and whether that stays inside the skill. */
  link?: { target: string; inside: boolean };
  /** Set when the content was not read: why (too large, unreadable, a folder never entered). */
  notExamined?: string;
}

/** The frontmatter of SKILL.md as the parser read it (shared/skill owns the parsing). */
export interface ReviewFrontmatter {
  /** The frontmatter as plain data, when it could be read. */
  data: unknown;
  /** 1-based line where the body starts (the line after the closing `---`). */
  bodyStartLine: number;
}

/** What {@link reviewSkill} reviews. */
export interface ReviewInput {
  files: readonly ReviewFile[];
  /** SKILL.md's frontmatter, parsed by the caller with shared/skill `parseSkill`. */
  frontmatter?: ReviewFrontmatter;
}

/** The review of one skill as it crosses the boundary: where, which content, the report. */
export interface SafetyReviewResult {
  /** Absolute path of the skill folder, or a label (a remote skill's URI, an archive's entry). */
  path: string;
  name: string;
  /** sha256 of the skill's content: the key of "Trust anyway". */
  hash: string;
  report: SafetyReport;
  /** The acceptance that holds for this content, when the user chose "Trust anyway". */
  accepted?: SafetyAcceptance;
}

/** "Trust anyway" as asked at a point of trust: the user's reason and for how many days. */
export interface TrustRequest {
  reason: string;
  days: number;
}

/** One library skill's verdict, for the badge in the list. */
export interface SafetyBadge {
  path: string;
  verdict: SafetyVerdict;
  headline: string;
  findings: number;
  accepted: boolean;
}
