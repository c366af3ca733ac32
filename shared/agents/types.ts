/**
 * What the skill manager answers (main/agents): the agents found here, where each skill they
 * load lives and in what state, what an install, removal or update did. Plain data, the same
 * for the window, the API and `skillbench installed --format json`.
 */
import type { AgentFeature } from './agents';
import type { SkillSource } from './lock';
import type { DiffLine, FileChange, FileConflict, FileResolution } from './merge';

/** A scope as it crosses the boundary: `global`, or a project folder. */
export type ScopeRef = { kind: 'global' } | { kind: 'project'; dir: string };

/** The state of one skill an agent will load. */
export type InstalledState =
  /** A link to a skill folder of a library root. */
  | 'linked-library'
  /** A link to the canonical copy (`.agents/skills/<name>`) or another agent's folder. */
  | 'linked'
  /** A copy Skillbench installed, unchanged since. */
  | 'copy-unchanged'
  /** A copy Skillbench installed, edited since (its hash differs from the recorded one). */
  | 'copy-changed'
  /** Installed by another tool (the `skills` CLI): its lock file records the source. */
  | 'other-tool'
  /** A skill folder no lock file knows: put there by hand. */
  | 'unmanaged'
  /** A link whose target does not exist. */
  | 'broken-link'
  /** A link the link policy does not follow (outside the agents' and library folders). */
  | 'refused-link';

/** One skill an agent will load (or a link it would try to). */
export interface InstalledSkill {
  /** The folder name in the agent's skills folder. */
  folder: string;
  /** `name` from the frontmatter, or the folder name. */
  name: string;
  description: string;
  /** The path in the agent's skills folder (the link itself for links). */
  path: string;
  /** The real folder holding the files (links resolved); null for broken and refused links. */
  realDir: string | null;
  scope: ScopeRef;
  state: InstalledState;
  /** For links: where the link points (its text for a broken one). */
  linkTarget?: string;
  /** For copies and linked copies: the copy was edited since install. */
  changed?: boolean;
  /** Where it came from, in plain words, when a lock file records it. */
  source?: string;
  /** Skillbench's record of the source, when Skillbench installed it. */
  sourceRecord?: SkillSource;
  /** The library skill folder it comes from (links into a library, or a library source). */
  libraryDir?: string;
  /** Which tool's lock entry describes it. */
  recordedBy?: 'skillbench' | 'skills-cli';
  /** The validation verdict for this agent's reader (its profile). */
  verdict: 'valid' | 'warning' | 'error' | 'unknown';
  /** The first error findings for that reader, in plain words. */
  problems: string[];
  /**
   * The reader's profile finds errors, but the agent loads the skill anyway, not as written
   * (Claude Code: shared/agents/agents.ts `loadsDespiteErrors`); the verdict is then `warning`.
   */
  notAsWritten?: boolean;
  /** Other copies of the same name this agent also sees; set on every copy of a collision. */
  collision?: { loaded: boolean; others: string[]; rule: string };
  /** A sentence for states that need one (broken or refused links). */
  note?: string;
  /**
   * Set when the agent's own settings keep it from loading the skill (Gemini CLI's
   * `skills.disabled`), in a sentence that names the settings file.
   */
  turnedOff?: string;
}

/** One skills folder of an agent in one scope. */
export interface AgentFolder {
  scope: ScopeRef;
  path: string;
  exists: boolean;
  /** Set when the folder itself is a link: it is reported and not read. */
  problem?: string;
  skills: InstalledSkill[];
  /**
   * Set on a folder the agent also loads skills from (Codex's `.codex/skills`), which Skillbench
   * lists but never installs into; its skills are not matched with a lock file.
   */
  alsoRead?: true;
}

/** An agent and everything it loads. */
export interface AgentReport {
  id: string;
  name: string;
  detected: boolean;
  followsLinks: boolean;
  features: AgentFeature[];
  profile: string;
  projectDir: string;
  globalDir: string | null;
  /** AgentSpec.projectNote: when the agent loads a project's skills. */
  projectNote?: string;
  folders: AgentFolder[];
}

/** A lock file that could not be read whole. */
export interface LockProblem {
  path: string;
  message: string;
}

/** The answer of the Agents view and `skillbench installed`. */
export interface AgentsOverview {
  agents: AgentReport[];
  projects: string[];
  lockProblems: LockProblem[];
  /**
   * Folders that hold skills but that no agent listed reads: a shared folder such as a
   * project's `.agents/skills`, read only by agents not found on this computer. Why: what an
   * install for such an agent wrote would otherwise be nowhere in the list.
   */
  unlisted: UnlistedFolder[];
}

/** A folder of skills no listed agent reads (see {@link AgentsOverview.unlisted}). */
export interface UnlistedFolder {
  scope: ScopeRef;
  path: string;
  /** The skills' names, in the folder's order. */
  skills: string[];
  /** The agents that read it (ids), none of them found on this computer. */
  readers: string[];
}

/** The validation verdict of one skill for one agent before an install. */
export interface InstallCheck {
  skill: string;
  agent: string;
  verdict: 'valid' | 'warning' | 'error';
  /** What the verdict is about: the errors, or with none the warnings; at most five. */
  problems: string[];
  /** As InstalledSkill.notAsWritten: errors the agent loads the skill despite (verdict `warning`). */
  notAsWritten?: boolean;
  /** The skill's safety review (docs/safety-review.md): a "danger" verdict stops the install unless accepted. */
  safety?: {
    verdict: 'clear' | 'review' | 'danger';
    headline: string;
    summary: string;
    findings: number;
    accepted: boolean;
    /** The content hash, for "Trust anyway". */
    hash: string;
  };
}

/** What an install did for one skill and one agent. */
export interface InstallOutcome {
  skill: string;
  agent: string;
  status: 'installed' | 'already' | 'conflict' | 'refused' | 'failed';
  mode?: 'link' | 'copy';
  path?: string;
  /** A plain sentence: what was done, or why not and what was left as it was. */
  message: string;
  /** For conflicts: what is there now. */
  existing?: string;
  trashedTo?: string;
}

/** What one install call did. */
export interface InstallReport {
  checks: InstallCheck[];
  outcomes: InstallOutcome[];
  /** Lock files that could not be updated, and why (the files were left as they were). */
  lockNotes: string[];
  /**
   * Agents on this computer that were not chosen but load the installed skills too, from the
   * folder they share (shared/agents/agents.ts `alsoLoadedBy`), in a sentence.
   */
  alsoLoadedBy?: string;
}

/** What a removal did; `undoToken` puts everything back. */
export interface RemoveReport {
  removed: { agent: string; path: string; trashedTo: string }[];
  kept: string[];
  notFound: string[];
  lockNotes: string[];
  undoToken?: string;
  /** The lock file whose entry for the skill was removed because no copy of it was left to remove. */
  forgotten?: string;
}

/** One installed skill compared with its source. */
export interface OutdatedEntry {
  name: string;
  scope: ScopeRef;
  /** The installed copies (the canonical copy for linked installs). */
  copies: string[];
  source: string;
  status: 'up-to-date' | 'outdated' | 'source-missing' | 'unknown';
  /** Some copy was edited since install. */
  locallyEdited: boolean;
  /** Why the status is what it is. */
  message: string;
  /**
   * SKILL.md, for `update` to show first: what the source changed since install (the installed
   * version against the source now) when {@link yourEdits} is set, else the installed copy
   * against the source.
   */
  diff?: DiffLine[];
  /** Files added, removed or changed at the source (since install, when {@link yourEdits} is set). */
  fileChanges?: FileChange[];
  /**
   * The user's own edits since install, apart from the source's: set for an edited copy whose
   * installed version Skillbench kept. Why apart: one diff of the copy against the source shows
   * the user's own lines as lines the update removes, with nothing to say whose they are.
   */
  yourEdits?: { diff: DiffLine[]; files: FileChange[] };
  /**
   * What Merge would do, worked out before the user chooses: the files changed on both sides
   * that it would ask about (none: it keeps both sides' changes without a question).
   */
  mergeAsks?: string[];
  /** A merge can be offered: the base that was installed is known. */
  canMerge: boolean;
  /** The source's version now (its folder hash, or an MCP listing's fingerprint), when read. */
  sourceVersion?: string;
  /**
   * The user kept their edited copy over this very version ("Keep mine"): the status is
   * `up-to-date` and the changes are still here, for taking it after all (by name).
   */
  kept?: boolean;
}

/** How to settle an update of a copy edited since install. */
export type UpdateChoice = 'keep-local' | 'take-theirs' | 'merge';

/** What an update did for one skill. */
export interface UpdateOutcome {
  name: string;
  scope: ScopeRef;
  /** `refused`: the new version is one the safety review says not to trust; nothing was written. */
  status: 'updated' | 'up-to-date' | 'kept' | 'needs-choice' | 'conflicts' | 'refused' | 'failed';
  message: string;
  /** For a merge with conflicts: every file to settle (text merged with markers, or a choice). */
  conflicts?: FileConflict[];
  trashedTo?: string[];
  /** For `refused`: what the safety review says of the new version (for "Trust anyway"). */
  safety?: { headline: string; findings: number };
}

/** How the user settled a merge's conflicts, file by file, for one skill. */
export interface MergeResolution {
  name: string;
  files: FileResolution[];
}
