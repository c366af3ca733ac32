import { resolve } from 'node:path';
import { unlistedFolderSentence } from '../../../shared/agents/agents';
import type { InstalledSkill } from '../../../shared/agents/types';
import { LibraryReviews } from '../../safety/library-reviews';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { type CliCommand, type CliIO } from '../support/types';
import { count, parseChoice } from '../support/words';
import { checkAgents, managerFor, projectFolders, scopeWords } from './agents-support';

const USAGE = `Usage: skillbench installed [--agent A]... [--project DIR]... [--format text|json]

List every skill your agents will load, global and in the current project (and the projects
you added in the app or with --project), with its state: linked to a library skill, linked to
the shared copy, a copy (unchanged or changed since install), installed by another tool (with
the source its lock file records), a broken link, a link that is not followed; whether it is
valid for that agent; what the safety review says of it (the app's badges; JSON: safety); and
which copy an agent loads when two share a name.

  --agent A            only this agent (repeat for several)
  --project DIR        also this project folder
  --format text|json   text (default) or JSON

Exit codes: 0 listed, 1 something needs attention (broken links, invalid skills, a skill the
safety review says not to trust, unreadable lock files), 2 usage or I/O problem.
`;

const STATE_WORDS: Record<InstalledSkill['state'], string> = {
  'linked-library': 'linked to a library skill',
  linked: 'linked to the shared copy',
  'copy-unchanged': 'copy, unchanged since install',
  'copy-changed': 'copy, changed since install',
  'other-tool': 'installed by another tool',
  unmanaged: 'put there by hand',
  'broken-link': 'broken link',
  'refused-link': 'link not followed',
};

async function run(args: string[], raw: CliIO): Promise<number> {
  const { values } = readCommandLine(
    'installed',
    args,
    {
      agent: { type: 'string', multiple: true },
      project: { type: 'string', multiple: true },
      format: { type: 'string' },
    },
    { positionals: false },
  );
  const format = parseChoice('--format', values.format ?? 'text', ['text', 'json'] as const);
  const agents = values.agent ? checkAgents(values.agent) : undefined;
  const { manager, dataDir } = managerFor(raw);
  const projects = [resolve(raw.cwd), ...(await projectFolders(values.project ?? [], raw.cwd))];
  const overview = await manager.overview({ ...(agents ? { agents } : {}), projects });
  // The safety review of every folder an agent loads, as the app's Agents view shows it.
  const safety = await new LibraryReviews(dataDir).badges(
    overview.agents
      .flatMap((a) => a.folders.flatMap((f) => f.skills))
      .flatMap((s) => (s.realDir === null ? [] : [s.realDir])),
  );
  const safetyOf = new Map(safety.map((b) => [b.path, b]));
  let attention =
    overview.lockProblems.length > 0 || safety.some((b) => b.verdict === 'danger' && !b.accepted);
  for (const a of overview.agents)
    for (const f of a.folders) {
      if (f.problem) attention = true;
      for (const s of f.skills)
        if (s.state === 'broken-link' || s.state === 'refused-link' || s.verdict === 'error')
          attention = true;
    }
  if (format === 'json') {
    raw.stdout(`${JSON.stringify({ ...overview, safety }, null, 2)}\n`);
    return attention ? 1 : 0;
  }
  const io = terminalIO(raw);
  for (const p of overview.lockProblems) io.stdout(term`warning: ${p.message}\n`);
  let any = false;
  for (const a of overview.agents) {
    const folders = a.folders.filter((f) => f.skills.length > 0 || f.problem);
    if (folders.length === 0) continue;
    any = true;
    io.stdout(term`${a.name} (${a.id})\n`);
    for (const f of folders) {
      io.stdout(
        term`  ${scopeWords(f.scope)}: ${f.path}${f.alsoRead ? ` (${a.name} also loads these; Skillbench installs elsewhere)` : ''}\n`,
      );
      if (f.problem) io.stdout(term`    ${f.problem}\n`);
      for (const s of f.skills) {
        const bits = [STATE_WORDS[s.state]];
        if (s.state === 'linked' && s.changed) bits.push('changed since install');
        if (s.source) bits.push(`from ${s.source}`);
        if (s.verdict === 'error') bits.push(`not valid for ${a.name}: ${s.problems.join(' ')}`);
        else if (s.notAsWritten)
          bits.push(`${a.name} loads it, not as written: ${s.problems.join(' ')}`);
        io.stdout(term`    ${s.name}  (${bits.join('; ')})\n`);
        if (s.note) io.stdout(term`      ${s.note}\n`);
        const badge = s.realDir === null ? undefined : safetyOf.get(s.realDir);
        if (badge?.accepted)
          io.stdout(
            term`      safety review: trusted by you (${count(badge.findings, 'finding')})\n`,
          );
        else if (badge && badge.verdict !== 'clear')
          io.stdout(
            term`      safety review: ${badge.headline} (${count(badge.findings, 'finding')}); see them with: skillbench scan ${badge.path}\n`,
          );
        if (s.collision)
          io.stdout(
            term`      ${s.collision.loaded ? 'loaded' : 'NOT loaded'}: same name as ${s.collision.others.join(', ')}. ${s.collision.rule}\n`,
          );
        if (s.turnedOff) io.stdout(term`      ${s.turnedOff}\n`);
      }
    }
  }
  for (const f of overview.unlisted) {
    any = true;
    io.stdout(
      term`Also: ${unlistedFolderSentence(f)} Add --agent and the id of one of them (skillbench agents --all) to list them.\n`,
    );
  }
  if (!any) io.stdout('No installed skills were found.\n');
  return attention ? 1 : 0;
}

/** `skillbench installed`. */
export const installedCommand: CliCommand = {
  name: 'installed',
  usage: USAGE,
  run,
};
