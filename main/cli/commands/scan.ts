import { resolve } from 'node:path';
import { fsErrorSentence } from '../../platform/fs-errors';
import { defaultUserDataDir } from '../../platform/user-data';
import { toScanJson, toScanSarif, toScanText } from '../../safety/report-format';
import { buildCache } from '../../library/listing-cache';
import { reviewSkillFolders, skillFoldersAt, trustAnyway } from '../../safety/service';
import { withAcceptance } from '../../../shared/safety';
import { TRUST_OPTIONS, trustRequest, trustUsage } from '../support/trust-options';
import { noSkillsFound, type SkillFolder } from '../../skill-folder';
import { term } from '../../security/terminal-text';
import { keptReviews } from '../support/kept-reviews';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { UsageError, type CliCommand, type CliIO } from '../support/types';
import { parseChoice } from '../support/words';

const USAGE = `Usage: skillbench scan PATH... [--format text|json|sarif] [--fail-on review|danger]
       skillbench scan SKILL-FOLDER --trust-anyway "REASON" [--trust-days N]

Review skills for risks before you trust them: hidden text, instructions aimed at the agent,
what scripts do, the frontmatter's permissions, the supply chain, disguised files and secrets.
Offline; every file is read whole. PATH is a skill folder or a folder of skills. A skill whose
files did not change since a run over the same PATHs is not reviewed again (its report is kept
in the user-data folder by the bytes it reviewed).

Each skill gets one verdict: "No known risks found", "Review before trusting" or "Don't trust",
a summary of what it can do, and each finding with its file and line, why it matters and what
to do. Findings you accepted in the app ("Trust anyway") stay listed, marked accepted. With
--trust-anyway, the one skill SKILL-FOLDER holds is trusted as it is now, as the app's "Trust
anyway" does: serve, catalog and install let it through until a file of it changes.

  --format F           text (default), json ({"skills":[{path,name,verdict,findings,
                       notExamined}]}), or sarif (SARIF 2.1.0; accepted findings are
                       suppressions).
  --fail-on V          exit 1 when a skill's verdict is V or worse: review (the default) or
                       danger.
${trustUsage('trust')}

Exit status: 0 no skill at or past --fail-on, 1 at least one, 2 usage or I/O problem (a PATH
that cannot be read is named on stderr; the skills of the other paths are still reviewed).
The rules: docs/safety-review.md.
`;

const FORMATS = ['text', 'json', 'sarif'] as const;
const RANK = { clear: 0, review: 1, danger: 2 } as const;

/** `skillbench scan`. */
export const scanCommand: CliCommand = {
  name: 'scan',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const parsed = readCommandLine('scan', args, {
      format: { type: 'string', short: 'f' },
      'fail-on': { type: 'string' },
      ...TRUST_OPTIONS,
    });
    const { values, positionals } = parsed;
    if (positionals.length === 0)
      throw new UsageError('Give at least one PATH: a skill folder or a folder of skills.');
    const format = parseChoice('--format', values.format ?? 'text', FORMATS);
    const failOn = parseChoice('--fail-on', values['fail-on'] ?? 'review', [
      'review',
      'danger',
    ] as const);
    const folders = new Map<string, SkillFolder>();
    // Why go on past a bad PATH: the skills of the other paths are still reviewed and shown (a
    // typo in one of many must not hide a "Don't trust"); the exit status still says 2.
    let problem = false;
    const roots = positionals.map((p) => resolve(io.cwd, p));
    for (const [i, p] of positionals.entries()) {
      try {
        const found = await skillFoldersAt(roots[i] ?? p);
        if (found.length === 0) {
          io.stderr(term`skillbench scan: ${noSkillsFound(roots[i] ?? p)}\n`);
          problem = true;
        }
        for (const f of found) if (!folders.has(f.dir)) folders.set(f.dir, f);
      } catch (error) {
        io.stderr(term`skillbench scan: ${fsErrorSentence(error, p, 'read')}\n`);
        problem = true;
      }
    }
    if (folders.size === 0) return 2;
    const trust = trustRequest(values);
    // Why one: a decision is about what the person read; a whole library trusted at once is not.
    if (trust && (folders.size > 1 || positionals.length > 1))
      throw new UsageError(
        `--trust-anyway trusts one skill: give that skill's folder (${positionals.join(' ')} holds ${folders.size} skills).`,
      );
    const dataDir = defaultUserDataDir(io.env);
    // Why kept reviews: a skill whose files did not change is not reviewed again (every file is
    // still read and hashed); the same reviews `catalog` keeps (main/cli/support/kept-reviews.ts).
    const kept = await keptReviews(buildCache(dataDir), roots);
    const skills = await reviewSkillFolders([...folders.values()], dataDir, kept?.memo);
    await kept?.save();
    const first = skills[0];
    if (trust && first) {
      if (first.report.findings.length === 0)
        io.stderr(
          term`skillbench scan: ${first.name} has no findings, so there is nothing to trust.\n`,
        );
      else {
        const accepted = await trustAnyway(dataDir, first, trust.reason, trust.days);
        skills[0] = { ...first, report: withAcceptance(first.report, accepted), accepted };
        io.stderr(
          term`skillbench scan: ${first.name} is trusted until ${accepted.expires.slice(0, 10)} for your reason; any change to its files asks again.\n`,
        );
      }
    }
    if (format === 'json') io.stdout(`${JSON.stringify(toScanJson(skills, io.cwd), null, 2)}\n`);
    else if (format === 'sarif')
      io.stdout(`${JSON.stringify(toScanSarif(skills, io.cwd, '0.1.0'), null, 2)}\n`);
    else terminalIO(io).stdout(toScanText(skills, io.cwd));
    if (problem) return 2;
    return skills.some((s) => RANK[s.report.verdict] >= RANK[failOn]) ? 1 : 0;
  },
};
