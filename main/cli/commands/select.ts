import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EvalReport, Metrics, ScoredSkill, Selection } from '../../../shared/agent-view';
import { evalsFrom, selectFrom } from '../../agent-view/service';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { UsageError, type CliCommand, type CliIO } from '../support/types';
import { parseChoice, parseNumber } from '../support/words';

const USAGE = `Usage:
  skillbench select "PROMPT" [--file NAME]... [--intent I]... [--threshold N] [--format text|json] LIB...
  skillbench select --eval [--threshold N] [--format text|json] LIB...

Runs the deterministic selection of Universal 2.1 over the skills of the library folders: a
skill the prompt names (/name, $name, @name, "the name skill") is selected; every other skill
scores +3 per file type of an attached file, +2 per mention found in the prompt (whole words,
any case) and +1 per host intent, and is selected at the threshold or above. Selected skills
are ordered by score, then when_to_use.priority, then name; each point is explained.

  --file NAME          the name of an attached file (repeatable; only its extension counts)
  --intent I           an intent the host detected (repeatable)
  --threshold N        the score that selects a skill (default 3)
  --eval               run every skill's evals/triggers.json examples instead of one prompt, and
                       report activation precision and recall per skill and for the library
  --format text|json   text (default) or JSON: {"selected": [...], "considered": [...]} in
                       selection order, or the eval report

Exit codes: 0 done (with --eval: every example passed), 1 an example failed, 2 usage or I/O
problem (a library folder could not be read or holds no skill).
`;

/** The highest `--threshold` (a score: +3 per file type, +2 per mention, +1 per intent). */
const MAX_THRESHOLD = 1000;

interface SelectArgs {
  prompt?: string;
  files: string[];
  intents: string[];
  threshold?: number;
  evaluate: boolean;
  format: 'text' | 'json';
  libs: string[];
}

function parse(args: string[]): SelectArgs {
  const out: SelectArgs = { files: [], intents: [], evaluate: false, format: 'text', libs: [] };
  const { values, positionals } = readCommandLine('select', args, {
    file: { type: 'string', multiple: true },
    intent: { type: 'string', multiple: true },
    threshold: { type: 'string' },
    eval: { type: 'boolean' },
    format: { type: 'string' },
  });
  out.files = values.file ?? [];
  out.intents = values.intent ?? [];
  out.evaluate = values.eval === true;
  if (values.threshold !== undefined)
    out.threshold = parseNumber('--threshold', values.threshold, {
      min: 0,
      max: MAX_THRESHOLD,
      whole: false,
    });
  if (values.format !== undefined)
    out.format = parseChoice('--format', values.format, ['text', 'json'] as const);
  if (out.evaluate) {
    if (out.files.length > 0 || out.intents.length > 0)
      throw new UsageError(
        '--file and --intent belong to one prompt; --eval reads them from each example.',
      );
    out.libs = positionals;
  } else {
    const [prompt, ...libs] = positionals;
    if (prompt === undefined) throw new UsageError('Give the prompt, then the library folders.');
    out.prompt = prompt;
    out.libs = libs;
  }
  if (out.libs.length === 0)
    throw new UsageError(
      out.evaluate
        ? 'Give at least one library folder.'
        : // Why: "select lib" reads lib as the prompt; the person gave a folder and forgot the prompt.
          `Give the prompt first, then the library folders: ${
            out.prompt !== undefined && /\s/.test(out.prompt)
              ? `skillbench select "${out.prompt}" LIB`
              : `skillbench select "PROMPT" ${out.prompt ?? 'LIB'}`
          }.`,
    );
  return out;
}

function skillLines(s: ScoredSkill, index?: number): string[] {
  const head =
    index === undefined
      ? term`  - ${s.name}  score ${s.score}`
      : term`  ${index + 1}. ${s.name}  score ${s.score}${s.priority !== undefined ? `, priority ${String(s.priority)}` : ''}`;
  const lines = [head];
  for (const r of s.reasons) lines.push(term`       + ${r.text}`);
  for (const i of s.ignored ?? []) lines.push(term`       ! ${i}`);
  if (s.order) lines.push(term`       ${s.order.text}`);
  if (s.why) lines.push(term`       ${s.why}`);
  if (s.hint) lines.push(term`       ${s.hint.text}`);
  return lines;
}

/** A selection as people read it. */
export function selectionText(r: Selection): string {
  const lines = [`Threshold ${r.threshold}. Selected (${r.selected.length}):`];
  if (r.selected.length === 0) lines.push('  (none)');
  r.selected.forEach((s, i) => lines.push(...skillLines(s, i)));
  lines.push('', `Not selected (${r.considered.length}):`);
  for (const s of r.considered) lines.push(...skillLines(s));
  return `${lines.join('\n')}\n`;
}

function rate(value: number | null, part: number, whole: number): string {
  // Why "–": the window and docs/agent-view.md §3 show a rate with nothing to divide that way.
  return value === null ? '–' : `${Math.round(value * 100)}% (${part} of ${whole})`;
}

function metricsText(m: Metrics): string {
  return `precision ${rate(m.precision, m.truePositives, m.truePositives + m.falsePositives)}, recall ${rate(m.recall, m.truePositives, m.truePositives + m.falseNegatives)}`;
}

/** An eval report as people read it. */
export function evalText(r: EvalReport): string {
  const lines = [`Trigger evals (threshold ${r.threshold}):`];
  if (r.skills.length === 0) lines.push('  No skill has evals/triggers.json.');
  for (const s of r.skills) {
    lines.push(term`  ${s.name}: ${metricsText(s.metrics)}`);
    if (s.error) lines.push(term`    cannot read its examples: ${s.error}`);
    for (const c of s.cases) {
      if (c.passed) continue;
      const extra = [
        ...c.files.map((f) => `file ${f}`),
        ...c.intents.map((i) => `intent ${i}`),
      ].join(', ');
      lines.push(
        term`    FAIL should ${c.expected === 'select' ? '' : 'not '}select: “${c.prompt}”${extra ? ` [${extra}]` : ''} — selected: ${c.selection.join(', ') || 'nothing'}`,
      );
    }
    for (const t of s.took) lines.push(term`    took “${t.prompt}” from ${t.from}`);
  }
  lines.push(`Library: ${metricsText(r.library)}`);
  if (r.withoutEvals.length > 0)
    lines.push(term`Skills without examples: ${r.withoutEvals.join(', ')}`);
  for (const n of r.notRun)
    lines.push(term`Not run: the examples of ${n.name}${n.file ? ` (${n.file})` : ''}. ${n.why}`);
  return `${lines.join('\n')}\n`;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The prompt and a library folder given the other way round (`select LIB "PROMPT"`): the prompt
 * is an existing folder and the first library folder is not a folder. Said as a usage problem, since the
 * answer would otherwise be "nothing selected" beside a missing folder named after the prompt.
 */
function checkOrder(opts: SelectArgs, cwd: string): void {
  const prompt = opts.prompt;
  if (prompt === undefined || !isFolder(resolve(cwd, prompt))) return;
  const [first, ...rest] = opts.libs;
  if (first === undefined || isFolder(resolve(cwd, first))) return;
  const swapped = [prompt, ...rest].map((l) => `"${l}"`).join(' ');
  throw new UsageError(
    `The prompt comes first, then the library folders: "${prompt}" is a folder and "${first}" is not. Did you mean skillbench select "${first}" ${swapped}?`,
  );
}

async function run(args: string[], raw: CliIO): Promise<number> {
  const opts = parse(args);
  checkOrder(opts, raw.cwd);
  const roots = opts.libs.map((l) => resolve(raw.cwd, l));
  const text = terminalIO(raw);
  // Why 2 for a folder that could not be read: the answer would leave a whole library out.
  const unread = (problems: { path: string; message: string }[]): boolean => {
    for (const p of problems) text.stderr(term`skillbench select: ${p.message}\n`);
    return problems.some((p) => roots.includes(p.path));
  };
  if (opts.evaluate) {
    const { problems, ...report } = await evalsFrom({ roots }, opts.threshold);
    if (opts.format === 'json') raw.stdout(`${JSON.stringify(report, null, 2)}\n`);
    else text.stdout(evalText(report));
    if (unread(problems)) return 2;
    const failed = report.skills.some(
      (s) => s.error !== undefined || s.cases.some((c) => !c.passed),
    );
    return failed ? 1 : 0;
  }
  const { selection, problems } = await selectFrom(
    { roots },
    {
      prompt: opts.prompt ?? '',
      files: opts.files,
      intents: opts.intents,
      ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}),
    },
  );
  if (opts.format === 'json') raw.stdout(`${JSON.stringify(selection, null, 2)}\n`);
  else text.stdout(selectionText(selection));
  return unread(problems) ? 2 : 0;
}

/** `skillbench select` — which skills a prompt selects, and why; or the trigger evals. */
export const selectCommand: CliCommand = {
  name: 'select',
  usage: USAGE,
  run,
};
