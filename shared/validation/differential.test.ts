import { readFileSync } from 'node:fs';
import matter from 'gray-matter';
import { parseFrontmatter, validateMetadata } from 'skills-ref';
import { describe, expect, it } from 'vitest';
import { jsYaml3Kind, pyyamlFalsy, pyyamlKind } from '../skill/yaml-typing';
import type { ScalarKind } from '../skill/yaml-typing';
import { validateSkill } from './index';
import type { ProfileId } from './index';

/**
 * The differential test of docs/skill-format.md §2: for every SKILL.md of
 * fixtures/differential.json, each of the three profiles that stand for an outside reader must
 * reach that reader's verdict (accept: valid or warning; reject: error), unless the row says why
 * Skillbench is deliberately stricter. Two readers run here as oracles on every row: the
 * `skills-ref` npm package (a JavaScript port of the Agent Skills reference validator, which
 * differs from the Python original where the row says so), and agentskills-mcp's loader as
 * docs/skill-format.md §2.4 describes it, on its real frontmatter parser (gray-matter 4 with
 * js-yaml 3). skill-creator's quick_validate.py needs PyPI, which is out of reach: its column is
 * written from its source, as §2.2 describes.
 */

type Verdict = 'accept' | 'reject';
type Reader = 'agentskills' | 'claude-upload' | 'agentskills-mcp';

interface Row {
  id: string;
  folder: string;
  content: string;
  readers: Record<Reader, Verdict>;
  why: string;
  /** The skills-ref port's verdict, where it differs from the Python reference validator. */
  skillsRef?: { verdict: Verdict; why: string };
  /** Profiles that reject what their reader accepts, with the reason. */
  stricter?: Partial<Record<Reader, string>>;
}

const table = JSON.parse(
  readFileSync(new URL('./fixtures/differential.json', import.meta.url), 'utf8'),
) as { cases: Row[] };

const READERS: readonly Reader[] = ['agentskills', 'claude-upload', 'agentskills-mcp'];

/** The skills-ref port's answer: its own frontmatter parser and validateMetadata, folder included. */
function skillsRefPort(content: string, folder: string): Verdict {
  try {
    const [metadata] = parseFrontmatter(content);
    return validateMetadata(metadata, `/skills/${folder}`).length === 0 ? 'accept' : 'reject';
  } catch {
    return 'reject';
  }
}

// agentskills-mcp's loader (docs/skill-format.md §2.4): the keys it maps, then its JSON Schema.
const MCP_KEYS = new Set([
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
  'disable-model-invocation',
  'user-invocable',
  'argument-hint',
  'context',
  'agent',
  'model',
  'hooks',
  'labels',
  'requires-mcp-servers',
]);
const KEBAB = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const SERVER_NAME = /^[a-z0-9][a-z0-9-]*[a-z0-9]$/;

const isText = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const chars = (s: string): number => Array.from(s).length;
const optional = (o: Record<string, unknown>, k: string, ok: (v: unknown) => boolean): boolean =>
  !(k in o) || ok(o[k]);

function serverOk(s: unknown): boolean {
  if (!isObject(s)) return false;
  const known = ['name', 'description', 'command', 'package', 'args', 'env', 'cwd', 'parameters'];
  if (Object.keys(s).some((k) => !known.includes(k))) return false;
  const name = s['name'];
  if (!isText(name) || !SERVER_NAME.test(name) || name.includes('--')) return false;
  if (!isText(s['description']) || !isText(s['command'])) return false;
  return (
    optional(s, 'package', isText) &&
    optional(s, 'cwd', isText) &&
    optional(s, 'args', (v) => Array.isArray(v) && v.every(isText)) &&
    optional(s, 'env', (v) => isObject(v) && Object.values(v).every(isText)) &&
    optional(s, 'parameters', (v) => isObject(v))
  );
}

function mcpSchemaOk(m: Record<string, unknown>): boolean {
  const name = m['name'];
  const desc = m['description'];
  if (!isText(name) || chars(name) < 1 || chars(name) > 64) return false;
  if (!KEBAB.test(name) || name.includes('--')) return false;
  if (!isText(desc) || chars(desc) < 1 || chars(desc) > 1024) return false;
  const text = ['license', 'allowed-tools', 'argument-hint', 'context', 'agent', 'model'];
  if (text.some((k) => !optional(m, k, isText))) return false;
  if (!optional(m, 'compatibility', (v) => isText(v) && chars(v) <= 500)) return false;
  if (!optional(m, 'metadata', isObject)) return false;
  const bools = ['disable-model-invocation', 'user-invocable'];
  if (bools.some((k) => !optional(m, k, (v) => typeof v === 'boolean'))) return false;
  if (!optional(m, 'hooks', (v) => isObject(v) && Object.values(v).every(isText))) return false;
  const labelOk = (l: unknown): boolean => isText(l) && chars(l) <= 64 && KEBAB.test(l);
  const labels = (v: unknown): boolean =>
    Array.isArray(v) && v.every(labelOk) && new Set(v).size === v.length;
  if (!optional(m, 'labels', labels)) return false;
  return optional(m, 'requires-mcp-servers', (v) => Array.isArray(v) && v.every(serverOk));
}

/** agentskills-mcp's verdict: gray-matter parses, the loader maps and validates, then checks the folder. */
function agentskillsMcpLoader(content: string, folder: string): Verdict {
  if (content.trim() === '') return 'reject';
  let data: unknown;
  try {
    data = matter(content).data;
  } catch {
    return 'reject';
  }
  if (!isObject(data) || Object.keys(data).length === 0) return 'reject';
  if (!('name' in data) || !('description' in data)) return 'reject';
  const mapped: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (!MCP_KEYS.has(k)) continue;
    // The loader splits a text allowed-tools into a list and joins any list back before its schema.
    mapped[k] = k === 'allowed-tools' && Array.isArray(v) ? v.map(String).join(' ') : v;
  }
  if (!mcpSchemaOk(mapped)) return 'reject';
  return mapped['name'] === folder ? 'accept' : 'reject';
}

describe('differential: each profile reaches its reader’s verdict (fixtures/differential.json)', () => {
  it('the table is large, explained and exercises both verdicts of every reader', () => {
    expect(table.cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(table.cases.map((c) => c.id)).size).toBe(table.cases.length);
    for (const c of table.cases) expect(c.why.length, c.id).toBeGreaterThan(10);
    for (const r of READERS) {
      const seen = new Set(table.cases.map((c) => c.readers[r]));
      expect([...seen].sort(), r).toEqual(['accept', 'reject']);
    }
  });

  for (const c of table.cases) {
    it(`${c.id}: ${c.why}`, () => {
      const result = validateSkill(c.content, {
        profiles: [...READERS] as ProfileId[],
        fileView: { folderName: c.folder, entries: [] },
      });
      for (const r of READERS) {
        const reason = c.stricter?.[r];
        // A deliberate difference is only ever a rejection of what the reader accepts.
        if (reason !== undefined) expect(c.readers[r], `${r}: ${reason}`).toBe('accept');
        const want: Verdict = reason !== undefined ? 'reject' : c.readers[r];
        const ours: Verdict = result.verdicts[r] === 'error' ? 'reject' : 'accept';
        const findings = result.diagnostics
          .filter((d) => d.profile === r)
          .map((d) => `${d.severity} ${d.ruleId}`);
        expect({ profile: r, verdict: ours }, JSON.stringify(findings)).toEqual({
          profile: r,
          verdict: want,
        });
      }
      // Oracle: the skills-ref port, on every row.
      const port = c.skillsRef?.verdict ?? c.readers.agentskills;
      if (c.skillsRef) expect(c.skillsRef.verdict, c.skillsRef.why).not.toBe(c.readers.agentskills);
      expect({ oracle: 'skills-ref', verdict: skillsRefPort(c.content, c.folder) }).toEqual({
        oracle: 'skills-ref',
        verdict: port,
      });
      // Oracle: agentskills-mcp's loader on its own parser, on every row.
      expect({
        oracle: 'agentskills-mcp',
        verdict: agentskillsMcpLoader(c.content, c.folder),
      }).toEqual({ oracle: 'agentskills-mcp', verdict: c.readers['agentskills-mcp'] });
    });
  }
});

/** The kind of a value js-yaml 3 returned. */
function kindOf(v: unknown): ScalarKind | 'number' {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Date) return 'timestamp';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  return 'str';
}

// Plain scalars on the borders of the YAML 1.1 and 1.2 types.
const SCALARS = [
  ...['yes', 'Yes', 'NO', 'on', 'Off', 'y', 'n', 'true', 'False', 'null', 'Null', '~'],
  ...['0', '-0', '+5', '0755', '0o17', '08', '0x1F', '0b101', '0b', '1_000', '1_', '_1'],
  ...['1:30', '1:60', '190:20:30', '1.0', '1.', '1e5', '1.0e5', '1.0e+5', '.5', '.inf', '.nan'],
  ...['2024-01-01', '2024-1-1', '2024-01-01T10:00:00', '2024-01-01 10:00:00 +01:00', '12:30'],
  ...['3.14.1', 'v1', 'my-skill', '123', '1:30.5', '0.0', '00', '0_7', '07_', '1_000.5'],
];

describe('reader typing (shared/skill/yaml-typing.ts)', () => {
  it('js-yaml 3, as gray-matter runs it, types every border case as jsYaml3Kind says', () => {
    for (const s of SCALARS) {
      const real = kindOf(
        (matter(`---\nv: ${s}\n---\n`, { excerpt: false }).data as { v: unknown }).v,
      );
      const mine = jsYaml3Kind(s);
      expect({ s, kind: mine === 'int' || mine === 'float' ? 'number' : mine }).toEqual({
        s,
        kind: real,
      });
    }
  });

  it('PyYAML: the YAML 1.1 cases it types differently from YAML 1.2', () => {
    // PyYAML 6's answers (its resolver, yaml/resolver.py), checked against PyYAML 6.0 by hand.
    const expected: Record<string, ScalarKind> = {
      yes: 'bool',
      Off: 'bool',
      y: 'str',
      '0755': 'int',
      '08': 'str',
      '1:30': 'int',
      '1_000': 'int',
      '1e5': 'str',
      '1.0e+5': 'float',
      '1.0e5': 'str',
      '.5': 'float',
      '2024-01-01': 'timestamp',
      '2024-1-1': 'str',
      '0b101': 'int',
      '0o17': 'str',
      '~': 'null',
      'my-skill': 'str',
    };
    for (const [s, kind] of Object.entries(expected))
      expect({ s, kind: pyyamlKind(s) }).toEqual({ s, kind });
  });

  it("Python's truthiness of PyYAML values, for skill-creator's `if compatibility:`", () => {
    for (const s of ['0', '00', '0x0', '0.0', 'no', 'Off', 'false', '~', 'null', ''])
      expect({ s, falsy: pyyamlFalsy(s) }).toEqual({ s, falsy: true });
    for (const s of ['1', '0x10', '0.5', 'yes', '.nan', '.inf', 'text', '2024-01-01'])
      expect({ s, falsy: pyyamlFalsy(s) }).toEqual({ s, falsy: false });
  });
});
