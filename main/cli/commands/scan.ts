import { parseArgs } from 'node:util';
import { mapLimit } from '../../platform/concurrency';
import { fsErrorSentence } from '../../platform/fs-errors';
import { defaultUserDataDir } from '../../platform/user-data';
import { toScanJson, toScanSarif, toScanText } from '../../safety/report-format';
import { reviewSkillFolder, skillsAt, type ReviewedSkill } from '../../safety/service';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { UsageError, type CliCommand, type CliIO } from '../support/types';
import { parseChoice, parseProblem } from '../support/words';

const USAGE = `Usage: skillbench scan PATH... [--format text|json|sarif] [--fail-on review|danger]

Review skills for risks before you trust them: hidden text, instructions aimed at the agent,
what scripts do, the frontmatter's permissions, the supply chain, disguised files and secrets.
Offline; every file is read whole. PATH is a skill folder or a folder of skills.

Each skill gets one verdict: "No known risks found", "Review before trusting" or "Don't trust",
a summary of what it can do, and each finding with its file and line, why it matters and what
to do. Findings you accepted in the app ("Trust anyway") stay listed, marked accepted.

  --format F    text (default), json ({"skills":[{path,name,verdict,findings,notExamined}]}),
                or sarif (SARIF 2.1.0; accepted findings are suppressions).
  --fail-on V   exit 1 when a skill's verdict is V or worse: review (the default) or danger.

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
    let parsed;
    try {
      parsed = parseArgs({
        args,
        allowPositionals: true,
        strict: true,
        options: { format: { type: 'string', short: 'f' }, 'fail-on': { type: 'string' } },
      });
    } catch (error) {
      throw new UsageError(parseProblem(error, 'scan', args));
    }
    const { values, positionals } = parsed;
    if (positionals.length === 0)
      throw new UsageError('Give at least one PATH: a skill folder or a folder of skills.');
    const format = parseChoice('--format', values.format ?? 'text', FORMATS);
    const failOn = parseChoice('--fail-on', values['fail-on'] ?? 'review', [
      'review',
      'danger',
    ] as const);
    const folders: string[] = [];
    // Why go on past a bad PATH: the skills of the other paths are still reviewed and shown (a
    // typo in one of many must not hide a "Don't trust"); the exit status still says 2.
    let problem = false;
    for (const p of positionals) {
      try {
        const found = await skillsAt(p);
        if (found.length === 0) {
          io.stderr(term`skillbench scan: no skill (a folder with SKILL.md) under ${p}.\n`);
          problem = true;
        }
        folders.push(...found);
      } catch (error) {
        io.stderr(term`skillbench scan: ${fsErrorSentence(error, p, 'read')}\n`);
        problem = true;
      }
    }
    if (folders.length === 0) return 2;
    const dataDir = defaultUserDataDir(io.env);
    const skills: ReviewedSkill[] = await mapLimit([...new Set(folders)], 2, (dir) =>
      reviewSkillFolder(dir, dataDir),
    );
    if (format === 'json') io.stdout(`${JSON.stringify(toScanJson(skills, io.cwd), null, 2)}\n`);
    else if (format === 'sarif')
      io.stdout(`${JSON.stringify(toScanSarif(skills, io.cwd, '0.1.0'), null, 2)}\n`);
    else terminalIO(io).stdout(toScanText(skills, io.cwd));
    if (problem) return 2;
    return skills.some((s) => RANK[s.report.verdict] >= RANK[failOn]) ? 1 : 0;
  },
};
