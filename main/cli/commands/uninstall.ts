import { resolve } from 'node:path';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { UsageError, type CliCommand, type CliIO } from '../support/types';
import { checkAgents, managerFor, scopeOf } from './agents-support';

const USAGE = `Usage: skillbench uninstall NAME --agent A... [--global | --project DIR]

Remove a skill from agents. Each agent's copy or link goes to Skillbench's trash folder (a link
is removed, never what it points to); the shared copy goes too once nothing links to it.

  --agent A            an agent id (repeat for several)
  --global             from the agents' folders in your home folder
  --project DIR        from the project at DIR (default: the current folder)

Exit codes: 0 removed, 1 nothing to remove or something kept, 2 usage or I/O problem.
`;

async function run(args: string[], raw: CliIO): Promise<number> {
  const parsed = readCommandLine('uninstall', args, {
    agent: { type: 'string', multiple: true },
    global: { type: 'boolean' },
    project: { type: 'string' },
  });
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('Give one skill name.');
  const agents = checkAgents(values.agent ?? []);
  const io = terminalIO(raw);
  const { manager } = managerFor(raw);
  if (agents.length === 0) {
    // Why the installs named: a newcomer asks to remove a skill, not to name agents; say where it is.
    const name = positionals[0] ?? '';
    const overview = await manager.overview({ projects: [resolve(raw.cwd)] });
    // Why not the folders an agent only also reads: uninstall removes from its own folder.
    const where = [
      ...new Set(
        overview.agents.flatMap((a) =>
          a.folders
            .filter(
              (f) =>
                f.alsoRead !== true && f.skills.some((k) => k.folder === name || k.name === name),
            )
            .map(
              (f) =>
                `--agent ${a.id} ${f.scope.kind === 'global' ? '--global' : `--project ${f.scope.dir}`}`,
            ),
        ),
      ),
    ];
    throw new UsageError(
      where.length === 0
        ? `Give at least one --agent; no agent found on this computer has ${name} installed (skillbench installed lists what each loads).`
        : `Give at least one --agent. ${name} is installed for ${where.join('; ')}.`,
    );
  }
  const report = await manager.uninstall(positionals[0] ?? '', agents, await scopeOf(values, raw));
  for (const r of report.removed)
    io.stdout(term`removed ${r.path} (in the trash: ${r.trashedTo})\n`);
  for (const k of report.kept) io.stdout(term`kept: ${k}\n`);
  for (const n of report.notFound) io.stdout(term`not found: ${n}\n`);
  for (const n of report.lockNotes) io.stdout(term`note: ${n}\n`);
  if (report.forgotten)
    io.stdout(
      term`forgotten: no agent's folder held a copy of ${positionals[0] ?? ''} any more, so its entry was removed from ${report.forgotten}.\n`,
    );
  return (report.removed.length > 0 || report.forgotten) && report.lockNotes.length === 0 ? 0 : 1;
}

/** `skillbench uninstall`. */
export const uninstallCommand: CliCommand = {
  name: 'uninstall',
  usage: USAGE,
  run,
};
