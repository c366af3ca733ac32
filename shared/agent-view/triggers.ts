/**
 * Reading a skill's triggers: Universal 2.1's `when_to_use` mapping (docs/skill-format.md §2.6,
 * docs/agent-view.md §2). Claude Code also has a `when_to_use` key, but as free text for the
 * model, not as triggers; such a skill is reported as having none.
 */

/** The triggers of one skill, cleaned up for matching. */
export interface Triggers {
  /** Words or phrases (as written; matched as whole words, case-insensitively). */
  mentions: string[];
  /** Extensions, normalised to a leading dot and lower case (`.pdf`). */
  fileTypes: string[];
  /** Intents as written (compared case-insensitively). */
  intents: string[];
  /** `when_to_use.priority` as written, if any. */
  priority?: number | string;
}

/**
 * A skill's triggers, or why it has none; `ignored` says, a sentence each, what in `when_to_use`
 * was not read (a list written as text, an item that is not text, a file type that is no
 * extension), so an author sees why a trigger never matches.
 */
export type TriggerReading = (
  { kind: 'triggers'; triggers: Triggers } | { kind: 'none'; why: string }
) & { ignored: string[] };

/** The text items of `when_to_use.<key>`, with a sentence in `ignored` for each thing not read. */
function textList(m: Record<string, unknown>, key: string, ignored: string[]): string[] {
  const value = m[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    ignored.push(
      typeof value === 'string'
        ? `when_to_use.${key} is written as text, not a list, so it is not read. Write ${key}: [${value.trim()}].`
        : `when_to_use.${key} is not a list, so it is not read.`,
    );
    return [];
  }
  const out: string[] = [];
  for (const v of value) {
    if (typeof v === 'string') {
      if (v.trim() !== '') out.push(v);
    } else
      ignored.push(
        `when_to_use.${key} holds ${JSON.stringify(v) ?? String(v)}, which is not text, so it is not read. Put it in quotes.`,
      );
  }
  return out;
}

/**
 * A declared file type as an extension to compare: trimmed, lower-cased, a leading `*` dropped,
 * a leading dot added. Returns null for what is not an extension (a MIME type, an empty text).
 */
export function normaliseFileType(type: string): string | null {
  let t = type.trim().toLowerCase();
  if (t.startsWith('*')) t = t.slice(1);
  if (t === '' || t === '.' || t.includes('/') || /\s/.test(t)) return null;
  return t.startsWith('.') ? t : `.${t}`;
}

/** Read `when_to_use` from a skill's frontmatter (plain data). */
export function readTriggers(frontmatter: unknown): TriggerReading {
  const fm =
    frontmatter !== null && typeof frontmatter === 'object' && !Array.isArray(frontmatter)
      ? (frontmatter as Record<string, unknown>)
      : undefined;
  const w = fm?.['when_to_use'];
  if (w === undefined || w === null)
    return { kind: 'none', why: 'It has no when_to_use triggers.', ignored: [] };
  if (typeof w === 'string')
    return {
      kind: 'none',
      why: 'Its when_to_use is free text for the model (as Claude Code reads it), not triggers.',
      ignored: [],
    };
  if (typeof w !== 'object' || Array.isArray(w))
    return {
      kind: 'none',
      why: 'Its when_to_use is not a mapping, so it holds no triggers.',
      ignored: [],
    };
  const m = w as Record<string, unknown>;
  const ignored: string[] = [];
  const fileTypes: string[] = [];
  for (const t of textList(m, 'file_types', ignored)) {
    const n = normaliseFileType(t);
    if (n === null)
      ignored.push(
        `“${t.trim()}” in when_to_use.file_types is not a file extension (such as .pdf), so it is not read.`,
      );
    else if (!fileTypes.includes(n)) fileTypes.push(n);
  }
  const triggers: Triggers = {
    mentions: [...new Set(textList(m, 'mentions', ignored).map((s) => s.trim()))],
    fileTypes,
    intents: [...new Set(textList(m, 'intents', ignored).map((s) => s.trim()))],
  };
  const p = m['priority'];
  if (typeof p === 'number' || typeof p === 'string') triggers.priority = p;
  if (
    triggers.mentions.length === 0 &&
    triggers.fileTypes.length === 0 &&
    triggers.intents.length === 0
  )
    return {
      kind: 'none',
      why: 'Its when_to_use lists no mentions, file types or intents.',
      ignored,
    };
  return { kind: 'triggers', triggers, ignored };
}

/** Named priority levels and the number each stands for (docs/agent-view.md §2). */
const PRIORITY_WORDS: Readonly<Record<string, number>> = {
  critical: 2,
  highest: 2,
  high: 1,
  medium: 0,
  normal: 0,
  default: 0,
  low: -1,
  lowest: -2,
};

/**
 * A priority as a number to compare, higher first: numbers as they are, numeric text parsed,
 * the words of {@link PRIORITY_WORDS}. No priority, or text that is none of these, counts as 0
 * (the same as `medium`).
 */
export function priorityRank(priority: number | string | undefined): number {
  if (priority === undefined) return 0;
  if (typeof priority === 'number') return Number.isFinite(priority) ? priority : 0;
  const t = priority.trim().toLowerCase();
  if (t !== '' && Number.isFinite(Number(t))) return Number(t);
  return PRIORITY_WORDS[t] ?? 0;
}
