import { Composer, isNode, parseDocument } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import type { Position, Range } from './text-types';
import { LineIndex } from './line-index';
import { simpleYamlTokens } from './simple-yaml-tokens';
import { quoteYamlString } from './yaml-strings';

/** The line-ending style of a whole file. */
export type LineEnding = 'lf' | 'crlf' | 'cr' | 'mixed' | 'none';

/** A problem with the frontmatter's boundaries, found before any YAML is read (spec §1). */
export interface BoundaryIssue {
  kind: 'bom' | 'missing' | 'not-at-start' | 'unclosed' | 'dots-closer' | 'delimiter-whitespace';
  /** Offsets into the original text. */
  start: number;
  end: number;
}

/** Where the frontmatter sits in the original text. All offsets are into the original string. */
export interface FrontmatterBlock {
  /** The opening `---` line, without its line break. */
  openStart: number;
  openEnd: number;
  /** The YAML text [contentStart, contentEnd), everything between the delimiter lines. */
  contentStart: number;
  contentEnd: number;
  /** The closing line without its line break; both -1 when the frontmatter is not closed. */
  closeStart: number;
  closeEnd: number;
  /** What closed it: `---`, the YAML document end `...`, or nothing. */
  closer: '---' | '...' | null;
  /** The YAML text itself (original line endings kept). */
  raw: string;
}

/** A YAML parser error or warning, mapped to offsets in the original text. */
export interface YamlProblem {
  code: string;
  message: string;
  severity: 'error' | 'warning';
  start: number;
  end: number;
}

/**
 * A value the parser had to quote to read the frontmatter the way a tolerant reader (Claude
 * Code) does: an unquoted `: ` inside a plain value (spec §1). Offsets are into the original text.
 */
export interface YamlRepair {
  kind: 'unquoted-colon';
  /** The key whose value was repaired. */
  key: string;
  start: number;
  end: number;
  /** The value as it appears in the file. */
  value: string;
  /** The quoted replacement. */
  replacement: string;
}

/** A SKILL.md split into frontmatter and body, with the YAML document and ranges into the original text. */
export interface ParsedSkill {
  text: string;
  hasBom: boolean;
  lineEnding: LineEnding;
  frontmatter: FrontmatterBlock | null;
  boundaryIssues: BoundaryIssue[];
  /** The YAML document (after repairs, see `repairs`); null without frontmatter. */
  document: Document.Parsed | null;
  /** The frontmatter as plain data (`undefined` without frontmatter or when it cannot be converted). */
  data: unknown;
  yamlErrors: YamlProblem[];
  yamlWarnings: YamlProblem[];
  repairs: YamlRepair[];
  body: string;
  bodyStart: number;
  /** 1-based line where the body starts. */
  readonly bodyStartLine: number;
  lines: LineIndex;
  /** Map an offset in the YAML document's source to an offset in the original text. */
  toTextOffset(yamlOffset: number): number;
  /** Original-text span of a YAML node's value (without trailing comment); null when it has no range. */
  nodeSpan(node: unknown): { start: number; end: number } | null;
  positionAt(offset: number): Position;
  rangeAt(start: number, end: number): Range;
}

const DELIM_DASH = /^---[ \t]*$/;
const DELIM_DOTS = /^\.\.\.[ \t]*$/;
const LEADING_JUNK = /^(?:[ \t]*|[ \t]*#.*|[ \t]*<!--.*)$/;
const YAMLISH = /^(?:$|[ \t]|#|- |-$|[^\s:#][^:]*:(?:[ \t]|$))/;
const COLON_LINE =
  /^([ \t]*)([^\s#'"[\]{}&*!|>%@`,?:-][^:#]*?|-[^\s:][^:#]*?)[ \t]*:[ \t]+(\S.*?)[ \t]*$/;
const SPECIAL_START = /^['"[{|>&*!#%@`]/;

interface Line {
  start: number;
  /** End of the line's content (before the line break). */
  end: number;
  /** Start of the next line. */
  next: number;
}

/** Iterate lines from `from`, one at a time, without splitting the whole text. */
function readLine(text: string, from: number): Line {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10) return { start: from, end: i, next: i + 1 };
    if (c === 13)
      return { start: from, end: i, next: text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1 };
    i++;
  }
  return { start: from, end: i, next: i };
}

/** The file's line-ending style. */
export function detectLineEnding(text: string): LineEnding {
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) === 10) crlf++;
    else cr++;
  }
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lf++;
  lf -= crlf;
  const kinds = (lf > 0 ? 1 : 0) + (crlf > 0 ? 1 : 0) + (cr > 0 ? 1 : 0);
  if (kinds === 0) return 'none';
  if (kinds > 1) return 'mixed';
  return lf > 0 ? 'lf' : crlf > 0 ? 'crlf' : 'cr';
}

/** Where a SKILL.md's frontmatter sits, found without reading any YAML. */
export interface Boundaries {
  block: FrontmatterBlock | null;
  issues: BoundaryIssue[];
  /** Offset where the body starts (after the closing line and its line break). */
  bodyStart: number;
}

/**
 * Find the frontmatter delimiters exactly as spec §1 describes, recording every deviation: the
 * one place that decides where a SKILL.md's frontmatter begins and ends. Everything else that
 * needs the boundaries (the parser, the export projection, the editor's YAML mirror, the
 * library's first glance) asks here. Cheap: line scans only, no YAML.
 */
export function locateFrontmatter(text: string): Boundaries {
  return findBoundaries(text, text.charCodeAt(0) === 0xfeff);
}

function findBoundaries(text: string, hasBom: boolean): Boundaries {
  const issues: BoundaryIssue[] = [];
  const begin = hasBom ? 1 : 0;
  if (hasBom) issues.push({ kind: 'bom', start: 0, end: 1 });
  let open = readLine(text, begin);
  let openText = text.slice(open.start, open.end);
  if (!DELIM_DASH.test(openText)) {
    // Spec §1: a blank line or comment before `---` is rejected everywhere; find the late
    // opener so the rest of the frontmatter can still be checked.
    let line = open;
    let found: Line | null = null;
    while (line.start < text.length) {
      const t = text.slice(line.start, line.end);
      if (DELIM_DASH.test(t)) {
        found = line;
        break;
      }
      if (!LEADING_JUNK.test(t) || line.next === line.start) break;
      line = readLine(text, line.next);
    }
    if (!found) {
      issues.push({ kind: 'missing', start: begin, end: begin });
      return { block: null, issues, bodyStart: begin };
    }
    issues.push({ kind: 'not-at-start', start: begin, end: found.start });
    open = found;
    openText = text.slice(open.start, open.end);
  }
  if (openText.length > 3)
    issues.push({ kind: 'delimiter-whitespace', start: open.start + 3, end: open.end });

  const contentStart = open.next;
  let line = readLine(text, contentStart);
  let close: Line | null = null;
  let closer: '---' | '...' | null = null;
  while (line.start < text.length) {
    const t = text.slice(line.start, line.end);
    if (DELIM_DASH.test(t)) {
      close = line;
      closer = '---';
      break;
    }
    if (DELIM_DOTS.test(t)) {
      close = line;
      closer = '...';
      break;
    }
    if (line.next === line.start) break;
    line = readLine(text, line.next);
  }
  if (close) {
    if (closer === '...') issues.push({ kind: 'dots-closer', start: close.start, end: close.end });
    else if (close.end - close.start > 3)
      issues.push({ kind: 'delimiter-whitespace', start: close.start + 3, end: close.end });
    return {
      block: {
        openStart: open.start,
        openEnd: open.end,
        contentStart,
        contentEnd: close.start,
        closeStart: close.start,
        closeEnd: close.end,
        closer,
        raw: text.slice(contentStart, close.start),
      },
      issues,
      bodyStart: close.next,
    };
  }
  // Unclosed: take the run of YAML-looking lines as the frontmatter so its fields can still
  // be checked; the rest is body. The issue's range marks where `---` should go.
  let lastContentEnd = contentStart;
  line = readLine(text, contentStart);
  while (line.start < text.length) {
    const t = text.slice(line.start, line.end);
    if (!YAMLISH.test(t)) break;
    // Trailing blank and comment lines (a Markdown `# Heading`) belong to the body.
    if (t.trim() !== '' && !t.startsWith('#')) lastContentEnd = line.next;
    if (line.next === line.start) break;
    line = readLine(text, line.next);
  }
  const end = lastContentEnd;
  issues.push({ kind: 'unclosed', start: end, end });
  return {
    block: {
      openStart: open.start,
      openEnd: open.end,
      contentStart,
      contentEnd: end,
      closeStart: -1,
      closeEnd: -1,
      closer: null,
      raw: text.slice(contentStart, end),
    },
    issues,
    bodyStart: end,
  };
}

interface RawRepair {
  rawStart: number;
  rawEnd: number;
  key: string;
  value: string;
  replacement: string;
}

/**
 * Lines where a parse error comes from an unquoted `: ` inside a plain value (`description:
 * Use when: ...`). Found from the parser's own errors, then checked lexically on that line.
 */
function findColonRepairs(raw: string, errors: readonly { pos: [number, number] }[]): RawRepair[] {
  const seen = new Set<number>();
  const out: RawRepair[] = [];
  for (const err of errors) {
    const at = Math.min(err.pos[0], raw.length);
    let ls = at;
    while (ls > 0 && raw[ls - 1] !== '\n' && raw[ls - 1] !== '\r') ls--;
    if (seen.has(ls)) continue;
    seen.add(ls);
    const line = readLine(raw, ls);
    const t = raw.slice(line.start, line.end);
    const m = COLON_LINE.exec(t);
    if (!m) continue;
    const value = m[3] ?? '';
    if (SPECIAL_START.test(value)) continue;
    if (!/:(?:[ \t]|$)/.test(value)) continue;
    const rawStart = line.start + t.trimEnd().length - value.length;
    out.push({
      rawStart,
      rawEnd: rawStart + value.length,
      key: (m[2] ?? '').trim(),
      value,
      replacement: quoteYamlString(value),
    });
  }
  return out.sort((a, b) => a.rawStart - b.rawStart);
}

function toProblems(
  list: readonly { code: string; message: string; pos: [number, number] }[],
  severity: 'error' | 'warning',
  map: (n: number) => number,
): YamlProblem[] {
  return list.map((e) => {
    const start = map(e.pos[0]);
    return {
      code: e.code,
      message: e.message.split('\n')[0] ?? e.message,
      severity,
      start,
      end: Math.max(start, map(e.pos[1])),
    };
  });
}

const YAML_OPTIONS = {
  prettyErrors: false,
  uniqueKeys: true,
  version: '1.2',
  keepSourceTokens: false,
  logLevel: 'error',
} as const;

/**
 * `parseDocument(raw, YAML_OPTIONS)`, with yaml's Lexer and Parser skipped when the frontmatter
 * is plain `key: value` lines: those tokens are built directly (./simple-yaml-tokens) and
 * composed by yaml's own Composer, exactly as parseDocument does, so the Document is the same.
 */
function parseFrontmatterYaml(raw: string): Document.Parsed {
  const tokens = simpleYamlTokens(raw);
  if (tokens === null) return parseDocument(raw, YAML_OPTIONS);
  let doc: Document.Parsed | undefined;
  for (const d of new Composer(YAML_OPTIONS).compose(tokens, true, raw.length)) doc ??= d;
  return doc ?? parseDocument(raw, YAML_OPTIONS);
}

/** Parse a SKILL.md. Never throws: every problem is recorded on the result. */
export function parseSkill(text: string): ParsedSkill {
  const src = typeof text === 'string' ? text : String(text);
  const hasBom = src.charCodeAt(0) === 0xfeff;
  const lines = new LineIndex(src);
  const { block, issues, bodyStart } = findBoundaries(src, hasBom);

  let document: Document.Parsed | null = null;
  let data: unknown = undefined;
  let yamlErrors: YamlProblem[] = [];
  let yamlWarnings: YamlProblem[] = [];
  const repairs: YamlRepair[] = [];
  let rawRepairs: RawRepair[] = [];
  const base = block ? block.contentStart : 0;

  const toTextOffset = (n: number): number => {
    let shift = 0;
    for (const r of rawRepairs) {
      const repStart = r.rawStart + shift;
      if (n < repStart) break;
      const repEnd = repStart + r.replacement.length;
      if (n < repEnd)
        return base + r.rawStart + Math.min(Math.max(n - repStart - 1, 0), r.rawEnd - r.rawStart);
      shift += r.replacement.length - (r.rawEnd - r.rawStart);
      if (n === repEnd) return base + r.rawEnd;
    }
    return Math.min(base + n - shift, src.length);
  };

  if (block) {
    try {
      let doc = parseFrontmatterYaml(block.raw);
      if (doc.errors.length > 0) {
        const found = findColonRepairs(block.raw, doc.errors);
        if (found.length > 0) {
          let repaired = block.raw;
          for (let i = found.length - 1; i >= 0; i--) {
            const r = found[i];
            repaired = repaired.slice(0, r.rawStart) + r.replacement + repaired.slice(r.rawEnd);
          }
          const doc2 = parseDocument(repaired, YAML_OPTIONS);
          if (doc2.errors.length < doc.errors.length) {
            doc = doc2;
            rawRepairs = found;
            for (const r of found) {
              repairs.push({
                kind: 'unquoted-colon',
                key: r.key,
                start: base + r.rawStart,
                end: base + r.rawEnd,
                value: r.value,
                replacement: r.replacement,
              });
            }
          }
        }
      }
      document = doc;
      yamlErrors = toProblems(doc.errors, 'error', toTextOffset);
      yamlWarnings = toProblems(doc.warnings, 'warning', toTextOffset);
      try {
        data = doc.toJS({ maxAliasCount: 100 });
      } catch (e) {
        yamlErrors.push({
          code: 'TO_JS',
          message: e instanceof Error ? e.message : String(e),
          severity: 'error',
          start: block.contentStart,
          end: block.contentEnd,
        });
      }
    } catch (e) {
      document = null;
      yamlErrors = [
        {
          code: 'PARSE',
          message: e instanceof Error ? e.message : String(e),
          severity: 'error',
          start: block.contentStart,
          end: block.contentEnd,
        },
      ];
    }
  }

  const nodeSpan = (node: unknown): { start: number; end: number } | null => {
    if (!isNode(node)) return null;
    const r = (node as YamlNode).range;
    if (!r) return null;
    const start = toTextOffset(r[0]);
    return { start, end: Math.max(start, toTextOffset(r[1])) };
  };

  const effectiveBodyStart = Math.min(bodyStart, src.length);
  return {
    text: src,
    hasBom,
    lineEnding: detectLineEnding(src),
    frontmatter: block,
    boundaryIssues: issues,
    document,
    data,
    yamlErrors,
    yamlWarnings,
    repairs,
    body: src.slice(effectiveBodyStart),
    bodyStart: effectiveBodyStart,
    // Why a getter: the line number needs a line scan up to the body, which most callers never ask for.
    get bodyStartLine() {
      return lines.positionAt(effectiveBodyStart).line;
    },
    lines,
    toTextOffset,
    nodeSpan,
    positionAt: (offset) => lines.positionAt(offset),
    rangeAt: (start, end) => lines.rangeAt(start, end),
  };
}
