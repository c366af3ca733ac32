import type { DiffLine, FileChange } from '../../../shared/agents/merge';
import type { OutdatedEntry } from '../../../shared/agents/types';
import { listed } from '../../../shared/text/words';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { UsageError, type CliCommand, type CliIO } from '../support/types';
import { TRUST_OPTIONS, trustHint, trustRequest, trustUsage } from '../support/trust-options';
import { managerFor, scopeWords } from './agents-support';
import { sayNotRecorded, withProjects } from './outdated';

const USAGE = `Usage: skillbench update [NAME...] [--keep-local | --take-theirs | --merge] [--project DIR]...
                        [--trust-anyway TEXT [--trust-days N]]

Update installed skills from their sources, showing what changes in SKILL.md first. A copy you
edited since install is left as it is unless you choose:

  --keep-local         keep your edited copy (nothing is written to it); that version of the
                       source is not offered again, a newer one is. To take a kept version
                       after all, name the skill: update NAME --take-theirs (or --merge)
  --take-theirs        take the source's version (your copy goes to Skillbench's trash)
  --merge              merge your edits with the source's, file by file against the version
                       you installed (the copy before goes to the trash); where both changed the
                       same lines, nothing is written: settle those in the app's Agents view
  --project DIR        also this project folder
${trustUsage('update')}

A new version the safety review calls "Don't trust" is not written (as at install).

Exit codes: 0 updated or up to date, 1 left as it was (a choice is needed, a conflict, a new
version not to trust, a failure: each says why) or a NAME is not installed, 2 usage problem.
`;

async function run(args: string[], raw: CliIO): Promise<number> {
  const parsed = readCommandLine('update', args, {
    'keep-local': { type: 'boolean' },
    'take-theirs': { type: 'boolean' },
    merge: { type: 'boolean' },
    project: { type: 'string', multiple: true },
    ...TRUST_OPTIONS,
  });
  const { values, positionals } = parsed;
  const chosen = (['keep-local', 'take-theirs', 'merge'] as const).filter((c) => values[c]);
  if (chosen.length > 1)
    throw new UsageError(`Choose one of --${chosen.join(', --')}, not several.`);
  const trust = trustRequest(values);
  const io = terminalIO(raw);
  const { manager } = managerFor(raw);
  await withProjects(manager, raw.cwd, values.project ?? []);
  const names = positionals.length > 0 ? positionals : undefined;
  const outdated = await manager.outdated(names);
  let bad = sayNotRecorded(positionals, outdated, io);
  for (const e of outdated) if (e.status === 'outdated' && e.diff) showChanges(e, io);
  const outcomes = await manager.update(names, chosen[0], undefined, trust);
  // Why the scope only then: one skill installed globally and in a project gets one line per
  // copy, and a choice asked for one of them must say which.
  const scopes = new Set(outcomes.map((o) => scopeWords(o.scope)));
  for (const o of outcomes) {
    const where = scopes.size > 1 ? term` (${scopeWords(o.scope)})` : '';
    io.stdout(term`${o.status}${where}: ${o.message}\n`);
    if (o.status === 'conflicts') {
      for (const c of o.conflicts ?? []) io.stdout(term`  changed on both sides: ${c.path}\n`);
      io.stdout(
        '  Settle them in the Agents view of the app, or choose --keep-local or --take-theirs.\n',
      );
    }
    if (o.status === 'refused') io.stdout(`${trustHint('update')}\n`);
    if (
      o.status === 'needs-choice' ||
      o.status === 'conflicts' ||
      o.status === 'refused' ||
      o.status === 'failed'
    )
      bad = true;
  }
  if (outcomes.length === 0 && positionals.length === 0)
    io.stdout('No installed skill records a source to update from.\n');
  return bad ? 1 : 0;
}

/** One side's changes: SKILL.md's changed lines, then the other files added, removed or changed. */
function showSide(io: CliIO, diff: readonly DiffLine[], files: readonly FileChange[]): void {
  for (const line of diff)
    if (line.kind !== 'same')
      io.stdout(term`  ${line.kind === 'added' ? '+' : '-'} ${line.text.replace(/\r?\n$/, '')}\n`);
  for (const f of files) if (f.path !== 'SKILL.md') io.stdout(term`  ${f.change}: ${f.path}\n`);
}

/**
 * What an update changes, before it is done. An edited copy whose installed version is known is
 * shown three ways: the source's changes since install, the user's own, and what --merge would
 * ask; otherwise the installed copy against the source.
 */
function showChanges(e: OutdatedEntry, io: CliIO): void {
  const where = scopeWords(e.scope);
  if (!e.yourEdits) {
    io.stdout(term`${e.name} (${where}): SKILL.md changes\n`);
    showSide(io, e.diff ?? [], e.fileChanges ?? []);
    return;
  }
  io.stdout(term`${e.name} (${where}): changed at its source since you installed it\n`);
  showSide(io, e.diff ?? [], e.fileChanges ?? []);
  io.stdout(term`${e.name} (${where}): your edits since install\n`);
  showSide(io, e.yourEdits.diff, e.yourEdits.files);
  const asks = e.mergeAsks ?? [];
  io.stdout(
    asks.length === 0
      ? "  --merge would keep both your edits and the source's changes, with nothing to settle.\n"
      : term`  --merge would stop at ${listed(asks)}: you and the source changed the same part (or one removed what the other changed). You settle ${asks.length === 1 ? 'it' : 'them'} in the app's Agents view.\n`,
  );
}

/** `skillbench update`. */
export const updateCommand: CliCommand = {
  name: 'update',
  usage: USAGE,
  run,
};
