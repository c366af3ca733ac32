import { AGENT_SKILLS_KEYS, PROFILES } from '../../../../shared/validation/profiles';
import { profileLabel } from '../../ui/profile-labels';
import { PROFILE_SCHEMAS } from '../../ui/profile-schemas';
import type { Diagnostic, ProfileId } from '../../../../shared/validation/types';

/** How the form edits one field. */
export type FieldKind =
  /** One line of text. */
  | 'text'
  /** Longer text (description, when_to_use, compatibility). */
  | 'textarea'
  /** One of the schema's enum values. */
  | 'select'
  /** true/false (Claude Code also accepts yes/no/on/off). */
  | 'boolean'
  /** A list of strings, one per line. */
  | 'list'
  /** A string or a list: edited in the shape the file already uses. */
  | 'text-or-list'
  /** The string-to-string `metadata` mapping. */
  | 'metadata'
  /** Nested structure the form does not edit (hooks, x-personal-mcp, tools…). */
  | 'complex';

/** One field of the form. */
export interface FieldSpec {
  key: string;
  /** A human label ("Allowed tools"). */
  label: string;
  /** The schema's `description`. */
  help: string;
  kind: FieldKind;
  /** Enum values for `select`. */
  options?: string[];
  /** Character limit to count against (code points). */
  maxLength?: number;
  /** Required by at least one active profile. */
  required: boolean;
}

interface SchemaProperty {
  type?: string;
  description?: string;
  enum?: unknown[];
  maxLength?: number;
  anyOf?: { type?: string; enum?: unknown[] }[];
  items?: { type?: string };
}

interface ProfileSchema {
  required?: string[];
  properties?: Record<string, SchemaProperty>;
}

const SCHEMAS = PROFILE_SCHEMAS as Readonly<Record<ProfileId, ProfileSchema>>;

const LONG_TEXT = new Set(['description', 'when_to_use', 'compatibility']);

/** The field's limit as the spec counts it: name 64 and description 1024 for every profile that limits them. */
const COUNTED: Record<string, number> = { name: 64, description: 1024 };

/**
 * "allowed-tools" → "Allowed tools", "disableModelInvocation" → "Disable model invocation". A key
 * named after a format ("x-personal-mcp") keeps that format's own name.
 */
export function humaniseKey(key: string): string {
  if (Object.hasOwn(PROFILES, key)) return profileLabel(key as ProfileId);
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Decide the editor kind from a schema property. */
function kindOf(key: string, prop: SchemaProperty): Pick<FieldSpec, 'kind' | 'options'> {
  if (key === 'metadata') return { kind: 'metadata' };
  if (prop.type === 'string' && prop.enum)
    return { kind: 'select', options: prop.enum.map(String) };
  if (prop.type === 'string') return { kind: LONG_TEXT.has(key) ? 'textarea' : 'text' };
  if (prop.type === 'boolean') return { kind: 'boolean' };
  if (prop.type === 'array' && prop.items?.type === 'string') return { kind: 'list' };
  if (prop.anyOf) {
    const types = prop.anyOf.map((a) => a.type ?? (a.enum ? 'enum' : '?'));
    if (types.includes('boolean')) return { kind: 'boolean' };
    if (types.includes('string') && types.includes('array')) return { kind: 'text-or-list' };
  }
  return { kind: 'complex' };
}

/**
 * The form's fields for the active profiles: the union of their keys, the six Agent Skills keys
 * first, then the others in profile order, with help text and kinds from the JSON Schemas.
 */
export function formFieldsFor(profiles: readonly ProfileId[]): FieldSpec[] {
  const active: ProfileId[] = profiles.length > 0 ? [...profiles] : ['agentskills'];
  const keys: string[] = [];
  for (const p of active) for (const k of PROFILES[p].keys) if (!keys.includes(k)) keys.push(k);
  const standard = AGENT_SKILLS_KEYS.filter((k) => keys.includes(k));
  const ordered = [
    ...standard,
    ...keys.filter((k) => !(AGENT_SKILLS_KEYS as readonly string[]).includes(k)),
  ];
  return ordered.map((key) => {
    const owner = active.find((p) => SCHEMAS[p].properties?.[key]);
    const prop: SchemaProperty = owner ? (SCHEMAS[owner].properties?.[key] ?? {}) : {};
    const required = active.some((p) => SCHEMAS[p].required?.includes(key) ?? false);
    return {
      key,
      label: humaniseKey(key),
      help: prop.description ?? '',
      ...kindOf(key, prop),
      maxLength: COUNTED[key],
      required,
    };
  });
}

/** Keys in the frontmatter that none of the active profiles knows. */
export function unknownKeys(fields: readonly FieldSpec[], data: Record<string, unknown>): string[] {
  const known = new Set(fields.map((f) => f.key));
  return Object.keys(data).filter((k) => !known.has(k));
}

/** The JSON pointer (RFC 6901) of a top-level key. */
export function pointerOf(key: string): string {
  return '/' + key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Diagnostics about a field or anything inside it (`/metadata` also takes `/metadata/author`). */
export function diagnosticsFor(diagnostics: readonly Diagnostic[], key: string): Diagnostic[] {
  const pointer = pointerOf(key);
  return diagnostics.filter(
    (d) => d.field !== undefined && (d.field === pointer || d.field.startsWith(pointer + '/')),
  );
}

/** Number of Unicode code points, as the spec counts `name` and `description`. */
export function countCodePoints(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** YAML's and Claude Code's readings of true (docs/skill-format.md §2 `claude-code`: yes/no/on/off/1/0 accepted). */
export function isTruthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1;
  return typeof value === 'string' && ['true', 'yes', 'on', '1'].includes(value.toLowerCase());
}

/** A list field's text: one entry per line. */
export function listToText(value: unknown): string {
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n');
  return typeof value === 'string' ? value : '';
}

/** One entry per non-empty line, trimmed; an empty list means "remove the field". */
export function textToList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** A value for display in a text input ('' when unset; numbers and booleans as written). */
export function scalarText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
