import { Document, isMap, isScalar, isSeq, parseDocument, Scalar, YAMLMap, type Pair } from 'yaml';
import {
  AGENT_SKILLS_KEYS,
  CLAUDE_CODE_KEYS as CLAUDE_CODE_PROFILE_KEYS,
} from '../validation/profiles';
import { locateFrontmatter } from '../skill/frontmatter-parser';
import { normaliseSkillText } from './normalise';
import type { ProjectionChange, ProjectionResult } from './types';

/** SKILL.md split at its frontmatter fences. */
export interface SplitSkill {
  /** The `---` line as written (may carry trailing spaces). */
  open: string;
  /** The YAML between the fences, ending with a newline when not empty. */
  yaml: string;
  /** The closing fence line as written. */
  close: string;
  /** Everything after the closing fence line (its newline included in `close`). */
  body: string;
}

/**
 * Split LF text at the frontmatter fences, or return undefined when there is none a reader
 * accepts: the opening `---` must be the first line and the block closed by `---` (a closing
 * fence with trailing spaces is accepted by the reference validator, docs/skill-format.md §1). The boundaries
 * are the parser's own (`locateFrontmatter`), so the projection never disagrees with validation.
 */
export function splitFrontmatter(text: string): SplitSkill | undefined {
  const { block, issues, bodyStart } = locateFrontmatter(text);
  if (!block || block.closer !== '---') return undefined;
  if (issues.some((i) => i.kind === 'not-at-start' || i.kind === 'bom')) return undefined;
  return {
    open: text.slice(0, block.contentStart),
    yaml: block.raw,
    close: text.slice(block.closeStart, bodyStart),
    body: text.slice(bodyStart),
  };
}

/** The six top-level keys every upload destination accepts (docs/skill-format.md §2 agentskills). */
export const STANDARD_KEYS: readonly string[] = AGENT_SKILLS_KEYS;

/** Keys only Claude Code reads (docs/skill-format.md §2 claude-code): its fields minus the six standard ones. */
export const CLAUDE_CODE_KEYS: readonly string[] = CLAUDE_CODE_PROFILE_KEYS.filter(
  (k) => !(AGENT_SKILLS_KEYS as readonly string[]).includes(k),
);

/**
 * Keys dropped rather than carried in metadata. Why `hooks`: it holds shell commands that only
 * Claude Code runs; no upload destination runs them, and carrying commands as text only
 * invites someone to paste them somewhere that does.
 */
const DROPPED_KEYS: ReadonlySet<string> = new Set(['hooks']);

/** The x-personal-mcp block's key (seed 000_29a6b54e47d0d99a.txt, docs/skill-format.md §2 x-personal-mcp). */
const XPM_KEY = 'x-personal-mcp';

/** Options for {@link projectSkillText}. */
export interface ProjectOptions {
  /** `upload`: only the six keys survive; `unchanged`: the frontmatter is left as written. */
  frontmatter: 'upload' | 'unchanged';
  /** Write Universal 2.1 `tools` as tools.json (and, for uploads, take it out of the frontmatter). */
  toolsJson: boolean;
}

/** Why a key leaves the top level of an upload's frontmatter. */
const UPLOAD_WHY =
  'claude.ai and the Claude API accept only name, description, license, compatibility, metadata and allowed-tools at the top level (they answer "unexpected key in SKILL.md frontmatter")';

/** Text of a value as a metadata string: strings as is, everything else JSON-encoded. */
function metadataString(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? 'null';
}

/** A scalar node quoted so that YAML never retypes it (`"1.2.0"`, `'["a","b"]'`). */
function quotedScalar(text: string): Scalar {
  const scalar = new Scalar(text);
  scalar.type =
    text.includes('"') && !text.includes("'") ? Scalar.QUOTE_SINGLE : Scalar.QUOTE_DOUBLE;
  return scalar;
}

/** The plain JS value of a YAML node (scalars unwrapped, collections as JSON). */
function nodeValue(node: unknown): unknown {
  if (isScalar(node)) return node.value;
  if (node && typeof node === 'object' && 'toJSON' in node && typeof node.toJSON === 'function')
    return (node as { toJSON: () => unknown }).toJSON();
  return node;
}

/** The key of a pair as a string, or undefined for non-string keys. */
function keyOf(pair: Pair): string | undefined {
  const key = pair.key;
  if (isScalar(key) && typeof key.value === 'string') return key.value;
  if (typeof key === 'string') return key;
  return undefined;
}

/** Get or create the `metadata` mapping of the document (block style, appended at the end). */
function metadataMap(doc: Document, root: YAMLMap, changes: ProjectionChange[]): YAMLMap {
  const existing = root.items.find((p) => keyOf(p) === 'metadata');
  if (existing && isMap(existing.value)) {
    // Why block style: flow maps of many namespaced keys become one unreadable line.
    existing.value.flow = false;
    return existing.value;
  }
  const map = new YAMLMap(doc.schema);
  if (existing) {
    const old = nodeValue(existing.value);
    if (old !== null && old !== undefined) {
      changes.push({
        key: 'metadata',
        action: 'converted',
        why: 'metadata must be a mapping of names to text; its old value was moved to metadata.value.',
      });
      map.add(doc.createPair('value', quotedScalar(metadataString(old))));
    }
    existing.value = map;
  } else {
    root.add(doc.createPair('metadata', map));
  }
  return map;
}

/** Add key → text to metadata unless the author already has that key there. */
function addToMetadata(
  doc: Document,
  root: YAMLMap,
  key: string,
  text: string,
  change: Omit<ProjectionChange, 'to' | 'action'>,
  changes: ProjectionChange[],
): void {
  const map = metadataMap(doc, root, changes);
  if (map.has(key)) {
    changes.push({
      ...change,
      action: 'dropped',
      why: `${change.why}. metadata already has "${key}", and the author's value wins.`,
    });
    return;
  }
  map.add(doc.createPair(key, quotedScalar(text)));
  changes.push({ ...change, action: 'moved-to-metadata', to: `metadata.${key}` });
}

/**
 * Project SKILL.md for a target: normalise (BOM, LF), and for upload targets keep only the
 * six standard keys, flattening `x-personal-mcp` into namespaced metadata strings and moving
 * Claude Code-only and other keys into metadata (or dropping them), each with a reason.
 * The source text is never changed; this returns the build artefact.
 */
export function projectSkillText(source: string, options: ProjectOptions): ProjectionResult {
  const { text, normalisations } = normaliseSkillText(source);
  const split = splitFrontmatter(text);
  if (!split) {
    return {
      text,
      changes: [],
      normalisations,
      problem: {
        message:
          'SKILL.md has no frontmatter: it must start with a line "---", then name and description, then another "---" line.',
        detail: 'No frontmatter fences found at byte 0 (docs/skill-format.md §1).',
      },
    };
  }
  const doc: Document = parseDocument(split.yaml, { prettyErrors: false, keepSourceTokens: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) {
    const detail =
      doc.errors.length > 0
        ? doc.errors.map((e) => e.message).join('; ')
        : 'The frontmatter is not a mapping.';
    return {
      text,
      changes: [],
      normalisations,
      problem: {
        message:
          'The frontmatter of SKILL.md cannot be read as YAML, so it cannot be prepared for this destination. Fix the errors the validator shows first.',
        detail,
      },
    };
  }
  const root = doc.contents;
  const nameNode = root.get('name');
  const name = typeof nameNode === 'string' ? nameNode : undefined;
  const changes: ProjectionChange[] = [];
  let toolsJson: string | undefined;

  const tools = root.get('tools', true);
  if (options.toolsJson && isSeq(tools)) {
    // Why: Universal 2.1 requires tools.json, when present, to equal the frontmatter `tools` (docs/skill-format.md §2 universal-2.1).
    toolsJson = `${JSON.stringify(tools.toJSON(), null, 2)}\n`;
  }

  if (options.frontmatter === 'upload') {
    const original = [...root.items];
    for (const pair of original) {
      const key = keyOf(pair);
      if (key === undefined) {
        root.items.splice(root.items.indexOf(pair), 1);
        changes.push({
          key: String(pair.key),
          action: 'dropped',
          why: 'Only text keys are allowed in the frontmatter.',
        });
        continue;
      }
      if (
        key === 'metadata' ||
        key === 'name' ||
        key === 'description' ||
        key === 'license' ||
        key === 'compatibility'
      )
        continue;
      if (key === 'allowed-tools') {
        if (isSeq(pair.value)) {
          const joined = pair.value.items
            .map((item) => metadataString(isScalar(item) ? item.value : item))
            .join(' ');
          pair.value = new Scalar(joined);
          changes.push({
            key,
            action: 'converted',
            why: 'allowed-tools must be one space-separated text for uploads; the list was joined with spaces.',
          });
        }
        continue;
      }
      root.items.splice(root.items.indexOf(pair), 1);
      const value = nodeValue(pair.value);
      if (key === XPM_KEY) {
        if (isMap(pair.value)) {
          // Why: the seed's "projection mode" keeps the six keys and serialises the block as
          // namespaced metadata strings, lists and maps JSON-encoded (docs/skill-format.md §2 x-personal-mcp).
          for (const inner of pair.value.items) {
            const innerKey = keyOf(inner);
            if (innerKey === undefined) continue;
            const innerValue = nodeValue(inner.value);
            addToMetadata(
              doc,
              root,
              `${XPM_KEY}.${innerKey}`,
              metadataString(innerValue),
              {
                key: `${XPM_KEY}.${innerKey}`,
                why: `${UPLOAD_WHY}; the x-personal-mcp block travels as namespaced metadata`,
              },
              changes,
            );
          }
        } else {
          addToMetadata(
            doc,
            root,
            XPM_KEY,
            metadataString(value),
            { key, why: UPLOAD_WHY },
            changes,
          );
        }
        continue;
      }
      if (key === 'tools' && toolsJson !== undefined) {
        changes.push({
          key,
          action: 'written-to-file',
          to: 'tools.json',
          why: `${UPLOAD_WHY}; Universal 2.1 tools are written to tools.json instead`,
        });
        continue;
      }
      if (DROPPED_KEYS.has(key)) {
        changes.push({
          key,
          action: 'dropped',
          why: `${UPLOAD_WHY}. hooks hold shell commands only Claude Code runs, so they are not carried along`,
        });
        continue;
      }
      const why = CLAUDE_CODE_KEYS.includes(key)
        ? `${UPLOAD_WHY}; keys only Claude Code reads are kept as metadata for reference`
        : `${UPLOAD_WHY}; it is kept as metadata so the information travels`;
      addToMetadata(doc, root, key, metadataString(value), { key, why }, changes);
    }
    const meta = root.items.find((p) => keyOf(p) === 'metadata');
    if (meta && isMap(meta.value)) {
      for (const pair of meta.value.items) {
        const innerKey = keyOf(pair) ?? String(pair.key);
        if (isScalar(pair.value) && typeof pair.value.value === 'string') continue;
        const innerValue = nodeValue(pair.value);
        pair.value = quotedScalar(metadataString(innerValue));
        changes.push({
          key: `metadata.${innerKey}`,
          action: 'converted',
          why: 'metadata values must be text for uploads; the value was written as text (JSON for lists and maps).',
        });
      }
    }
  }

  let yamlText = split.yaml;
  if (changes.length > 0) {
    // Why lineWidth 0: folding long descriptions would change the text the author sees in the diff.
    yamlText = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  }
  const close = split.close.endsWith('\n') ? split.close : `${split.close}\n`;
  const projected = `${split.open}${yamlText}${close}${split.body}`;
  return { text: projected, name, changes, normalisations, toolsJson };
}

/**
 * Set the frontmatter `name` to `newName` with a minimal text edit (the rest of the file stays
 * byte for byte). Used when an import is renamed (`name-2`): Agent Skills require `name` to
 * equal the folder name (docs/skill-format.md §2 agentskills).
 */
export function renameSkillText(source: string, newName: string): string {
  const bom = source.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = source.slice(bom.length);
  const split = splitFrontmatter(text);
  if (!split) return source;
  const doc = parseDocument(split.yaml);
  const eol = split.open.endsWith('\r\n') ? '\r\n' : '\n';
  const node = isMap(doc.contents) ? doc.contents.get('name', true) : undefined;
  if (isScalar(node) && node.range) {
    const start = split.open.length + node.range[0];
    const end = split.open.length + node.range[1];
    return `${bom}${text.slice(0, start)}${newName}${text.slice(end)}`;
  }
  return `${bom}${split.open}name: ${newName}${eol}${text.slice(split.open.length)}`;
}
