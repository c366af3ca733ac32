/**
 * The deterministic selection baseline of Universal 2.1 (seed 003, "Selection & Progressive
 * Disclosure"; docs/agent-view.md §2): a skill the user names explicitly is selected; every other
 * skill scores +3 per file-type match, +2 per mention match and +1 per intent match, and is
 * selected when its score reaches the threshold (default 3). Selected skills are ordered by
 * score, then `when_to_use.priority`, then name. Every point is given with its reason, and every
 * place in the order with the rule that decided it, so an author can see why. A skill only the user
 * may start (`disable-model-invocation`) is selected only when the prompt names it.
 */
import { modelInvocationDisabled, nameKey } from './catalog';
import { priorityRank, readTriggers, type Triggers } from './triggers';

/** The default selection threshold (seed 003). */
export const DEFAULT_THRESHOLD = 3;

/** Points per match (seed 003). */
export const POINTS = { fileType: 3, mention: 2, intent: 1 } as const;

/** A skill as selection sees it. */
export interface SelectableSkill {
  name: string;
  description: string;
  /** The frontmatter as plain data (for `when_to_use`); undefined when unknown. */
  frontmatter?: unknown;
}

/** What the user gives: the prompt, the names of attached files and the host's intents. */
export interface SelectionInput {
  prompt: string;
  files?: readonly string[];
  intents?: readonly string[];
  threshold?: number;
}

/** One reason a skill scored (or was named). */
export interface Reason {
  kind: 'named' | 'mention' | 'file-type' | 'intent';
  /** The trigger that matched: the mention, the file type, the intent, or the name. */
  trigger: string;
  /** What in the input it matched: the words of the prompt, the file name, the intent. */
  matched: string;
  points: number;
  /** A plain sentence. */
  text: string;
}

/** Why a selected skill sits where it does, compared with the one before it. */
export interface OrderNote {
  by: 'named' | 'score' | 'priority' | 'name';
  text: string;
}

/** One skill's outcome. */
export interface ScoredSkill {
  name: string;
  score: number;
  reasons: Reason[];
  selected: boolean;
  /** The user named it explicitly. */
  named: boolean;
  /** It has `when_to_use` triggers the algorithm can use. */
  hasTriggers: boolean;
  priority?: number | string;
  /** Selected skills: the rule that placed it after the one before. */
  order?: OrderNote;
  /** Not selected: why, in a sentence. */
  why?: string;
  /** What in its `when_to_use` was not read, a sentence each (absent when everything was). */
  ignored?: string[];
  /** Skills without triggers: words their description shares with the prompt (a hint, not the algorithm). */
  hint?: { sharedWords: string[]; text: string };
}

/** The outcome of one selection. */
export interface Selection {
  threshold: number;
  /** In selection order. */
  selected: ScoredSkill[];
  /** Every skill not selected, highest score first, then by name. */
  considered: ScoredSkill[];
}

/** Letters, digits and marks (and `_`): what a whole word is made of. */
const WORD = String.raw`[\p{L}\p{N}\p{M}_]`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A regular expression matching `phrase` as whole words, case-insensitively; runs of spaces in
 * the phrase match any run of white space. A boundary is required only where the phrase starts or
 * ends with a word character (so `c++` or `.net` can be mentions too).
 */
export function wholeWords(phrase: string): RegExp | null {
  const words = nameKey(phrase).trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const body = words.map(escapeRegExp).join(String.raw`\s+`);
  const first = words[0] ?? '';
  const last = words[words.length - 1] ?? '';
  const wordAt = (c: string) => new RegExp(`^${WORD}$`, 'u').test(c);
  const before = wordAt(first[0] ?? '') ? `(?<!${WORD})` : '';
  const after = wordAt(last[last.length - 1] ?? '') ? `(?!${WORD})` : '';
  return new RegExp(`${before}${body}${after}`, 'iu');
}

/** A skill name as a whole token: hyphens count as part of it, so `pdf` is not found in `pdf-tools`. */
const NAME_CHAR = String.raw`[\p{L}\p{N}\p{M}_-]`;

/**
 * How the prompt names a skill explicitly, or null (docs/agent-view.md §2): `/name`, `$name` or
 * `@name` (how hosts invoke a skill), the name next to the word "skill" ("the pdf-tools skill",
 * "skill pdf-tools"), or a name with a hyphen written out whole (no ordinary word has one).
 */
export function namedIn(rawPrompt: string, rawName: string): string | null {
  // Why NFKC: text typed or pasted in decomposed form (é as e + accent) is the same name, and
  // names are compared this way for collisions too.
  const prompt = nameKey(rawPrompt);
  const name = nameKey(rawName);
  if (name.trim() === '') return null;
  const n = escapeRegExp(name.trim());
  const marked = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_/])[/$@]${n}(?!${NAME_CHAR})`, 'iu');
  const beside = new RegExp(
    `(?<!${NAME_CHAR})(?:${n}\\s+skill|skill\\s+["'\u201c\u2018]?${n})(?!${NAME_CHAR})`,
    'iu',
  );
  for (const re of [marked, beside]) {
    const m = re.exec(prompt);
    if (m) return m[0];
  }
  if (name.includes('-')) {
    const whole = new RegExp(`(?<!${NAME_CHAR})${n}(?!${NAME_CHAR})`, 'iu');
    const m = whole.exec(prompt);
    if (m) return m[0];
  }
  return null;
}

/** The last segment of a file name or path (either separator). */
function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

/** Does `file` have the extension `type` (`.pdf`, `.tar.gz`), compared case-insensitively? */
export function hasFileType(file: string, type: string): boolean {
  const name = baseName(file).toLowerCase();
  return name.length > type.length && name.endsWith(type);
}

/** Common English words left out of the description hint: they say nothing about a skill. */
const STOP_WORDS = new Set(
  (
    'the and for with from that this these those into onto when what which while where who whom ' +
    'use used uses using your you yours our ours their them they its it’s it has have had are was ' +
    'were will would can could should may might must not any all each every some such than then ' +
    'also only just more most other about over under after before between out off own same very ' +
    'how why there here been being does did doing done make makes made get gets got need needs ' +
    'want wants like skill skills please help'
  ).split(/\s+/),
);

/** Distinct words of a text worth comparing: lower-cased, three letters or more, no stop words. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const m of nameKey(text)
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)) {
    const w = m[0];
    if (w.length < 3 || STOP_WORDS.has(w) || out.includes(w)) continue;
    out.push(w);
  }
  return out;
}

function score(triggers: Triggers, input: SelectionInput): { score: number; reasons: Reason[] } {
  const reasons: Reason[] = [];
  for (const type of triggers.fileTypes) {
    const file = (input.files ?? []).find((f) => hasFileType(f, type));
    if (file !== undefined)
      reasons.push({
        kind: 'file-type',
        trigger: type,
        matched: file,
        points: POINTS.fileType,
        text: `The attached file “${baseName(file)}” is a ${type} file (+${POINTS.fileType}).`,
      });
  }
  for (const mention of triggers.mentions) {
    const m = wholeWords(mention)?.exec(nameKey(input.prompt));
    if (m)
      reasons.push({
        kind: 'mention',
        trigger: mention,
        matched: m[0],
        points: POINTS.mention,
        text: `The prompt mentions “${m[0]}” (mention “${mention}”, +${POINTS.mention}).`,
      });
  }
  const hostIntents = (input.intents ?? []).map((i) => i.trim());
  for (const intent of triggers.intents) {
    const key = nameKey(intent).toLowerCase();
    const hit = hostIntents.find((i) => nameKey(i).toLowerCase() === key);
    if (hit !== undefined)
      reasons.push({
        kind: 'intent',
        trigger: intent,
        matched: hit,
        points: POINTS.intent,
        text: `The host's intent “${hit}” is one of this skill's intents (+${POINTS.intent}).`,
      });
  }
  return { score: reasons.reduce((n, r) => n + r.points, 0), reasons };
}

/** Compare for selection order: named first, then score, priority (higher first), name. */
function compare(a: ScoredSkill, b: ScoredSkill): number {
  if (a.named !== b.named) return a.named ? -1 : 1;
  if (a.score !== b.score) return b.score - a.score;
  const pa = priorityRank(a.priority);
  const pb = priorityRank(b.priority);
  if (pa !== pb) return pb - pa;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function priorityText(p: number | string | undefined): string {
  return p === undefined ? 'no priority' : `priority ${String(p)}`;
}

/** The rule that put `cur` right after `prev` (or first). */
function orderNote(prev: ScoredSkill | undefined, cur: ScoredSkill): OrderNote {
  if (!prev)
    return cur.named
      ? { by: 'named', text: 'First: the prompt names it.' }
      : { by: 'score', text: `First: the highest score (${cur.score}).` };
  if (prev.named && !cur.named)
    return {
      by: 'named',
      text: `After ${prev.name}: skills the prompt names come before skills chosen by score.`,
    };
  if (prev.score !== cur.score)
    return {
      by: 'score',
      text: `After ${prev.name}: a lower score (${cur.score} against ${prev.score}).`,
    };
  if (priorityRank(prev.priority) !== priorityRank(cur.priority))
    return {
      by: 'priority',
      text: `After ${prev.name}: the same score (${cur.score}), and a lower priority (${priorityText(cur.priority)} against ${priorityText(prev.priority)}).`,
    };
  return {
    by: 'name',
    text: `After ${prev.name}: the same score (${cur.score}) and priority, so the names decide (alphabetical order).`,
  };
}

/** Run the selection baseline over `skills` for one input (see the module comment). */
export function selectSkills(skills: readonly SelectableSkill[], input: SelectionInput): Selection {
  const threshold =
    input.threshold !== undefined && Number.isFinite(input.threshold)
      ? input.threshold
      : DEFAULT_THRESHOLD;
  const promptWords = contentWords(input.prompt);
  const all: ScoredSkill[] = skills.map((skill) => {
    const reading = readTriggers(skill.frontmatter);
    const namedAs = namedIn(input.prompt, skill.name);
    const out: ScoredSkill = {
      name: skill.name,
      score: 0,
      reasons: [],
      selected: false,
      named: namedAs !== null,
      hasTriggers: reading.kind === 'triggers',
    };
    if (reading.ignored.length > 0) out.ignored = reading.ignored;
    if (reading.kind === 'triggers') {
      const s = score(reading.triggers, input);
      out.score = s.score;
      out.reasons = s.reasons;
      if (reading.triggers.priority !== undefined) out.priority = reading.triggers.priority;
    }
    if (namedAs !== null)
      out.reasons.unshift({
        kind: 'named',
        trigger: skill.name,
        matched: namedAs,
        points: 0,
        text: `The prompt names this skill (“${namedAs}”), so it is selected whatever its score.`,
      });
    const userOnly = modelInvocationDisabled(skill.frontmatter);
    out.selected = out.named || (!userOnly && out.hasTriggers && out.score >= threshold);
    if (!out.selected) {
      if (userOnly)
        out.why = `Only the user can start it (its frontmatter sets disable-model-invocation), so it is never picked by itself. Naming it (for example /${skill.name}) selects it.`;
      else if (reading.kind === 'none') {
        out.why = `${reading.why} Only naming it (for example /${skill.name}) selects it.`;
        // Why when_to_use too: Claude Code shows the model its free-text when_to_use beside the
        // description (docs/skill-format.md §2.3), so the model chooses from both.
        const fm = skill.frontmatter as Record<string, unknown> | undefined;
        const whenText = typeof fm?.['when_to_use'] === 'string' ? fm['when_to_use'] : '';
        const what = whenText ? 'its description and when_to_use share' : 'its description shares';
        const desc = new Set(contentWords(`${skill.description}\n${whenText}`));
        const shared = promptWords.filter((w) => desc.has(w));
        out.hint = {
          sharedWords: shared,
          text:
            shared.length > 0
              ? `Hint, not part of the selection rules: ${what} ${shared.map((w) => `“${w}”`).join(', ')} with the prompt; a host that lets the model choose from descriptions might pick it.`
              : `Hint, not part of the selection rules: ${what} no words with the prompt.`,
        };
      } else
        out.why =
          out.score === 0
            ? `Nothing in the prompt, the files or the intents matches its triggers (threshold ${threshold}).`
            : `Its score ${out.score} is below the threshold ${threshold}.`;
    }
    return out;
  });
  const selected = all.filter((s) => s.selected).sort(compare);
  selected.forEach((s, i) => (s.order = orderNote(selected[i - 1], s)));
  const considered = all
    .filter((s) => !s.selected)
    .sort((a, b) =>
      a.score !== b.score ? b.score - a.score : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  return { threshold, selected, considered };
}
