/**
 * Trigger evals (docs/agent-view.md §3): a skill may keep example prompts that should and should
 * not select it in `evals/triggers.json`. The root `evals/` folder stays in the author's folder
 * and is withheld from every export and from the server (shared/skill/file-set.ts), so the
 * examples never reach a model. Running them gives seed 003's activation precision and recall,
 * per skill and for the library, and names the skills that took a prompt meant for another.
 */
import { z } from 'zod';
import { didYouMean } from '../text/edit-distance';
import { jsonKind, valueAt } from '../text/json-kind';
import { grouped } from '../text/words';
import { selectSkills, type SelectableSkill, type SelectionInput } from './select';

/** Where a skill keeps its trigger evals, relative to the skill folder. */
export const TRIGGER_EVALS_FILE = 'evals/triggers.json';

/** Largest triggers.json read (a list of prompts, never this big in practice). */
export const TRIGGER_EVALS_MAX_BYTES = 1024 * 1024;

/** One example: a prompt, with the names of attached files and the host's intents. */
export interface TriggerCase {
  prompt: string;
  files?: string[];
  intents?: string[];
}

/** A skill's examples. */
export interface TriggerEvals {
  shouldSelect: TriggerCase[];
  shouldNotSelect: TriggerCase[];
}

/** Longest prompt, most file names and intents per example, most examples per list. */
const MAX_PROMPT = 20_000;
const MAX_LIST = 1000;

const caseObjectSchema = z
  .object({
    prompt: z.string().min(1).max(MAX_PROMPT),
    files: z.array(z.string().max(1000)).max(100).optional(),
    intents: z.array(z.string().max(200)).max(100).optional(),
  })
  .strict();

const caseSchema = z.union([z.string().min(1).max(MAX_PROMPT), caseObjectSchema]);

const fileSchema = z
  .object({
    $schema: z.string().optional(),
    should_select: z.array(caseSchema).max(MAX_LIST).optional(),
    should_not_select: z.array(caseSchema).max(MAX_LIST).optional(),
  })
  .strict();

/** The keys each level of the file knows, for "did you mean". */
const FILE_KEYS = ['should_select', 'should_not_select', '$schema'] as const;
const CASE_KEYS = ['prompt', 'files', 'intents'] as const;

/** What the file holds, in one sentence (said after any problem). */
const SHAPE =
  'Expected: one JSON object with the lists "should_select" and "should_not_select", each example a prompt or an object with "prompt" and optional "files" and "intents" (lists of text).';

/** Where in the file a problem is, in words: `example 2 of "should_select"`. */
function placeOf(path: readonly PropertyKey[]): string {
  const [list, index, key, item] = path;
  if (list === undefined) return 'the file';
  if (typeof index !== 'number') return `"${String(list)}"`;
  const example = `example ${index + 1} of "${String(list)}"`;
  if (key === undefined) return example;
  const field = `"${String(key)}" in ${example}`;
  return typeof item === 'number' ? `entry ${item + 1} of ${field}` : field;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const WANTED: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'text',
};

/** One plain sentence for a problem the schema found. */
function issueSentence(issue: z.core.$ZodIssue, raw: unknown): string {
  const path = issue.path;
  const place = capital(placeOf(path));
  const value = valueAt(raw, path);
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined)
        return `${capital(placeOf(path.slice(0, -1)))} has no "${String(path[path.length - 1])}".`;
      return `${place} must be ${WANTED[issue.expected] ?? issue.expected}, not ${jsonKind(value)}.`;
    case 'unrecognized_keys': {
      const known: readonly string[] = path.length === 0 ? FILE_KEYS : CASE_KEYS;
      return issue.keys
        .map((k) => {
          const guess = didYouMean(k, known);
          return `${place} has the key "${k}", which this file does not use${guess ? ` (did you mean "${guess}"?)` : ''}.`;
        })
        .join(' ');
    }
    case 'too_small':
      return `${place} is empty.`;
    case 'too_big':
      return `${place} is too long: at most ${grouped(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'entries'}.`;
    case 'invalid_union':
      // An example that is neither a prompt nor a valid object: say what is wrong with the object.
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const inner = caseObjectSchema.safeParse(value);
        if (!inner.success)
          return inner.error.issues
            .map((i) => issueSentence({ ...i, path: [...path, ...i.path] }, raw))
            .join(' ');
      }
      return `${place} must be a prompt (text) or an object with "prompt", not ${jsonKind(value)}.`;
    default:
      return `${place} is not valid (${issue.message}).`;
  }
}

/**
 * Why a file in Anthropic's skill-creator format (a list of `{query, should_trigger}`) is refused,
 * and how to write it here: the format a newcomer most likely brings.
 */
function looksLikeSkillCreator(raw: unknown): boolean {
  return (
    Array.isArray(raw) &&
    raw.some((e) => e !== null && typeof e === 'object' && ('query' in e || 'should_trigger' in e))
  );
}

/** Read a triggers.json text; a plain sentence when it is not in the documented shape. */
export function parseTriggerEvals(
  text: string,
): { ok: true; evals: TriggerEvals } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return {
      ok: false,
      error: `${TRIGGER_EVALS_FILE} is not valid JSON (${(e as Error).message}).`,
    };
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const what = looksLikeSkillCreator(raw)
      ? 'The file is a list of {"query", "should_trigger"} entries (the skill-creator format). Put the queries with should_trigger true in "should_select" and the others in "should_not_select".'
      : parsed.error.issues
          .slice(0, 3)
          .map((i) => issueSentence(i, raw))
          .join(' ');
    return {
      ok: false,
      error: `${TRIGGER_EVALS_FILE} is not in the expected shape. ${what} ${SHAPE}`,
    };
  }
  const norm = (c: z.infer<typeof caseSchema>): TriggerCase =>
    typeof c === 'string' ? { prompt: c } : c;
  return {
    ok: true,
    evals: {
      shouldSelect: (parsed.data.should_select ?? []).map(norm),
      shouldNotSelect: (parsed.data.should_not_select ?? []).map(norm),
    },
  };
}

/** One example's outcome. */
export interface CaseOutcome {
  prompt: string;
  files: string[];
  intents: string[];
  expected: 'select' | 'not-select';
  /** The skill was selected. */
  selected: boolean;
  /** `expected` and `selected` agree. */
  passed: boolean;
  /** Every skill selected, in selection order. */
  selection: string[];
  /** A should-select example: the other skills selected, which took (or shared) the prompt. */
  stolenBy: string[];
}

/** Counts and rates; a rate is null when nothing was there to divide. */
export interface Metrics {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  /** Of the times the skill was selected on a labelled example, how many were right. */
  precision: number | null;
  /** Of the examples that should select it, how many did. */
  recall: number | null;
}

/** One skill's report. */
export interface SkillEvalReport {
  name: string;
  /** Where its examples live (for people). */
  file?: string;
  /** A triggers.json that could not be read: why. */
  error?: string;
  cases: CaseOutcome[];
  metrics: Metrics;
  /** Examples of other skills that selected this one (counted as false positives here). */
  took: { prompt: string; from: string }[];
}

/** The whole run. */
export interface EvalReport {
  threshold: number;
  skills: SkillEvalReport[];
  /** Summed over every skill's counts (micro-average). */
  library: Metrics;
  /** Skills that have no examples. */
  withoutEvals: string[];
  /** Examples that were not run because their skill is hidden by a name collision, with why. */
  notRun: { name: string; file?: string; why: string }[];
}

function metrics(tp: number, fp: number, fn: number, tn: number): Metrics {
  return {
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    recall: tp + fn === 0 ? null : tp / (tp + fn),
  };
}

/** A skill's examples as the runner takes them: already read, or the reason they could not be. */
export type EvalSource = { evals: TriggerEvals; file?: string } | { error: string; file?: string };

/**
 * Run every skill's examples against the whole set of skills (so another skill can take a
 * prompt). Counting (docs/agent-view.md §3): a should-select example is a true positive when its
 * skill is selected, else a false negative; a should-not-select example is a false positive when
 * its skill is selected, else a true negative; and a skill selected on another skill's
 * should-select example, which it does not list itself, has taken that prompt: a false positive
 * for it.
 */
export function runTriggerEvals(
  skills: readonly SelectableSkill[],
  sources: ReadonlyMap<string, EvalSource>,
  threshold?: number,
): EvalReport {
  const reports = new Map<string, SkillEvalReport>();
  const counts = new Map<string, { tp: number; fp: number; fn: number; tn: number }>();
  const count = (name: string) => {
    let c = counts.get(name);
    if (!c) counts.set(name, (c = { tp: 0, fp: 0, fn: 0, tn: 0 }));
    return c;
  };
  const positives = new Map<string, Set<string>>();
  for (const [name, src] of sources)
    if ('evals' in src) positives.set(name, new Set(src.evals.shouldSelect.map((c) => c.prompt)));
  let usedThreshold = threshold;
  const took = new Map<string, { prompt: string; from: string }[]>();
  for (const skill of skills) {
    const src = sources.get(skill.name);
    if (!src || reports.has(skill.name)) continue;
    const report: SkillEvalReport = {
      name: skill.name,
      cases: [],
      metrics: metrics(0, 0, 0, 0),
      took: [],
    };
    if (src.file !== undefined) report.file = src.file;
    reports.set(skill.name, report);
    if ('error' in src) {
      report.error = src.error;
      continue;
    }
    const run = (c: TriggerCase, expected: 'select' | 'not-select') => {
      const input: SelectionInput = { prompt: c.prompt, files: c.files, intents: c.intents };
      if (threshold !== undefined) input.threshold = threshold;
      const result = selectSkills(skills, input);
      usedThreshold = result.threshold;
      const selection = result.selected.map((s) => s.name);
      const selected = selection.includes(skill.name);
      const others = selection.filter((n) => n !== skill.name);
      const outcome: CaseOutcome = {
        prompt: c.prompt,
        files: c.files ?? [],
        intents: c.intents ?? [],
        expected,
        selected,
        passed: (expected === 'select') === selected,
        selection,
        stolenBy: expected === 'select' ? others : [],
      };
      report.cases.push(outcome);
      const mine = count(skill.name);
      if (expected === 'select') {
        if (selected) mine.tp++;
        else mine.fn++;
        for (const other of others) {
          if (positives.get(other)?.has(c.prompt)) continue;
          count(other).fp++;
          const list = took.get(other) ?? [];
          list.push({ prompt: c.prompt, from: skill.name });
          took.set(other, list);
        }
      } else if (selected) mine.fp++;
      else mine.tn++;
    };
    for (const c of src.evals.shouldSelect) run(c, 'select');
    for (const c of src.evals.shouldNotSelect) run(c, 'not-select');
  }
  // A skill without examples of its own can still take others' prompts: report it too.
  for (const name of took.keys())
    if (!reports.has(name))
      reports.set(name, { name, cases: [], metrics: metrics(0, 0, 0, 0), took: [] });
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const report of reports.values()) {
    const c = counts.get(report.name) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
    report.metrics = metrics(c.tp, c.fp, c.fn, c.tn);
    report.took = took.get(report.name) ?? [];
    tp += c.tp;
    fp += c.fp;
    fn += c.fn;
    tn += c.tn;
  }
  const order = new Map(skills.map((s, i) => [s.name, i]));
  return {
    threshold: usedThreshold ?? selectSkills([], { prompt: '' }).threshold,
    skills: [...reports.values()].sort(
      (a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0),
    ),
    library: metrics(tp, fp, fn, tn),
    withoutEvals: skills.filter((s) => !sources.has(s.name)).map((s) => s.name),
    notRun: [],
  };
}
