import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { agentById } from '../../../shared/agents/agents';
import type { SkillSource } from '../../../shared/agents/lock';
import type { InstallReport } from '../../../shared/agents/types';
import { cloneAt, skillsInClone, type Clone } from '../../agents/git-source';
import { SettingsStore } from '../../library/settings-store';
import { findSkillFolders } from '../../skill-folder';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { UsageError, type CliCommand, type CliIO } from '../support/types';
import { TRUST_OPTIONS, trustHint, trustRequest, trustUsage } from '../support/trust-options';
import { checkAgents, managerFor, scopeOf } from './agents-support';

const USAGE = `Usage: skillbench install SKILL... --agent A... [--global | --project DIR] [options]

Install skills where agents load them. SKILL is a skill folder or the name of a skill in your
library. Each skill is checked for each agent's reader first; one its reader would reject is not
installed for that agent. Claude Code loads a skill whose frontmatter it cannot read as written:
such a skill is installed for it, and the check says "loads it, not as written" and why.

  --agent A            an agent id as the skills CLI names it (claude-code, codex, cursor, …);
                       repeat for several; skillbench agents --all lists them
  --global             into the agents' folders in your home folder (all projects)
  --project DIR        into the project at DIR (default: the current folder)
  --copy               copy the skill into each agent's folder
  --link               link each agent's folder to one shared copy (.agents/skills/<name>);
                       the default where the agent follows links, else copies
  --git URL            install from a git repository (a URL or a local path), pinned to the
                       commit read; SKILL then names skills in it (all when it holds one)
  --archive FILE       install from a .zip, .skill, .tar.gz (.tgz) or .tar archive, read with
                       the import's checks (a hostile archive is refused, nothing written);
                       SKILL then names the skill's folder when the archive holds several
  --rename             when a folder of that name exists, install as <name>-2 (or -3 …)
  --replace            when a folder of that name exists, replace it (old copy to the trash)
${trustUsage('install')}

Exit codes: 0 installed, 1 refused or a conflict (nothing replaced), 2 usage or I/O problem.
`;

/** A library skill by name: every library root's skill folders whose name or folder matches. */
async function libraryMatches(roots: string[], name: string): Promise<string[]> {
  const found: string[] = [];
  for (const root of roots) {
    for (const f of await findSkillFolders(root).catch(() => [])) {
      if (basename(f.dir) === name) found.push(f.dir);
    }
  }
  return found;
}

async function run(args: string[], raw: CliIO): Promise<number> {
  const parsed = readCommandLine('install', args, {
    agent: { type: 'string', multiple: true },
    global: { type: 'boolean' },
    project: { type: 'string' },
    copy: { type: 'boolean' },
    link: { type: 'boolean' },
    git: { type: 'string' },
    archive: { type: 'string' },
    rename: { type: 'boolean' },
    replace: { type: 'boolean' },
    ...TRUST_OPTIONS,
  });
  const { values, positionals } = parsed;
  const agents = checkAgents(values.agent ?? []);
  if (agents.length === 0)
    throw new UsageError('Give at least one --agent (skillbench agents lists them).');
  if (positionals.length === 0 && values.git === undefined && values.archive === undefined)
    throw new UsageError('Give the skills to install.');
  if (values.git !== undefined && values.archive !== undefined)
    throw new UsageError('Choose --git or --archive, not both.');
  if (values.archive !== undefined && positionals.length > 1)
    throw new UsageError('An archive installs one skill at a time: name one folder in it.');
  if (values.copy && values.link) throw new UsageError('Choose --copy or --link, not both.');
  if (values.rename && values.replace)
    throw new UsageError('Choose --rename or --replace, not both.');
  const scope = await scopeOf(values, raw);
  const io = terminalIO(raw);
  const { manager, dataDir } = managerFor(raw);
  const mode = values.copy
    ? { mode: 'copy' as const }
    : values.link
      ? { mode: 'link' as const }
      : {};
  const onConflict = values.replace ? 'replace' : values.rename ? 'rename' : 'ask';
  const trust = trustRequest(values);
  const trusted = trust ? { trust } : {};
  if (values.archive !== undefined) {
    const report = await manager.installArchive(
      resolve(raw.cwd, values.archive),
      { agents, scope, ...mode, onConflict, ...trusted },
      positionals[0],
    );
    return printReport(report, io);
  }
  const skills: { dir: string; source: SkillSource }[] = [];
  let clone: Clone | undefined;
  try {
    if (values.git !== undefined) {
      const url =
        /^[a-z][a-z0-9+.-]*:\/\//i.test(values.git) || values.git.startsWith('git@')
          ? values.git
          : resolve(raw.cwd, values.git);
      try {
        clone = await cloneAt(url);
      } catch (error) {
        io.stderr(term`skillbench install: ${(error as Error).message}. Nothing was installed.\n`);
        return 2;
      }
      const inRepo = await skillsInClone(clone);
      const picked =
        positionals.length === 0
          ? inRepo
          : inRepo.filter(
              (s) => positionals.includes(basename(s.dir)) || positionals.includes(s.relDir),
            );
      if (inRepo.length === 0) {
        io.stderr(
          term`${url} holds no skill (no folder with SKILL.md) at commit ${clone.commit}. Nothing was installed.\n`,
        );
        return 1;
      }
      if (positionals.length === 0 && inRepo.length > 1) {
        io.stderr(
          term`${url} holds ${inRepo.length} skills; name the ones to install:\n${inRepo.map((s) => `  ${s.relDir || '.'}`).join('\n')}\n`,
        );
        return 1;
      }
      for (const p of positionals)
        if (!picked.some((s) => basename(s.dir) === p || s.relDir === p)) {
          io.stderr(term`${url} has no skill named ${p}. Nothing was installed.\n`);
          return 1;
        }
      for (const s of picked)
        skills.push({
          dir: s.dir,
          source: { kind: 'git', url, commit: clone.commit, skillPath: s.relDir },
        });
    } else {
      const libraryRoots = (await new SettingsStore(dataDir).get()).roots;
      for (const p of positionals) {
        const asPath = resolve(raw.cwd, p);
        const isDir = await stat(asPath).then(
          (s) => s.isDirectory(),
          () => false,
        );
        if (isDir) {
          const inLibrary = libraryRoots.some((r) => asPath.startsWith(resolve(r)));
          skills.push({
            dir: asPath,
            source: { kind: inLibrary ? 'library' : 'folder', path: asPath },
          });
          continue;
        }
        // Why: an archive given as SKILL (without --archive) is a file here, not a skill's name.
        if (
          /\.(zip|skill|tgz|tar|tar\.gz)$/i.test(p) &&
          (await stat(asPath).catch(() => null))?.isFile()
        ) {
          io.stderr(
            term`skillbench install: ${p} is an archive. Install it with --archive: skillbench install --archive ${p} --agent …. Nothing was installed.\n`,
          );
          return 2;
        }
        const matches = await libraryMatches(libraryRoots, p);
        if (matches.length === 0) {
          // Why the library named: a newcomer does not know that a bare name is looked up there.
          const where =
            libraryRoots.length === 0
              ? 'no folder is open in Skillbench yet, so there is no library to look it up in'
              : `no skill of your library (${libraryRoots.join(', ')}) is named ${p}`;
          io.stderr(
            term`skillbench install: ${p} is not a folder here, and ${where}. Give the path of the skill's folder instead (skillbench install path/to/${p} --agent …). Nothing was installed.\n`,
          );
          return 2;
        }
        if (matches.length > 1) {
          io.stderr(
            term`skillbench install: your library has ${matches.length} skills named ${p}:\n${matches.map((m) => `  ${m}`).join('\n')}\nGive the folder of the one to install. Nothing was installed.\n`,
          );
          return 1;
        }
        skills.push({ dir: matches[0] ?? '', source: { kind: 'library', path: matches[0] ?? '' } });
      }
    }
    const report = await manager.install({
      skills,
      agents,
      scope,
      ...mode,
      onConflict,
      ...trusted,
    });
    return printReport(report, io);
  } finally {
    await clone?.cleanup();
  }
}

/** Print what an install did; 1 when anything was refused, conflicted or failed. */
function printReport(report: InstallReport, io: CliIO): number {
  for (const c of report.checks) {
    const name = agentById(c.agent)?.name ?? c.agent;
    io.stdout(
      term`Check ${c.skill} for ${name}: ${c.notAsWritten ? 'loads it, not as written' : c.verdict}${c.problems.length ? ` — ${c.problems.join(' ')}` : ''}\n`,
    );
  }
  let bad = false;
  for (const o of report.outcomes) {
    const mark =
      o.status === 'installed' ? 'installed' : o.status === 'already' ? 'already there' : o.status;
    io.stdout(term`${mark}: ${o.message}\n`);
    if (o.status === 'conflict' || o.status === 'refused' || o.status === 'failed') bad = true;
  }
  // Why the hint: a skill the safety review calls "Don't trust" is refused for every agent, and
  // the app's "Trust anyway" is this option here.
  if (
    report.outcomes.some((o) => o.status === 'refused') &&
    report.checks.some((c) => c.safety?.verdict === 'danger' && !c.safety.accepted)
  )
    io.stdout(`${trustHint('install')}\n`);
  for (const note of report.lockNotes) {
    io.stdout(term`note: ${note}\n`);
    bad = true;
  }
  if (report.alsoLoadedBy) io.stdout(term`also: ${report.alsoLoadedBy}\n`);
  return bad ? 1 : 0;
}

/** `skillbench install`. */
export const installCommand: CliCommand = {
  name: 'install',
  usage: USAGE,
  run,
};
