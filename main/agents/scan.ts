/**
 * Where each skill lives: every skills folder of every agent (global and in the projects the
 * user added), each entry with its state — linked to a library skill, linked to the canonical
 * copy, a copy unchanged or changed since install, installed by another tool, put there by hand,
 * a broken link, a link the policy refuses — its verdict for that agent's reader, and name
 * collisions. Linked folders are judged by the one link policy (main/skill-folder).
 */
import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MODELLED_READERS, readerVerdict } from '../../shared/agent-view/readers';
import { AGENTS, type AgentSpec } from '../../shared/agents/agents';
import { describeSource, emptyLock, type LockEntry, type LockFile } from '../../shared/agents/lock';
import type {
  AgentFolder,
  AgentReport,
  InstalledSkill,
  LockProblem,
  ScopeRef,
  UnlistedFolder,
} from '../../shared/agents/types';
import { parseSkill, SKILL_MD_MAX_BYTES } from '../../shared/skill';
import { isInside } from '../platform/paths';
import { readBoundedSync } from '../platform/read-file';
import { judgeSkillLink, realAllowedRoots, skillFileNameIn } from '../skill-folder';
import { readingsOf } from '../skill-folder/agent-readings';
import { validateSkillFolder } from '../validate';
import { geminiSkillSettings, geminiTurnedOff } from './gemini-settings';
import { hashFolder } from './hash';
import { entrySource, readLockFile } from './lock-store';
import { frontmatterText, installName } from './source';
import {
  agentAlsoReads,
  agentSkillsDir,
  isDetected,
  linkOnTheWay,
  lockPath,
  type AgentEnv,
  type Scope,
} from './paths';

/** What a scan needs to know. */
export interface ScanContext {
  env: AgentEnv;
  projects: readonly string[];
  /** Library roots (links into them are "linked to a library skill"). */
  libraryRoots: readonly string[];
  /** Roots the link policy allows (every agent skills folder and the library roots). */
  policyRoots: readonly string[];
}

/** The lock of each scope, read once per scan. */
export class LockCache {
  private readonly locks = new Map<string, Promise<LockFile>>();
  readonly problems: LockProblem[] = [];
  constructor(private readonly env: AgentEnv) {}

  /** The lock of `scope` (empty when missing; problems collected). */
  get(scope: Scope): Promise<LockFile> {
    const path = lockPath(scope, this.env);
    let lock = this.locks.get(path);
    if (!lock) {
      lock = readLockFile(scope.kind === 'global' ? 'global' : 'project', path).then((stored) => {
        if (stored.lock.problem !== undefined)
          this.problems.push({
            path,
            message: `${path} could not be read whole: ${stored.lock.problem}. Skillbench reads what it can and will not rewrite it.`,
          });
        for (const s of stored.lock.skipped)
          this.problems.push({
            path,
            message: `In ${path}, the entry "${s.name}" was skipped: ${s.why}.`,
          });
        return stored.lock;
      });
      this.locks.set(path, lock);
    }
    return lock;
  }
}

/** The lock entry for a folder name (exact key, else by the CLI's folder name of the key). */
export function entryFor(lock: LockFile, folder: string): [string, LockEntry] | undefined {
  if (lock.skills[folder]) return [folder, lock.skills[folder]];
  for (const [key, entry] of Object.entries(lock.skills))
    if (installName(key) === folder) return [key, entry];
  return undefined;
}

/** The scope of a reference that crossed the boundary. */
function scopeOf(ref: ScopeRef): Scope {
  return ref.kind === 'global' ? { kind: 'global' } : { kind: 'project', dir: ref.dir };
}

/** The scope in the shape that crosses the boundary. */
export function scopeRef(scope: Scope): ScopeRef {
  return scope.kind === 'global' ? { kind: 'global' } : { kind: 'project', dir: scope.dir };
}

/** Name and first description line of a SKILL.md, read without following links. */
function readHeader(dir: string, fileName: string): { name?: string; description: string } {
  try {
    const parsed = parseSkill(
      readBoundedSync(join(dir, fileName), SKILL_MD_MAX_BYTES).toString('utf8'),
    );
    const name = frontmatterText(parsed.data, 'name');
    const description =
      (frontmatterText(parsed.data, 'description') ?? '').trim().split('\n')[0] ?? '';
    return name === undefined ? { description } : { name, description };
  } catch {
    return { description: '' };
  }
}

/** The entries of a folder that are skill folders or links, in name order. */
function entriesOf(dir: string): { name: string; link: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => !d.name.startsWith('.') && (d.isDirectory() || d.isSymbolicLink()))
      .map((d) => ({ name: d.name, link: d.isSymbolicLink() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/**
 * How many folders deep an agent finds skill folders below its skills folder (1: only its
 * children). Codex 0.171.0 loads `group/pdf/SKILL.md` up to six folders down
 * (docs/codex-listing.md); OpenCode 1.18.33 at any depth, listed here to the same six
 * (docs/opencode-listing.md). Why not inside a skill: both list a skill inside another too, but
 * walking every skill's own files for it would read whole dependency folders.
 */
const FOLDER_DEPTH: Readonly<Record<string, number>> = { codex: 6, opencode: 6 };

/** The most folders looked into below one skills folder (a group of groups of real skills is far smaller). */
const MAX_FOLDERS_LOOKED_INTO = 5_000;

/**
 * The folders to look at for skills: the children of `dir`, and for an agent that looks deeper,
 * the folders inside a child that is not itself a skill (a group), level by level, as
 * `group/name`. Links are not entered.
 */
function candidatesOf(dir: string, depth: number): { name: string; link: boolean }[] {
  const out: { name: string; link: boolean }[] = [];
  const queue = entriesOf(dir).map((e) => ({ ...e, level: 1 }));
  for (let k = 0; k < queue.length; k++) {
    const e = queue[k];
    if (e === undefined) continue;
    out.push({ name: e.name, link: e.link });
    // Why a bound: a skills folder can hold anything, a dependency folder of thousands included.
    if (e.link || e.level >= depth || queue.length > MAX_FOLDERS_LOOKED_INTO) continue;
    const abs = join(dir, e.name);
    let names: { name: string; kind: string }[];
    try {
      names = readdirSync(abs, { withFileTypes: true }).map((d) => ({
        name: d.name,
        kind: d.isFile() ? 'file' : 'other',
      }));
    } catch {
      continue;
    }
    if (skillFileNameIn(names) !== undefined) continue;
    for (const c of entriesOf(abs))
      queue.push({ name: `${e.name}/${c.name}`, link: c.link, level: e.level + 1 });
  }
  return out;
}

/** Verdict cache: one validation per real folder and reader in a scan. */
type Judged = Pick<InstalledSkill, 'verdict' | 'problems' | 'notAsWritten'>;
type Verdicts = Map<string, Promise<Judged>>;

/**
 * The verdict of an agent's reader for the skill in `dir`: its profile's findings, with the
 * agent's own reading where Skillbench models it (shared/agent-view/readers.ts).
 */
async function verdictFor(cache: Verdicts, dir: string, spec: AgentSpec): Promise<Judged> {
  const reader = MODELLED_READERS.has(spec.id) ? spec.id : '';
  const key = `${reader}\0${spec.profile}\0${dir}`;
  let v = cache.get(key);
  if (!v) {
    v = validateSkillFolder(dir, { profiles: [spec.profile] }).then(
      (r): Judged => {
        const verdict = r.verdicts[spec.profile];
        if (verdict === undefined) return { verdict: 'unknown', problems: [] };
        const judged = readerVerdict(
          spec.id,
          spec.profile,
          verdict,
          r.diagnostics,
          readingsOf(spec.id, dir),
        );
        return {
          verdict: judged.verdict,
          problems: judged.problems.slice(0, 3),
          ...(judged.notAsWritten ? { notAsWritten: true } : {}),
        };
      },
      (): Judged => ({ verdict: 'unknown', problems: [] }),
    );
    cache.set(key, v);
  }
  return v;
}

/** Whether a copy changed since install, by the hash its lock entry recorded. */
async function changedSince(
  dir: string,
  entry: LockEntry,
  scope: Scope,
): Promise<boolean | undefined> {
  const recorded =
    entry.skillbench?.installedHash ??
    (scope.kind === 'project' ? entry.computedHash : entry.skillFolderHash);
  if (!recorded) return undefined;
  try {
    return (await hashFolder(dir)) !== recorded;
  } catch {
    return undefined;
  }
}

/** Read one skills folder of one agent. */
async function scanFolder(
  spec: AgentSpec,
  scope: Scope,
  ctx: ScanContext,
  locks: LockCache,
  verdicts: Verdicts,
  also?: string,
): Promise<AgentFolder | null> {
  const path = also ?? agentSkillsDir(spec, scope, ctx.env);
  if (path === null) return null;
  const folder: AgentFolder = {
    scope: scopeRef(scope),
    path,
    exists: false,
    skills: [],
    ...(also !== undefined ? { alsoRead: true as const } : {}),
  };
  const through = await linkOnTheWay(scope, path);
  if (through !== undefined) {
    folder.exists = existsSync(path);
    folder.problem = `${through}. Skillbench does not follow links in a project, so the skills behind it are not listed or changed; make it a real folder to manage them here.`;
    return folder;
  }
  try {
    const st = lstatSync(path);
    folder.exists = true;
    if (st.isSymbolicLink()) {
      let target = '?';
      try {
        target = readlinkSync(path);
      } catch {
        // Why: described as "?" when it cannot be read.
      }
      folder.problem = `This folder is itself a link (to ${target}). Skillbench does not follow it, so the skills behind it are not listed; make it a real folder to manage them here.`;
      return folder;
    }
  } catch {
    return folder;
  }
  // Why no lock for a folder the agent also reads: the lock names what was installed into the
  // agent's own folder; a skill of the same name elsewhere is not that install.
  const lock =
    also === undefined
      ? await locks.get(scope)
      : emptyLock(scope.kind === 'global' ? 'global' : 'project');
  const libraries = realAllowedRoots(ctx.libraryRoots);
  for (const { name: folderName, link } of candidatesOf(path, FOLDER_DEPTH[spec.id] ?? 1)) {
    const abs = join(path, folderName);
    const base = { folder: folderName, path: abs, scope: scopeRef(scope) };
    let realDir: string;
    let fileName: string;
    const skill: InstalledSkill = {
      ...base,
      name: folderName,
      description: '',
      realDir: null,
      state: 'unmanaged',
      verdict: 'unknown',
      problems: [],
    };
    if (link) {
      const verdict = judgeSkillLink(abs, ctx.policyRoots);
      if (verdict.state !== 'followed') {
        skill.state = verdict.state === 'broken' ? 'broken-link' : 'refused-link';
        skill.linkTarget = verdict.state === 'refused' ? verdict.target : verdict.text;
        skill.note = verdict.reason;
        folder.skills.push(skill);
        continue;
      }
      realDir = verdict.target;
      fileName = verdict.fileName;
      skill.linkTarget = verdict.target;
      const library = libraries.find((root) => isInside(root, realDir));
      if (library) {
        skill.state = 'linked-library';
        skill.libraryDir = realDir;
      } else skill.state = 'linked';
    } else {
      let names: { name: string; kind: string }[] = [];
      try {
        names = readdirSync(abs, { withFileTypes: true }).map((d) => ({
          name: d.name,
          kind: d.isFile() ? 'file' : 'other',
        }));
      } catch {
        // Why: an unreadable folder is not listed as a skill.
      }
      const found = skillFileNameIn(names);
      if (found === undefined) continue;
      realDir = abs;
      fileName = found;
    }
    skill.realDir = realDir;
    const header = readHeader(realDir, fileName);
    skill.name = header.name ?? folderName;
    skill.description = header.description;
    const recorded = entryFor(lock, installName(folderName));
    if (recorded) {
      const [, entry] = recorded;
      // Why the source as read: the folder an update reads is the one named (entrySource).
      const source = entrySource(entry, dirname(lockPath(scope, ctx.env)));
      skill.source = describeSource(entry, source);
      skill.recordedBy = entry.skillbench ? 'skillbench' : 'skills-cli';
      if (entry.skillbench && source) {
        skill.sourceRecord = source;
        if (source.kind === 'library' && skill.libraryDir === undefined)
          skill.libraryDir = source.path;
      }
      if (skill.state !== 'linked-library') {
        const changed = await changedSince(realDir, entry, scope);
        if (changed !== undefined) skill.changed = changed;
        if (!link)
          skill.state = entry.skillbench
            ? changed
              ? 'copy-changed'
              : 'copy-unchanged'
            : 'other-tool';
      }
    }
    const v = await verdictFor(verdicts, realDir, spec);
    skill.verdict = v.verdict;
    skill.problems = v.problems;
    if (v.notAsWritten) skill.notAsWritten = true;
    folder.skills.push(skill);
  }
  return folder;
}

/**
 * Mark name collisions inside one agent: every copy of a name the agent sees twice, with the
 * one it loads. Why this rule: an agent's project skills are nearer the work than the user's.
 * Claude Code keys a skill by its folder's name, not its `name`: run with the same folder in the
 * user's and a project's skills folder, Claude Code 2.1.332 listed the user's only, and with two
 * folders whose skills share a `name`, it listed both (docs/claude-code-listing.md).
 */
function markCollisions(report: AgentReport): void {
  const byName = new Map<string, InstalledSkill[]>();
  // Why the agent's own folder before the one it also reads, within a scope: Gemini CLI reads
  // .gemini/skills first and lets .agents/skills override it.
  const order = report.folders
    .slice()
    .sort((a, b) =>
      report.id === 'claude-code'
        ? Number(a.scope.kind !== 'global') - Number(b.scope.kind !== 'global')
        : Number(a.scope.kind === 'global') - Number(b.scope.kind === 'global') ||
          Number(a.alsoRead === true) - Number(b.alsoRead === true),
    );
  for (const folder of order)
    for (const skill of folder.skills) {
      if (skill.realDir === null) continue;
      const key = report.id === 'claude-code' ? skill.folder : skill.name;
      const list = byName.get(key) ?? [];
      list.push(skill);
      byName.set(key, list);
    }
  // Why Codex apart: run with two skills of one name, Codex 0.171.0 listed both
  // (docs/codex-listing.md).
  const both = report.id === 'codex';
  const rule =
    report.id === 'claude-code'
      ? 'Claude Code knows a skill by its folder name and loads your personal skill before a project skill in a folder of the same name.'
      : both
        ? 'Codex loads both and lists both, so the model sees two skills of this name.'
        : report.id === 'gemini-cli'
          ? "Gemini CLI lists one skill per name and warns of the conflict at every start: a project's skill wins over yours, and one in .agents/skills over one in .gemini/skills."
          : report.id === 'opencode'
            ? 'OpenCode keeps one skill per name, whichever it reads last: which one is not certain.'
            : 'A project skill comes before one in your user folder, then the first folder in name order.';
  for (const list of byName.values()) {
    if (list.length < 2) continue;
    // Why: OpenCode reads a linked install's shared copy and its link both; the same files twice
    // are one skill to the person, whichever it keeps.
    if (report.id === 'opencode' && list.every((s) => s.realDir === list[0]?.realDir)) continue;
    list.forEach((skill, index) => {
      skill.collision = {
        loaded: both || index === 0,
        others: list.filter((o) => o !== skill).map((o) => o.path),
        rule,
      };
    });
  }
}

/** Mark the skills Gemini CLI's own settings keep it from loading (main/agents/gemini-settings.ts). */
function markTurnedOff(report: AgentReport, env: AgentEnv): void {
  for (const folder of report.folders) {
    if (folder.skills.length === 0) continue;
    const settings = geminiSkillSettings(env, folder.scope);
    for (const skill of folder.skills) {
      const off = geminiTurnedOff(settings, skill.name);
      if (off !== undefined) skill.turnedOff = off;
    }
  }
}

/** Scan every agent (or the given ones) in every scope. */
export async function scanAgents(
  ctx: ScanContext,
  options: { agents?: readonly string[]; all?: boolean } = {},
): Promise<{ agents: AgentReport[]; lockProblems: LockProblem[]; unlisted: UnlistedFolder[] }> {
  const locks = new LockCache(ctx.env);
  const verdicts: Verdicts = new Map();
  const scopes: Scope[] = [
    { kind: 'global' },
    ...ctx.projects.map((dir) => ({ kind: 'project' as const, dir })),
  ];
  const reports: AgentReport[] = [];
  // Folders with skills of agents left out of the list, by path (see AgentsOverview.unlisted).
  const leftOut = new Map<string, UnlistedFolder>();
  for (const spec of AGENTS) {
    if (options.agents && !options.agents.includes(spec.id)) continue;
    const detected = isDetected(spec, ctx.env, ctx.projects);
    const report: AgentReport = {
      id: spec.id,
      name: spec.name,
      detected,
      followsLinks: spec.followsLinks,
      features: [...spec.features],
      profile: spec.profile,
      projectDir: spec.projectDir,
      globalDir: spec.globalDir,
      ...(spec.projectNote ? { projectNote: spec.projectNote } : {}),
      folders: [],
    };
    for (const scope of scopes) {
      const folder = await scanFolder(spec, scope, ctx, locks, verdicts);
      if (folder) report.folders.push(folder);
      for (const path of agentAlsoReads(spec, scope, ctx.env)) {
        const more = await scanFolder(spec, scope, ctx, locks, verdicts, path);
        if (more && (more.exists || more.skills.length > 0)) report.folders.push(more);
      }
    }
    // Why only folders of its own: a project's .agents/skills is read by some twenty agents; an
    // agent not found here is listed only when a folder no other agent reads holds skills.
    // (A folder it also reads counts too when no other agent reads it: Codex's .codex/skills,
    // not Claude Code's .claude/skills, which OpenCode also reads.)
    const ownSkills = report.folders.some(
      (f) =>
        (f.skills.length > 0 || f.problem !== undefined) &&
        AGENTS.filter(
          (a) =>
            agentSkillsDir(a, scopeOf(f.scope), ctx.env) === f.path ||
            agentAlsoReads(a, scopeOf(f.scope), ctx.env).includes(f.path),
        ).length === 1,
    );
    if (!detected && !ownSkills && !options.all && !options.agents) {
      for (const f of report.folders) {
        if (f.skills.length === 0) continue;
        const seen = leftOut.get(f.path);
        if (seen) seen.readers.push(spec.id);
        else
          leftOut.set(f.path, {
            scope: f.scope,
            path: f.path,
            skills: f.skills.map((s) => s.name),
            readers: [spec.id],
          });
      }
      continue;
    }
    markCollisions(report);
    if (spec.id === 'gemini-cli') markTurnedOff(report, ctx.env);
    reports.push(report);
  }
  // Why: the agents found here come first; the rest keep the table's order.
  reports.sort((a, b) => Number(b.detected) - Number(a.detected));
  const listed = new Set(reports.flatMap((r) => r.folders.map((f) => f.path)));
  const unlisted = [...leftOut.values()].filter((f) => !listed.has(f.path));
  return { agents: reports, lockProblems: locks.problems, unlisted };
}
