import { resolve } from 'node:path';
import type { OutdatedEntry } from '../../../shared/agents/types';
import type { SkillManager } from '../../agents/manager';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { type CliCommand, type CliIO } from '../support/types';
import { parseChoice } from '../support/words';
import { managerFor, projectFolders, scopeWords } from './agents-support';

const USAGE = `Usage: skillbench outdated [NAME...] [--project DIR]... [--format text|json]

Compare each installed skill that a lock file records with its source (a library or other
folder, a git repository), global and in the current project.

  --project DIR        also this project folder
  --format text|json   text (default) or JSON

Exit codes: 0 all up to date, 1 some are outdated, their source or installed copy cannot be
read, or a NAME is not installed, 2 usage problem.
`;

/** The projects to look at: the current folder and --project (the manager adds the saved ones). */
export async function withProjects(
  manager: SkillManager,
  cwd: string,
  extra: string[] = [],
): Promise<void> {
  manager.extraProjects.push(resolve(cwd), ...(await projectFolders(extra, cwd)));
}

/**
 * Say which NAMEs no lock file records (a typo, or a skill that was never installed here), so
 * a script that names one is not told all is well. Returns whether any was missing.
 */
export function sayNotRecorded(
  names: readonly string[],
  entries: readonly { name: string }[],
  io: CliIO,
): boolean {
  const missing = names.filter((n) => !entries.some((e) => e.name === n));
  for (const n of missing)
    io.stdout(
      term`${n}: not installed — no lock file records it (yours, this project's, or a project given with --project).\n`,
    );
  return missing.length > 0;
}

/** Print outdated entries. */
export function printOutdated(entries: OutdatedEntry[], io: CliIO, names: string[] = []): number {
  let bad = sayNotRecorded(names, entries, io);
  if (entries.length === 0 && names.length === 0)
    io.stdout('No installed skill records a source to compare with.\n');
  for (const e of entries) {
    io.stdout(
      term`${e.name} (${scopeWords(e.scope)}): ${e.kept ? 'kept yours' : e.status}${e.locallyEdited ? ', edited since install' : ''} — ${e.message}\n`,
    );
    if (e.status !== 'up-to-date') bad = true;
  }
  return bad ? 1 : 0;
}

async function run(args: string[], raw: CliIO): Promise<number> {
  const parsed = readCommandLine('outdated', args, {
    project: { type: 'string', multiple: true },
    format: { type: 'string' },
  });
  const { values, positionals } = parsed;
  const format = parseChoice('--format', values.format ?? 'text', ['text', 'json'] as const);
  const { manager } = managerFor(raw);
  await withProjects(manager, raw.cwd, values.project ?? []);
  const entries = await manager.outdated(positionals.length > 0 ? positionals : undefined);
  if (format === 'json') {
    raw.stdout(`${JSON.stringify(entries, null, 2)}\n`);
    const unknown = positionals.some((n) => !entries.some((e) => e.name === n));
    return unknown || entries.some((e) => e.status !== 'up-to-date') ? 1 : 0;
  }
  return printOutdated(entries, terminalIO(raw), positionals);
}

/** `skillbench outdated`. */
export const outdatedCommand: CliCommand = {
  name: 'outdated',
  usage: USAGE,
  run,
};
