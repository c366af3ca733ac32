import { quoteYamlString } from '../skill/yaml-strings';
import { pyyamlFalsy, scalarKind, scalarSource } from '../skill/yaml-typing';
import type { ScalarKind } from '../skill/yaml-typing';
import { quoteFix, replaceFix } from './fixes';
import type { RuleId } from './rule-catalog';
import type { RuleContext, ScalarFact } from './rule-context';
import type { QuickFix } from './types';

/** Plain messages for the YAML parser's error codes; the parser's own text goes to `detail`. */
const PLAIN_YAML_MESSAGES: Record<string, string> = {
  MISSING_CHAR: 'A quote or bracket is opened but never closed.',
  BAD_INDENT: 'The indentation is uneven: lines of the same level must start in the same column.',
  BLOCK_AS_IMPLICIT_KEY:
    'A line is read as a new field where a value was expected. Put the value in quotes.',
  MULTILINE_IMPLICIT_KEY:
    'A field name runs over more than one line. Check for a missing colon or quotes.',
  UNEXPECTED_TOKEN: 'There is a character the YAML reader did not expect here.',
  BAD_SCALAR_START: 'A value starts with a character that YAML reserves. Put the value in quotes.',
  MULTIPLE_DOCS: 'The frontmatter contains more than one YAML document.',
  TAB_AS_INDENT: 'A tab is used for indentation; YAML allows only spaces.',
};

/** Codes other rules explain better (reported once, docs/skill-format.md §1). */
const EXPLAINED_ELSEWHERE = new Set(['DUPLICATE_KEY', 'TAB_AS_INDENT']);

/** YAML syntax errors and parser warnings, mapped to the original text. */
export function yamlSyntaxRules(ctx: RuleContext): void {
  const p = ctx.parsed;
  for (const e of p.yamlErrors) {
    if (EXPLAINED_ELSEWHERE.has(e.code)) continue;
    // Spec §1: malformed YAML is rejected by every strict reader.
    // Why its own words: this YAML is valid; reading it would expand it without bound.
    const aliasBomb = e.code === 'TO_JS' && /alias count/i.test(e.message);
    ctx.report('yaml/syntax', {
      message: aliasBomb
        ? 'The frontmatter is not read: its aliases (*name) would copy their values more than 100 times over (a "billion laughs"), which every careful reader refuses. Write the values out instead of using aliases.'
        : `The frontmatter is not valid YAML. ${PLAIN_YAML_MESSAGES[e.code] ?? 'Check this line.'}`,
      detail: `${e.code}: ${e.message}`,
      start: e.start,
      end: Math.max(e.end, Math.min(e.start + 1, p.text.length)),
    });
  }
  for (const w of p.yamlWarnings) {
    ctx.report('yaml/parser-warning', {
      message: 'The YAML reader accepted this, with a warning.',
      detail: `${w.code}: ${w.message}`,
      start: w.start,
      end: w.end,
    });
  }
}

/** Unquoted `: ` inside a value (docs/skill-format.md §1): the parser repaired it; report it with the quoting fix. */
export function unquotedColonRule(ctx: RuleContext): void {
  for (const r of ctx.parsed.repairs) {
    const where = r.key === 'description' ? 'The description' : `The value of "${r.key}"`;
    ctx.report('yaml/unquoted-colon', {
      message: `${where} has a colon followed by a space, which YAML reads as a new field. Put the ${r.key === 'description' ? 'description' : 'value'} in quotes.`,
      detail:
        'Nested mappings are not allowed in compact mappings (unquoted ": " in a plain scalar)',
      start: r.start,
      end: r.end,
      pointer: `/${r.key}`,
      fixes: [
        {
          title: 'Put the value in quotes',
          edits: [{ start: r.start, end: r.end, newText: r.replacement }],
          safe: true,
        },
      ],
    });
  }
}

function lineEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

/** ` #` inside an unquoted value turns the rest into a comment (docs/skill-format.md §1). */
export function commentTruncationRule(ctx: RuleContext): void {
  if (!ctx.on('yaml/comment-truncates-value')) return;
  const text = ctx.parsed.text;
  for (const f of ctx.facts.plains) {
    // An alias's comment belongs to the anchored value, written elsewhere.
    if (f.alias || !f.node.comment) continue;
    let i = f.end;
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] !== '#' || i === f.end) continue;
    let e = lineEnd(text, i);
    while (e > i && (text[e - 1] === ' ' || text[e - 1] === '\t')) e--;
    const kept = text.slice(f.start, f.end);
    const lost = text.slice(i, e);
    const full = text.slice(f.start, e);
    ctx.report('yaml/comment-truncates-value', {
      message: `Only "${kept}" is kept: in YAML, " #" starts a comment, so "${lost}" is silently dropped. Put the whole value in quotes if it belongs to the text.`,
      detail: `Plain scalar ends before a comment; value read as ${JSON.stringify(kept)}`,
      start: f.start,
      end: e,
      pointer: f.pointer,
      fixes: [quoteFix(f.start, e, full, false, 'Put the whole value in quotes')],
    });
  }
}

/** `---` inside the frontmatter: skills-ref splits the file there (docs/skill-format.md §1). */
export function tripleDashRule(ctx: RuleContext): void {
  const fm = ctx.parsed.frontmatter;
  if (!fm || !ctx.on('yaml/triple-dash-in-value')) return;
  const text = ctx.parsed.text;
  for (
    let i = text.indexOf('---', fm.contentStart);
    i !== -1 && i < fm.contentEnd;
    i = text.indexOf('---', i + 3)
  ) {
    let e = i + 3;
    while (text[e] === '-') e++;
    ctx.report('yaml/triple-dash-in-value', {
      message:
        'The frontmatter contains "---". The reference validator cuts the frontmatter at the first "---", so everything after it is lost. Use a single dash or "—" instead.',
      detail: 'skills-ref splits SKILL.md on "---"',
      start: i,
      end: e,
      fixes: [replaceFix('Replace --- with —', i, e, '—', false)],
    });
    i = e - 3;
  }
}

// YAML 1.1 (skill-creator's PyYAML) types these although YAML 1.2 reads them as text.
// The underscore number is written `[0-9]*_[0-9_]*` (the first `_` splits it) rather than
// `(?:[0-9][0-9_]*)?_[0-9_]*`, which matches the same strings but tries every split of a long
// run of underscores: quadratic, minutes on a 250 KB value.
const YAML11_ONLY =
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|[-+]?0[0-7_]+|[-+]?[0-9]*_[0-9_]*(?:\.[0-9_]*)?|[-+]?0b[01_]+)$/;

function isTextPointer(ctx: RuleContext, pointer: string): boolean {
  const top = pointer.split('/')[1] ?? '';
  if (pointer === `/${top}`) return ctx.spec.stringKeys.has(top);
  if (top === 'metadata' && /^\/metadata\/[^/]+$/.test(pointer)) return true;
  if (top === 'x-personal-mcp') return /^\/x-personal-mcp\/(?:id|version)$/.test(pointer);
  return false;
}

/** How YAML types a plain scalar, when not as text: '1.2' (typed everywhere) or '1.1' (typed by old parsers). */
function typedAs(f: ScalarFact): { kind: '1.2' | '1.1'; as: string } | null {
  const v = f.node.value;
  const src = f.node.source ?? String(v);
  if (src === '') return null;
  if (typeof v !== 'string')
    return {
      kind: '1.2',
      as:
        v === null
          ? 'null'
          : typeof v === 'number'
            ? 'a number'
            : typeof v === 'boolean'
              ? `the boolean ${String(v)}`
              : typeof v,
    };
  if (YAML11_ONLY.test(src))
    return {
      kind: '1.1',
      as: /^[0-9]{4}-/.test(src)
        ? 'a date'
        : /^[ynYNoO]/.test(src)
          ? 'a yes/no boolean'
          : 'a number',
    };
  return null;
}

/**
 * The rule that reports a typed value in a text field this profile's reader refuses
 * (docs/skill-format.md §2: `name: 123` is a number for PyYAML and js-yaml), or null when the
 * reader takes such a value (then it is only `yaml/ambiguous-scalar`).
 */
function readerTextRule(ctx: RuleContext, pointer: string): RuleId | null {
  const reader = ctx.spec.reader;
  const top = pointer.split('/')[1] ?? '';
  if (pointer === `/${top}`) return reader.typedText[top] ?? null;
  if (reader.hookValuesText && /^\/hooks\/[^/]+$/.test(pointer)) return 'schema/invalid';
  return null;
}

/**
 * The fix that makes a typed value text: the value in quotes, or for an alias (`*x`) its anchor's
 * value written out in quotes (`source`), which changes what the file says and is not applied
 * on its own.
 */
function plainTextFix(f: ScalarFact, source: string, src: string): QuickFix {
  return f.alias
    ? replaceFix('Write the value out in quotes', f.start, f.end, quoteYamlString(source), false)
    : quoteFix(f.start, f.end, src, true);
}

const KIND_WORDS: Record<ScalarKind, string> = {
  str: 'text',
  bool: 'a yes/no value (boolean)',
  int: 'a number',
  float: 'a number',
  null: 'empty (null)',
  timestamp: 'a date',
};

/**
 * Typed values where text is expected (docs/skill-format.md §1 and §2): an error where the
 * profile's reader refuses them (`description: yes` is the boolean true for skill-creator's
 * PyYAML), else the warning that other readers type yes/no/on/off/true/false/null/~, numbers and
 * dates differently.
 */
export function ambiguousScalarRule(ctx: RuleContext): void {
  const reader = ctx.spec.reader;
  const warn = ctx.on('yaml/ambiguous-scalar');
  for (const f of ctx.facts.plains) {
    const source = scalarSource(f.node);
    // An empty value: the field's own rule says it is empty.
    if (source === '') continue;
    const rule = readerTextRule(ctx, f.pointer);
    if (rule && ctx.on(rule)) {
      const kind = scalarKind(reader.typing, f.node);
      const top = f.pointer.split('/')[1] ?? '';
      // `name: ~` and `description: null` are reported by their own rules as empty.
      const emptyHandled = kind === 'null' && (top === 'name' || top === 'description');
      const ignored = reader.truthyOnly?.has(top) === true && pyyamlFalsy(source);
      if (kind !== null && kind !== 'str' && !emptyHandled && !ignored) {
        const field = f.pointer.slice(1).replace(/\//g, '.');
        const src = ctx.parsed.text.slice(f.start, f.end);
        ctx.typeRejected.add(f.pointer);
        ctx.report(rule, {
          message: `"${f.alias ? source : src}" in "${field}" is read as ${KIND_WORDS[kind]}, not as text, by ${reader.who}, which rejects the skill. Put it in quotes.`,
          detail: `${reader.typing}: plain scalar ${JSON.stringify(source)} resolves to ${kind}; field '${field}' must be a string`,
          start: f.start,
          end: f.end,
          pointer: f.pointer,
          fixes: [plainTextFix(f, source, src)],
        });
        continue;
      }
    }
    if (!warn) continue;
    // Why typedAs first: most values are plain text, and it is the cheaper test.
    const t = typedAs(f);
    if (!t || !isTextPointer(ctx, f.pointer)) continue;
    const src = ctx.parsed.text.slice(f.start, f.end);
    const shown = f.alias ? source : src;
    const field = f.pointer.slice(1).replace(/\//g, '.');
    ctx.report('yaml/ambiguous-scalar', {
      message:
        reader.typing === 'strictyaml'
          ? `"${shown}" in "${field}" is text for the Agent Skills reference validator, but ${t.as} for ${t.kind === '1.2' ? 'most' : 'older'} YAML readers (such as skill-creator's). Put it in quotes.`
          : t.kind === '1.2'
            ? `"${shown}" in "${field}" is read as ${t.as} by most YAML readers, not as text. Put it in quotes.`
            : `"${shown}" in "${field}" is text for some readers but ${t.as} for older YAML readers (such as skill-creator's). Put it in quotes.`,
      detail: `Plain scalar ${JSON.stringify(shown)} resolves to a non-string type under YAML ${t.kind}`,
      start: f.start,
      end: f.end,
      pointer: f.pointer,
      fixes: [plainTextFix(f, source, src)],
    });
  }
}

/** Keys whose list form another rule explains more precisely. */
const FLOW_EXPLAINED = new Set(['/allowed-tools', '/argument-hint']);

/** Flow collections, anchors/aliases, tags and duplicate keys, docs/skill-format.md §1. */
export function yamlStyleRules(ctx: RuleContext): void {
  const strict = ctx.spec.reader.typing === 'strictyaml';
  const flowRefused = ctx.sev('yaml/flow-collection') === 'error';
  for (const f of ctx.facts.flows) {
    // Where the reader refuses the file for it, the brackets are reported even where another
    // rule explains the list itself.
    if (FLOW_EXPLAINED.has(f.pointer) && !flowRefused) continue;
    ctx.report('yaml/flow-collection', {
      message: strict
        ? 'This list or mapping is written inline with brackets. The Agent Skills reference validator rejects the file for that; write one item per line instead.'
        : 'This list or mapping is written inline with brackets. Some strict YAML readers reject that; write one item per line instead.',
      detail: 'Flow collection',
      start: f.start,
      end: f.end,
      pointer: f.pointer,
    });
  }
  for (const a of ctx.facts.anchors) {
    ctx.report('yaml/anchor-alias', {
      message: strict
        ? 'This uses a YAML anchor or alias (& or *). The Agent Skills reference validator rejects the file for that; write the value out.'
        : 'This uses a YAML anchor or alias (& or *). Strict readers reject them; write the value out.',
      detail: `Anchor/alias ${a.note ?? ''}`.trim(),
      start: a.start,
      end: a.end,
      pointer: a.pointer,
    });
  }
  for (const t of ctx.facts.tags) {
    if (t.known) {
      ctx.report('yaml/explicit-tag', {
        message: strict
          ? `This value carries the YAML type tag "${shortTag(t.note)}". The Agent Skills reference validator rejects any tag; put the value in quotes instead.`
          : `This value carries the YAML type tag "${shortTag(t.note)}". Strict readers reject tags; put the value in quotes instead.`,
        detail: `Explicit tag ${t.note ?? ''}`.trim(),
        start: t.start,
        end: t.end,
        pointer: t.pointer,
      });
    } else {
      ctx.report('yaml/unknown-tag', {
        message: `This value carries the tag "${shortTag(t.note)}", which is not a YAML type. The reader refuses the whole file; remove the tag.`,
        detail: `Unknown tag ${t.note ?? ''}: safe YAML loaders cannot construct it`.trim(),
        start: t.start,
        end: t.end,
        pointer: t.pointer,
      });
    }
  }
  for (const d of ctx.facts.duplicates) {
    ctx.report('yaml/duplicate-key', {
      message: `The field "${d.note ?? ''}" appears twice. Strict readers reject the file and others keep only one of the values. Remove one.`,
      detail: 'Map keys must be unique (DUPLICATE_KEY)',
      start: d.start,
      end: d.end,
      pointer: d.pointer,
    });
  }
}

/** A tag as written in YAML: `!!str` for the standard ones. */
function shortTag(tag: string | undefined): string {
  if (!tag) return '';
  return tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
}

/** Tabs in indentation (docs/skill-format.md §1: rejected). */
export function tabIndentRule(ctx: RuleContext): void {
  const fm = ctx.parsed.frontmatter;
  if (!fm || !ctx.on('yaml/tab-indentation')) return;
  const text = ctx.parsed.text;
  // Most frontmatter holds no tab at all: nothing to sweep.
  const firstTab = text.indexOf('\t', fm.contentStart);
  if (firstTab < 0 || firstTab >= fm.contentEnd) return;
  // Why sorted and swept with the lines: testing every multi-line scalar on every line was
  // quadratic. Spans are disjoint or nested; `reach` is the furthest end of those started so far.
  const inside = [...ctx.facts.multiline].sort((a, b) => a.start - b.start);
  let next = 0;
  let reach = -1;
  let ls = fm.contentStart;
  while (ls < fm.contentEnd) {
    while (next < inside.length && (inside[next]?.start ?? 0) < ls) {
      reach = Math.max(reach, inside[next]?.end ?? 0);
      next++;
    }
    let i = ls;
    let tab = -1;
    while (i < fm.contentEnd && (text[i] === ' ' || text[i] === '\t')) {
      if (text[i] === '\t' && tab < 0) tab = i;
      i++;
    }
    const le = lineEnd(text, ls);
    const content = i < le && text[i] !== '#';
    if (tab >= 0 && content && !(ls < reach)) {
      const fix: QuickFix = {
        title: 'Replace the tabs with spaces',
        edits: [{ start: ls, end: i, newText: text.slice(ls, i).replace(/\t/g, '  ') }],
        safe: false,
      };
      ctx.report('yaml/tab-indentation', {
        message: 'This line is indented with a tab. YAML allows only spaces for indentation.',
        detail: 'Tabs are not allowed as indentation (TAB_AS_INDENT)',
        start: tab,
        end: i,
        fixes: [fix],
      });
    }
    ls = le + (text[le] === '\r' && text[le + 1] === '\n' ? 2 : 1);
  }
}

/** Frontmatter that does not convert to JSON without loss (docs/skill-format.md §2 `mcp-serve`). */
export function notJsonRule(ctx: RuleContext): void {
  for (const n of ctx.facts.nonJson) {
    ctx.report('yaml/not-json', {
      message:
        'The skill server needs frontmatter that converts to JSON exactly; this value or key does not (only text keys, no special YAML types).',
      detail: n.note ?? 'not representable in JSON',
      start: n.start,
      end: n.end,
      pointer: n.pointer,
    });
  }
}
