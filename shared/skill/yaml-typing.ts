import { isScalar } from 'yaml';
import type { Scalar } from 'yaml';
import { textOf } from './yaml-strings';

/**
 * How a reader of SKILL.md turns an untagged plain scalar into a value (docs/skill-format.md §2):
 *
 * - `strictyaml`: every scalar is text (the Agent Skills reference validator).
 * - `pyyaml`: YAML 1.1 as PyYAML's safe loader resolves it (skill-creator's checks).
 * - `js-yaml-3`: js-yaml 3's safe schema, which gray-matter 4 uses (agentskills-mcp): YAML 1.2
 *   booleans, but YAML 1.1 octal and base-60 numbers and timestamps.
 * - `yaml-1.2`: the YAML 1.2 core schema, which is how Skillbench itself parses.
 */
export type YamlTyping = 'strictyaml' | 'pyyaml' | 'js-yaml-3' | 'yaml-1.2';

/** What a scalar becomes for a reader. */
export type ScalarKind = 'str' | 'bool' | 'int' | 'float' | 'null' | 'timestamp';

// PyYAML's implicit resolvers (yaml/resolver.py), in the order it tries them. Note what YAML 1.1
// as PyYAML implements it does not type: `y`/`n`, and `1e5` (a float needs a dot there).
const PY_BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const PY_FLOAT =
  /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const PY_INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const PY_NULL = /^(?:~|null|Null|NULL)$/;
const PY_TIMESTAMP =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

// js-yaml 3's safe schema (lib/js-yaml/type/*.js): booleans as in YAML 1.2, integers and floats
// with YAML 1.1's `_`, octal `0…` and base 60, timestamps.
const JS_BOOL = /^(?:true|True|TRUE|false|False|FALSE)$/;
const JS_NULL = /^(?:~|null|Null|NULL)$/;
const JS_INT =
  /^[-+]?(?:0b[01_]*[01]|0x[0-9a-fA-F_]*[0-9a-fA-F]|0[0-7_]*[0-7]|0|[1-9][0-9_]*(?::[0-5]?[0-9])+|[1-9](?:[0-9_]*[0-9])?)$/;
const JS_FLOAT =
  /^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const JS_TIMESTAMP =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

/** Characters a typed plain scalar can start with; anything else is text in every reader. */
const TYPED_START = /^[-+.~0-9nNtTfFyYoO]/;

/** PyYAML's type for an untagged plain scalar's text. */
export function pyyamlKind(src: string): ScalarKind {
  if (src === '' || PY_NULL.test(src)) return 'null';
  if (!TYPED_START.test(src)) return 'str';
  if (PY_BOOL.test(src)) return 'bool';
  if (PY_FLOAT.test(src)) return 'float';
  if (PY_INT.test(src)) return 'int';
  if (PY_TIMESTAMP.test(src)) return 'timestamp';
  return 'str';
}

/** js-yaml 3's type (safe schema) for an untagged plain scalar's text. */
export function jsYaml3Kind(src: string): ScalarKind {
  if (src === '' || JS_NULL.test(src)) return 'null';
  if (!TYPED_START.test(src)) return 'str';
  if (JS_BOOL.test(src)) return 'bool';
  if (JS_INT.test(src)) return 'int';
  if (JS_FLOAT.test(src) && !src.endsWith('_')) return 'float';
  if (JS_TIMESTAMP.test(src)) return 'timestamp';
  return 'str';
}

/** The YAML 1.2 core type of an already parsed value. */
function valueKind(v: unknown): ScalarKind {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint')
    return Number.isInteger(v) || typeof v === 'bigint' ? 'int' : 'float';
  return 'str';
}

/** The scalar's text as written (for a plain scalar, its folded source). */
export function scalarSource(node: Scalar): string {
  if (typeof node.source === 'string') return node.source;
  return node.value === null || node.value === undefined ? '' : textOf(node.value);
}

/**
 * What `typing`'s reader makes of a scalar node. Quoted and block scalars are text for every
 * reader; an explicit tag is honoured as the YAML 1.2 parse resolved it (strictyaml refuses tags,
 * which `yaml/explicit-tag` reports).
 */
export function scalarKind(typing: YamlTyping, node: unknown): ScalarKind | null {
  if (!isScalar(node)) return null;
  if (typing === 'strictyaml') return 'str';
  if (node.type !== 'PLAIN' || node.tag) return valueKind(node.value);
  if (typing === 'yaml-1.2') return valueKind(node.value);
  const src = scalarSource(node);
  return typing === 'pyyaml' ? pyyamlKind(src) : jsYaml3Kind(src);
}

/**
 * Whether Python's `bool()` of PyYAML's value for this plain text is False (`no`, `0`, `0.0`,
 * null): skill-creator checks `compatibility` only when it is truthy.
 */
export function pyyamlFalsy(src: string): boolean {
  const kind = pyyamlKind(src);
  switch (kind) {
    case 'null':
      return true;
    case 'bool':
      return /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/.test(src);
    case 'int': {
      const digits = src.replace(/^[-+]?(?:0b|0x)?/, '');
      return !/[1-9a-fA-F]/.test(digits);
    }
    case 'float': {
      if (/inf|Inf|INF|nan|NaN|NAN/.test(src)) return false;
      const mantissa = src.replace(/[eE][-+][0-9]+$/, '');
      return !/[1-9]/.test(mantissa);
    }
    default:
      return false;
  }
}
