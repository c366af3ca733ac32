import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { PROFILE_IDS } from '../../../shared/validation';
import type { ProfileId } from '../../../shared/validation';
import { findSkillFolders, noSkillsFound, skillFileAt } from '../../skill-folder';
import { describeFsError } from '../../platform/fs-errors';
import { mapLimit } from '../../platform/concurrency';
import { pauseOptimizer } from '../../platform/optimizer-pause';
import { helperWorkers } from '../../platform/worker-pool';
import { CLI_SHARED_FROM } from './validate-prepare';
import { defaultUserDataDir } from '../../platform/user-data';
import { buildCache } from '../../library/listing-cache';
import { toJsonReport, toSarif, toText } from '../../validate/report-format';
import type { ValidateReportInput } from '../../validate/report-format';
import {
  applySafeFixes,
  LibraryMemo,
  validateLibrary,
  validateSkillFolder,
  ValidateInputError,
} from '../../validate/service';
import type { FixOutcome } from '../../validate/service';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { UsageError, type CliCommand, type CliIO } from '../support/types';
import { parseChoice } from '../support/words';

const USAGE = `Usage: skillbench validate PATH... [--profile P]... [--format text|json|sarif] [--fix] [--no-cache]

Check skills (folders with a SKILL.md) against the rules of the programs that read them.

PATH is a skill folder, a SKILL.md file, or a library folder; for a library folder every
skill under it is checked (node_modules and .git are skipped) together with the library-wide
checks: two skills with the same name, depends_on naming skills that are not in the library,
and the total length of all descriptions (a warning past 8,000 characters). \`validate .\`
works from inside a skill folder. A skill folder or SKILL.md is checked on its own: pass its
library folder to check depends_on as well.

  --profile P   check against profile P; repeat for several. Without --profile each skill is
                checked against the profiles its frontmatter suggests (spec_version →
                universal-2.1; an x-personal-mcp block, camelCase agentskills-mcp fields or
                Claude Code fields add those profiles to agentskills), and agentskills otherwise.
                Profiles: ${PROFILE_IDS.join(', ')}
  --format F    text (default): one line per problem, file:line:col, severity, rule id and
                profile, then a summary line.
                json: a stable document described by main/validate/validate-output.schema.json.
                sarif: SARIF 2.1.0 for code-scanning tools (paths relative to this folder).
  --fix         apply the safe fixes first (quoting values, line endings, the byte-order mark,
                …), each file written atomically, report what changed, then check again.
  --no-cache    check every skill of a library folder again. Without it, the findings of the
                last check of that folder (by this version of Skillbench, the app's or this
                command's) are kept in Skillbench's settings folder, and a skill folder in
                which no file's name, size or time has changed since is not checked again.

Exit status: 0 no errors (warnings allowed), 1 at least one error, 2 usage or I/O problem
(for example a PATH that does not exist).
`;

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

interface Options {
  paths: string[];
  profiles: ProfileId[] | undefined;
  format: Format;
  fix: boolean;
  cache: boolean;
}

function parse(args: string[]): Options {
  const parsed = readCommandLine('validate', args, {
    profile: { type: 'string', multiple: true, short: 'p' },
    format: { type: 'string', short: 'f' },
    fix: { type: 'boolean' },
    'no-cache': { type: 'boolean' },
  });
  const { values, positionals } = parsed;
  if (positionals.length === 0)
    throw new UsageError(
      'Give at least one PATH: a skill folder, a SKILL.md, or a library folder (`.` for this folder).',
    );
  const format = parseChoice<Format>('--format', values.format ?? 'text', FORMATS);
  const profiles = values.profile?.map((p) => {
    if (!PROFILE_IDS.includes(p as ProfileId))
      throw new UsageError(`There is no profile "${p}". Profiles: ${PROFILE_IDS.join(', ')}.`);
    return p as ProfileId;
  });
  return {
    paths: positionals,
    profiles,
    format,
    fix: values.fix ?? false,
    cache: !(values['no-cache'] ?? false),
  };
}

/** What a PATH turned out to be. */
type Target = { kind: 'skill'; dir: string } | { kind: 'library'; dir: string };

/**
 * How long V8's optimizing compiler stays paused while a library is checked: until this many of
 * its folders are done, or this long at most. Why pause: most of a one-shot check runs code once
 * or a few hundred times, and on a two-core machine the compiler's threads took the core the
 * helper worker needs; why a bound: a large library's per-skill code does pay for its
 * optimizing. Why by folders first: the work done, not the clock, says when optimizing starts to
 * pay, on a fast machine or a loaded one alike (bench/speed/README.md, "Validate on two threads"
 * and "The pause bound by folders").
 */
const OPTIMIZER_PAUSE_FOLDERS = 1_200;
const OPTIMIZER_PAUSE_MS = 400;

async function classify(path: string): Promise<Target> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new ValidateInputError(describeFsError(error, path, 'open').message);
  }
  if (info.isFile()) {
    if (basename(path).toLowerCase() !== 'skill.md') {
      throw new ValidateInputError(
        `${path} is not a SKILL.md file. Give a skill folder, its SKILL.md, or a folder of skills.`,
      );
    }
    return { kind: 'skill', dir: dirname(path) };
  }
  return (await skillFileAt(path)) !== undefined
    ? { kind: 'skill', dir: path }
    : { kind: 'library', dir: path };
}

async function fixAll(targets: Target[], profiles: ProfileId[] | undefined): Promise<FixOutcome[]> {
  const dirs: string[] = [];
  for (const t of targets) {
    if (t.kind === 'skill') dirs.push(t.dir);
    else dirs.push(...(await findSkillFolders(t.dir)).map((s) => s.dir));
  }
  // Why sequential-ish (4 at a time): each fix writes a file; a small pool keeps the disk calm.
  return mapLimit([...new Set(dirs)], 4, (dir) =>
    applySafeFixes(dir, profiles ? { profiles } : {}),
  );
}

/** `skillbench validate` — check skills on disk and print text, JSON or SARIF. */
export const validateCommand: CliCommand = {
  name: 'validate',
  usage: USAGE,
  async run(args, io: CliIO) {
    const opts = parse(args);
    const version = io.env['SKILLBENCH_VERSION'] ?? process.env.SKILLBENCH_VERSION ?? '0.1.0';
    const input: ValidateReportInput = { skills: [], libraries: [], fixes: [], inputErrors: [] };
    const targets: Target[] = [];
    for (const p of opts.paths) {
      const abs = resolve(io.cwd, p);
      try {
        targets.push(await classify(abs));
      } catch (error) {
        input.inputErrors.push({
          path: p,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
    if (opts.fix) {
      try {
        input.fixes = await fixAll(targets, opts.profiles);
      } catch (error) {
        input.inputErrors.push({
          path: opts.paths.join(' '),
          message: error instanceof Error ? error.message : String(error),
        });
      }
      // Why: a folder renamed by a fix is validated under its new name.
      for (const f of input.fixes) {
        if (!f.renamedFolder) continue;
        for (const t of targets)
          if (t.kind === 'skill' && resolve(t.dir) === f.renamedFolder.from)
            t.dir = f.renamedFolder.to;
      }
    }
    // Why kept findings: most runs over a library find most of its skills as they were (see
    // LibraryMemo); `source` runs (tests from source) may have other rules, so nothing is kept.
    const kept =
      opts.cache && targets.some((t) => t.kind === 'library')
        ? buildCache(defaultUserDataDir(io.env))
        : undefined;
    const seen = new Set<string>();
    // Why after the helpers' preload: they load the validation core with its code cache, which V8
    // refuses once a flag has changed (the pause is one), so pausing first would make them compile it.
    const helpers = helperWorkers();
    const resumeOptimizer = pauseOptimizer({
      atMostMs: OPTIMIZER_PAUSE_MS,
      ...(helpers?.live ? { after: helpers.preloaded() } : {}),
    });
    for (const t of targets) {
      try {
        if (t.kind === 'skill') {
          const r = await validateSkillFolder(
            t.dir,
            opts.profiles ? { profiles: opts.profiles } : {},
          );
          if (!seen.has(r.file)) input.skills.push(r);
          seen.add(r.file);
        } else {
          const root = resolve(t.dir);
          const memo = kept ? ((await kept.load(root)) ?? new LibraryMemo()) : undefined;
          const lib = await validateLibrary(root, {
            ...(opts.profiles ? { profiles: opts.profiles } : {}),
            pool: helperWorkers(),
            callerHelps: true,
            sharedFrom: CLI_SHARED_FROM,
            onFoldersDone: (done) => {
              if (done >= OPTIMIZER_PAUSE_FOLDERS) resumeOptimizer();
            },
            ...(memo ? { memo } : {}),
          });
          if (kept && memo && memo.rechecked > 0) kept.save(root, memo);
          if (lib.skills.length === 0) {
            input.inputErrors.push({
              path: t.dir,
              message: noSkillsFound(t.dir),
            });
            continue;
          }
          for (const s of lib.skills) {
            if (!seen.has(s.file)) input.skills.push(s);
            seen.add(s.file);
          }
          input.libraries.push({ root: lib.root, findings: lib.findings, budget: lib.budget });
        }
      } catch (error) {
        input.inputErrors.push({
          path: t.dir,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
    resumeOptimizer();
    // Why before the report: the process may end as soon as it is written.
    await kept?.close();
    const text = terminalIO(io);
    for (const e of input.inputErrors) text.stderr(term`skillbench validate: ${e.message}\n`);
    if (opts.format === 'json')
      io.stdout(`${JSON.stringify(toJsonReport(input, io.cwd, version), null, 2)}\n`);
    else if (opts.format === 'sarif')
      io.stdout(`${JSON.stringify(toSarif(input, io.cwd, version), null, 2)}\n`);
    else if (input.skills.length > 0 || input.inputErrors.length === 0)
      text.stdout(toText(input, io.cwd));
    if (input.inputErrors.length > 0) return 2;
    const errors =
      input.skills.some((s) => s.counts.error > 0) ||
      input.libraries.some((l) => l.findings.some((f) => f.severity === 'error'));
    return errors ? 1 : 0;
  },
};
