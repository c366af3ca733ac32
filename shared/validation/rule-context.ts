import { isAlias, isCollection, isMap, isNode, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Node as YamlNode, Pair, Scalar, YAMLMap } from 'yaml';
import type { ParsedSkill } from '../skill/frontmatter-parser';
import { pyyamlFalsy, scalarSource } from '../skill/yaml-typing';
import { textOf } from '../skill/yaml-strings';
import { severityOf, type RuleId } from './rule-catalog';
import type { Diagnostic, FileView, ProfileId, QuickFix, Severity } from './types';
import { PROFILES } from './profiles';
import type { ProfileSpec } from './profiles';

/** One top-level `key: value` of the frontmatter with its places in the original text. */
export interface TopEntry {
  key: string;
  pair: Pair;
  /** The value, with an alias (`*a`) resolved to the node it names: what every reader sees. */
  value: unknown;
  /** The value as written (an alias stays an alias): where findings and fixes point. */
  written: unknown;
  keyStart: number;
  keyEnd: number;
  /** Start of the key's line and start of the next entry's line: the whole entry, for moving it. */
  lineStart: number;
  blockEnd: number;
}

/** A scalar the walk found, with its JSON pointer and original-text span. */
export interface ScalarFact {
  pointer: string;
  node: Scalar;
  start: number;
  end: number;
  /** Set when the value is an alias (`*a`) of this scalar: the span is the alias's. */
  alias?: boolean;
}

/** A located finding of the one YAML walk, shared by every profile. */
export interface SpanFact {
  pointer: string;
  start: number;
  end: number;
  note?: string;
}

/** Facts about the frontmatter computed once per validation and shared by every profile. */
export interface Facts {
  root: YAMLMap | null;
  entries: TopEntry[];
  /** First entry per key. */
  byKey: Map<string, TopEntry>;
  /** How many top-level entries have each key (more than one: a duplicate). */
  keyCounts: Map<string, number>;
  duplicates: SpanFact[];
  flows: SpanFact[];
  anchors: SpanFact[];
  /** Explicit tags (`!!str`, `!custom`); `known` when the tag is one of YAML's own types. */
  tags: (SpanFact & { known: boolean })[];
  /** Plain scalars (and aliases of plain scalars), for the typing and comment checks. */
  plains: ScalarFact[];
  nonJson: SpanFact[];
  /** Original-text spans of multi-line scalars (tabs inside them are content, not indentation). */
  multiline: { start: number; end: number }[];
}

/** JSON-pointer escaping (RFC 6901). */
export function pointerSegment(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

const STANDARD_TAGS = new Set(
  ['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`),
);

/** The types of YAML's tag repository, which the safe loaders of PyYAML and js-yaml construct. */
const YAML_TYPE_TAGS = new Set(
  [
    ...['str', 'int', 'float', 'bool', 'null', 'map', 'seq'],
    ...['binary', 'timestamp', 'omap', 'pairs', 'set'],
  ].map((t) => `tag:yaml.org,2002:${t}`),
);

/** Walk the YAML document once and gather everything rules need. */
export function buildFacts(parsed: ParsedSkill): Facts {
  const facts: Facts = {
    root: null,
    entries: [],
    byKey: new Map(),
    keyCounts: new Map(),
    duplicates: [],
    flows: [],
    anchors: [],
    tags: [],
    plains: [],
    nonJson: [],
    multiline: [],
  };
  const doc = parsed.document;
  if (!doc) return facts;
  const text = parsed.text;

  const walk = (node: unknown, pointer: string, depth: number, inFlow = false): void => {
    if (!isNode(node) || depth > 64) return;
    const span = parsed.nodeSpan(node);
    const n = node as YamlNode;
    if (n.anchor && span)
      facts.anchors.push({ pointer, start: span.start, end: span.end, note: `&${n.anchor}` });
    if (n.tag && !STANDARD_TAGS.has(n.tag) && span)
      facts.nonJson.push({ pointer, start: span.start, end: span.end, note: `tag ${n.tag}` });
    if (n.tag && span)
      facts.tags.push({
        pointer,
        start: span.start,
        end: span.end,
        note: n.tag,
        known: YAML_TYPE_TAGS.has(n.tag),
      });
    if (isAlias(node)) {
      if (span) {
        facts.anchors.push({ pointer, start: span.start, end: span.end, note: `*${node.source}` });
        // Why: readers see the named value here, so its typing is checked at this place too.
        const target = node.resolve(doc);
        if (isScalar(target) && target.type === 'PLAIN')
          facts.plains.push({
            pointer,
            node: target,
            start: span.start,
            end: span.end,
            alias: true,
          });
      }
      return;
    }
    if (isScalar(node)) {
      if (!span) return;
      if (node.type === 'PLAIN')
        facts.plains.push({ pointer, node, start: span.start, end: span.end });
      if (typeof node.value === 'number' && !Number.isFinite(node.value)) {
        facts.nonJson.push({
          pointer,
          start: span.start,
          end: span.end,
          note: `${String(node.value)} has no JSON form`,
        });
      }
      for (let i = span.start; i < span.end; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || c === 13) {
          facts.multiline.push(span);
          break;
        }
      }
      return;
    }
    if (isCollection(node)) {
      if (node.flow && !inFlow && span)
        facts.flows.push({ pointer, start: span.start, end: span.end });
      if (isSeq(node)) {
        node.items.forEach((item, i) =>
          walk(item, `${pointer}/${i}`, depth + 1, inFlow || !!node.flow),
        );
        return;
      }
      if (isMap(node)) {
        const seen = new Set<string>();
        for (const item of node.items) {
          if (!isPair(item)) continue;
          const k = item.key;
          let keyText: string;
          if (isScalar(k)) {
            keyText = String(k.value);
            const ks = parsed.nodeSpan(k);
            if (typeof k.value !== 'string' && ks) {
              facts.nonJson.push({
                pointer: `${pointer}/${pointerSegment(keyText)}`,
                start: ks.start,
                end: ks.end,
                note: `key ${JSON.stringify(k.source ?? keyText)} is not text`,
              });
            }
          } else {
            keyText = '?';
            const ks = parsed.nodeSpan(k);
            if (ks)
              facts.nonJson.push({
                pointer,
                start: ks.start,
                end: ks.end,
                note: 'a key that is itself a collection',
              });
          }
          const childPointer = `${pointer}/${pointerSegment(keyText)}`;
          if (seen.has(keyText)) {
            const ks = parsed.nodeSpan(k);
            if (ks)
              facts.duplicates.push({
                pointer: childPointer,
                start: ks.start,
                end: ks.end,
                note: keyText,
              });
          }
          seen.add(keyText);
          walk(item.value, childPointer, depth + 1, inFlow || !!node.flow);
        }
      }
    }
  };

  const contents = doc.contents;
  walk(contents, '', 0);
  if (isMap(contents)) {
    facts.root = contents;
    const fm = parsed.frontmatter;
    const contentEnd = fm ? fm.contentEnd : text.length;
    const tops: TopEntry[] = [];
    for (const item of contents.items) {
      if (!isPair(item) || !isScalar(item.key)) continue;
      const ks = parsed.nodeSpan(item.key);
      if (!ks) continue;
      // Why the line index: walking back to the line start cost a line's length per key, quadratic
      // for a flow mapping of many keys on one line.
      const lineStart = parsed.lines.lineStart(parsed.positionAt(ks.start).line);
      const written = item.value;
      tops.push({
        key: String(item.key.value),
        pair: item,
        value: isAlias(written) ? (written.resolve(doc) ?? written) : written,
        written,
        keyStart: ks.start,
        keyEnd: ks.end,
        lineStart,
        blockEnd: contentEnd,
      });
    }
    for (let i = 0; i < tops.length - 1; i++) tops[i].blockEnd = tops[i + 1].lineStart;
    facts.entries = tops;
    for (const t of tops) {
      if (!facts.byKey.has(t.key)) facts.byKey.set(t.key, t);
      facts.keyCounts.set(t.key, (facts.keyCounts.get(t.key) ?? 0) + 1);
    }
  }
  return facts;
}

/** What a hand rule reports; the context adds rule id, severity and profile. */
export interface Report {
  message: string;
  detail?: string;
  start?: number;
  end?: number;
  fixes?: QuickFix[];
  /** JSON pointer of the field the finding is about (dedupes the same fault found by ajv). */
  pointer?: string;
  file?: string;
}

/** Everything a rule sees for one profile. */
export class RuleContext {
  readonly spec: ProfileSpec;
  /** JSON pointers hand rules reported on, so ajv does not report the same fault again. */
  readonly reported = new Set<string>();

  /** Findings past `maxFindings`, counted by severity but not kept (shared/skill/limits.ts). */
  readonly dropped = { error: 0, warning: 0, info: 0 };

  /**
   * Fields whose value the reader refused because its YAML typed it as something other than text
   * (reported by the typing rule): the field's own rules then say nothing more about it.
   */
  readonly typeRejected = new Set<string>();

  private readerDataCache: { data: Record<string, unknown> | null } | null = null;

  constructor(
    readonly parsed: ParsedSkill,
    readonly profile: ProfileId,
    readonly facts: Facts,
    readonly fileView: FileView | undefined,
    private readonly out: Diagnostic[],
    private readonly maxFindings = Infinity,
  ) {
    this.spec = PROFILES[profile];
  }

  /** The rule's severity in this profile, or null when silent. */
  sev(ruleId: RuleId): Severity | null {
    return severityOf(ruleId, this.profile);
  }

  /** Whether the rule is checked in this profile. */
  on(ruleId: RuleId): boolean {
    return severityOf(ruleId, this.profile) !== null;
  }

  /**
   * Whether a report of this rule would be listed (the profile checks it and the findings bound is
   * not reached): rules ask before building an expensive fix for a finding nobody will see.
   */
  keeps(ruleId: RuleId): boolean {
    return severityOf(ruleId, this.profile) !== null && this.out.length < this.maxFindings;
  }

  /** Record a diagnostic (silently dropped when the profile does not check the rule). */
  report(ruleId: RuleId, r: Report): void {
    const severity = severityOf(ruleId, this.profile);
    if (r.pointer !== undefined) this.reported.add(r.pointer);
    if (!severity) return;
    if (this.out.length >= this.maxFindings) {
      // Why counted and dropped: a hostile file can make every node a finding; the list stays
      // bounded, the verdict still sees every severity.
      this.dropped[severity]++;
      return;
    }
    const d: Diagnostic = { ruleId, severity, profile: this.profile, message: r.message };
    if (r.detail !== undefined) d.detail = r.detail;
    if (r.start !== undefined) d.range = this.parsed.rangeAt(r.start, r.end ?? r.start);
    if (r.file !== undefined) d.file = r.file;
    if (r.pointer !== undefined) d.field = r.pointer;
    if (r.fixes && r.fixes.length > 0 && this.fixesTrustworthy(ruleId)) d.fixes = r.fixes;
    this.out.push(d);
  }

  /**
   * Fixes that rewrite a field rely on the YAML document's node ranges. While the YAML has errors
   * or had to be repaired, those ranges are a guess, and a rewrite can leave part of the old
   * value behind (found by the property tests); only the fixes of the syntax and file rules
   * themselves are offered then.
   */
  private fixesTrustworthy(ruleId: RuleId): boolean {
    if (this.parsed.yamlErrors.length === 0 && this.parsed.repairs.length === 0) return true;
    return (
      ruleId.startsWith('yaml/') || ruleId.startsWith('frontmatter/') || ruleId.startsWith('file/')
    );
  }

  /** Top-level entry for a key. */
  entry(key: string): TopEntry | undefined {
    return this.facts.byKey.get(key);
  }

  /** The frontmatter data as a plain object, or null when it is not a mapping. */
  get data(): Record<string, unknown> | null {
    const d = this.parsed.data;
    return d !== null && typeof d === 'object' && !Array.isArray(d)
      ? (d as Record<string, unknown>)
      : null;
  }

  /**
   * The frontmatter as this profile's reader types it, for its JSON Schema: the reference
   * validator's strictyaml reads every scalar as text (`license: null` is the text "null"); the
   * other readers' typing differs from the YAML 1.2 data only in text fields, which the typing
   * rule checks, so they get the data as parsed.
   */
  get readerData(): Record<string, unknown> | null {
    const truthyOnly = this.spec.reader.truthyOnly;
    if (truthyOnly && this.data) {
      // A field the reader checks only when truthy (`compatibility: no`) is not judged when falsy.
      if (!this.readerDataCache) {
        const data = { ...this.data };
        for (const key of truthyOnly) {
          const v = this.facts.byKey.get(key)?.value;
          if (v === null || (isScalar(v) && v.type === 'PLAIN' && pyyamlFalsy(scalarSource(v))))
            delete data[key];
        }
        this.readerDataCache = { data };
      }
      return this.readerDataCache.data;
    }
    if (this.spec.reader.typing !== 'strictyaml') return this.data;
    if (!this.readerDataCache) {
      const doc = this.parsed.document;
      const d = doc && this.data ? asText(doc.contents, doc) : null;
      this.readerDataCache = {
        data:
          d !== null && typeof d === 'object' && !Array.isArray(d)
            ? (d as Record<string, unknown>)
            : null,
      };
    }
    return this.readerDataCache.data;
  }

  /** Original-text span of a node, falling back to the key of its entry. */
  spanOf(node: unknown, fallback?: TopEntry): { start: number; end: number } | null {
    // The value of an aliased entry is reported where the alias is written, not at its anchor.
    const at = fallback && node === fallback.value ? fallback.written : node;
    const s = this.parsed.nodeSpan(at);
    if (s && s.end > s.start) return s;
    if (fallback) return { start: fallback.keyStart, end: fallback.keyEnd };
    return s;
  }
}

/** A rule: looks at the context and reports. */
export type RuleFn = (ctx: RuleContext) => void;

/**
 * A YAML node as strictyaml returns it: every scalar its text as written (an empty value is the
 * empty text), mappings and lists alike, the first of duplicate keys kept. The depth is bounded
 * by the parser's limits (shared/skill/limits.ts), so recursion is safe here.
 */
function asText(node: unknown, doc: Document.Parsed): unknown {
  const n = isAlias(node) ? node.resolve(doc) : node;
  if (isScalar(n)) {
    if (n.type === 'PLAIN') return scalarSource(n);
    return n.value === null || n.value === undefined ? '' : textOf(n.value);
  }
  if (isMap(n)) {
    const entries: [string, unknown][] = [];
    const seen = new Set<string>();
    for (const p of n.items) {
      const k = isScalar(p.key) ? scalarSource(p.key) : '?';
      if (seen.has(k)) continue;
      seen.add(k);
      entries.push([k, asText(p.value, doc)]);
    }
    return Object.fromEntries(entries);
  }
  if (isSeq(n)) return n.items.map((i) => asText(i, doc));
  return '';
}
