import { isMap, isPair, isScalar } from 'yaml';
import type { YAMLMap } from 'yaml';
import type { ParsedSkill } from '../skill/frontmatter-parser';
import { quoteYamlString, textOf, yamlScalarText } from '../skill/yaml-strings';
import type { RuleContext, TopEntry } from './rule-context';
import type { QuickFix, TextEdit } from './types';

/** The file's own line break, so fixes do not mix line endings. */
export function eolOf(parsed: ParsedSkill): string {
  return parsed.lineEnding === 'crlf' ? '\r\n' : parsed.lineEnding === 'cr' ? '\r' : '\n';
}

/** A fix made of one replacement. */
export function replaceFix(
  title: string,
  start: number,
  end: number,
  newText: string,
  safe: boolean,
): QuickFix {
  return { title, edits: [{ start, end, newText }], safe };
}

/** Quote the text at [start, end) as a YAML double-quoted string holding `value`. */
export function quoteFix(
  start: number,
  end: number,
  value: string,
  safe: boolean,
  title = 'Put the value in quotes',
): QuickFix {
  return replaceFix(title, start, end, quoteYamlString(value), safe);
}

/** Replace a scalar's span, skipping the line breaks a block scalar's range includes. */
export function valueReplaceFix(
  parsed: ParsedSkill,
  start: number,
  end: number,
  value: string,
  title: string,
  safe: boolean,
): QuickFix {
  const text = parsed.text;
  let e = end;
  while (e > start && /[\s]/.test(text[e - 1] ?? '')) e--;
  return replaceFix(title, start, e, yamlScalarText(value), safe);
}

/** Convert every CRLF and lone CR to LF (one edit per CR so editors keep the cursor). */
export function lineEndingFix(text: string): QuickFix {
  const edits: TextEdit[] = [];
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) {
    edits.push(
      text.charCodeAt(i + 1) === 10
        ? { start: i, end: i + 1, newText: '' }
        : { start: i, end: i + 1, newText: '\n' },
    );
  }
  return { title: 'Convert line endings to LF', edits, safe: true };
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const METADATA_KEYS = new WeakMap<object, Set<string>>();

/**
 * The keys of the `metadata` mapping, gathered once per document. Why: the move fix is offered
 * for every unknown top-level key, and searching the mapping each time was quadratic.
 */
function metadataKeys(meta: YAMLMap): Set<string> {
  let keys = METADATA_KEYS.get(meta);
  if (!keys) {
    keys = new Set();
    for (const p of meta.items) if (isPair(p) && isScalar(p.key)) keys.add(String(p.key.value));
    METADATA_KEYS.set(meta, keys);
  }
  return keys;
}

/** Move one unknown top-level key into `metadata` as a string (docs/skill-format.md §2 `agentskills`: metadata is string → string). */
export function moveToMetadataFix(ctx: RuleContext, entry: TopEntry): QuickFix | null {
  const parsed = ctx.parsed;
  const fm = parsed.frontmatter;
  // Moving lines is only safe when the YAML structure is known: no parse errors, a text key.
  if (!fm || !fm.closer || entry.key === 'metadata' || parsed.yamlErrors.length > 0) return null;
  if (!isScalar(entry.pair.key) || typeof entry.pair.key.value !== 'string') return null;
  if (ctx.facts.keyCounts.get(entry.key) !== 1) return null;
  const eol = eolOf(parsed);
  const data = ctx.data ?? {};
  const raw = data[entry.key];
  const str = raw === null || raw === undefined ? '' : textOf(raw);
  const keyText = PLAIN_KEY.test(entry.key) ? entry.key : quoteYamlString(entry.key);
  const meta = ctx.entry('metadata');
  const edits: TextEdit[] = [{ start: entry.lineStart, end: entry.blockEnd, newText: '' }];
  if (!meta) {
    const at = fm.contentEnd;
    const needsBreak = at > fm.contentStart && !/[\r\n]/.test(parsed.text[at - 1] ?? '\n');
    edits.push({
      start: at,
      end: at,
      newText: `${needsBreak ? eol : ''}metadata:${eol}  ${keyText}: ${quoteYamlString(str)}${eol}`,
    });
  } else if (meta.value === null || (isScalar(meta.value) && meta.value.value === null)) {
    if (meta.blockEnd > entry.lineStart && meta.lineStart < entry.blockEnd) return null;
    edits.push({
      start: meta.lineStart,
      end: meta.blockEnd,
      newText: `metadata:${eol}  ${keyText}: ${quoteYamlString(str)}${eol}`,
    });
  } else if (isMap(meta.value) && !meta.value.flow && meta.value.items.length > 0) {
    if (metadataKeys(meta.value).has(entry.key)) return null;
    const first = meta.value.items[0];
    const ks = isPair(first) ? parsed.nodeSpan(first.key) : null;
    if (!ks) return null;
    let ls = ks.start;
    while (ls > 0 && parsed.text[ls - 1] !== '\n' && parsed.text[ls - 1] !== '\r') ls--;
    const indent = parsed.text.slice(ls, ks.start);
    if (!/^[ ]+$/.test(indent)) return null;
    const at = meta.blockEnd;
    const needsBreak = !/[\r\n]/.test(parsed.text[at - 1] ?? '\n');
    edits.push({
      start: at,
      end: at,
      newText: `${needsBreak ? eol : ''}${indent}${keyText}: ${quoteYamlString(str)}${eol}`,
    });
  } else return null;
  return { title: `Move '${entry.key}' into metadata`, edits, safe: false };
}

const SENTENCE_END = /[.!?。！？](?=\s|$)/g;

/**
 * Keep the first ≤ max code points of a description, cut at a sentence boundary (else at a
 * space, else hard), and return [kept, rest].
 */
export function splitDescription(desc: string, max: number): [string, string] {
  const cps = Array.from(desc);
  const head = cps.slice(0, max).join('');
  let cut = -1;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(head); m; m = SENTENCE_END.exec(head)) cut = m.index + m[0].length;
  if (cut <= 0) {
    const sp = head.search(/\s\S*$/);
    cut = sp > 0 ? sp : head.length;
  }
  const kept = head.slice(0, cut).trimEnd();
  return [kept, desc.slice(kept.length).trim()];
}

/** Fold a too-long description into the body: keep ≤ max code points, move the rest to the top of the body. */
export function foldDescriptionFix(
  ctx: RuleContext,
  start: number,
  end: number,
  desc: string,
  max: number,
): QuickFix | null {
  const parsed = ctx.parsed;
  if (!parsed.frontmatter?.closer || parsed.yamlErrors.length > 0) return null;
  const [kept, rest] = splitDescription(desc, max);
  if (!kept || !rest) return null;
  const eol = eolOf(parsed);
  let e = end;
  while (e > start && /\s/.test(parsed.text[e - 1] ?? '')) e--;
  const at = parsed.bodyStart;
  const atEnd = at >= parsed.text.length;
  const needsBreak = atEnd && parsed.text.length > 0 && !/[\r\n]/.test(parsed.text[at - 1] ?? '\n');
  return {
    title: 'Keep the first part as the description and move the rest into the body',
    edits: [
      { start, end: e, newText: quoteYamlString(kept) },
      { start: at, end: at, newText: `${needsBreak ? eol : ''}${rest}${eol}${atEnd ? '' : eol}` },
    ],
    safe: false,
  };
}
