import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROFILE_IDS } from '../validation/types';
import { PROFILE_VALIDATORS, schemaFileName, schemaId, validateJsonSchemaDocument } from './index';

const dir = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

function load(profile: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${dir}${profile}.schema.json`, 'utf8')) as Record<
    string,
    unknown
  >;
}

/** Every object schema reachable through `properties`, with its JSON path. */
function properties(schema: unknown, path = ''): [string, Record<string, unknown>][] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const out: [string, Record<string, unknown>][] = [];
  const props = s['properties'] as Record<string, unknown> | undefined;
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      out.push([`${path}/${k}`, v as Record<string, unknown>]);
      out.push(...properties(v, `${path}/${k}`));
    }
  }
  if (s['items']) out.push(...properties(s['items'], `${path}[]`));
  if (s['additionalProperties'] && typeof s['additionalProperties'] === 'object')
    out.push(...properties(s['additionalProperties'], `${path}/*`));
  return out;
}

describe('JSON Schemas', () => {
  it('has one schema file per profile', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json'));
    expect(files.sort()).toEqual(PROFILE_IDS.map((p) => `${p}.schema.json`).sort());
  });

  for (const profile of PROFILE_IDS) {
    it(`${profile}: valid draft 2020-12 with a description on every property`, () => {
      const schema = load(profile);
      expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema['$id']).toBe(schemaId(profile));
      expect(readdirSync(dir)).toContain(schemaFileName(profile));
      expect(validateJsonSchemaDocument(schema)).toEqual([]);
      const missing = properties(schema)
        .filter(([, s]) => typeof s['description'] !== 'string')
        .map(([p]) => p);
      expect(missing).toEqual([]);
    });
  }

  it('universal-2.1 is closed and requires the four Appendix A fields', () => {
    const s = load('universal-2.1');
    expect(s['additionalProperties']).toBe(false);
    expect(s['required']).toEqual(['spec_version', 'name', 'description', 'version']);
    const v = PROFILE_VALIDATORS['universal-2.1'];
    expect(v({ spec_version: '2.1', name: 'a', description: 'd', version: '1.0.0' })).toBe(true);
    expect(
      v({ spec_version: '2.1', name: 'a', description: 'd', version: '1.0.0', extra: 1 }),
    ).toBe(false);
    expect(v.errors?.[0]?.keyword).toBe('additionalProperties');
  });

  it('claude-code schema carries the enums of the spec', () => {
    const props = load('claude-code')['properties'] as Record<string, Record<string, unknown>>;
    expect(props['effort']?.['enum']).toEqual(['low', 'medium', 'high', 'xhigh', 'max']);
    expect(props['shell']?.['enum']).toEqual(['bash', 'powershell']);
    expect(props['context']?.['enum']).toEqual(['fork']);
    const v = PROFILE_VALIDATORS['claude-code'];
    expect(v({ effort: 'high', 'disable-model-invocation': 'yes' })).toBe(true);
    expect(v({ effort: 'extreme' })).toBe(false);
  });

  it('the meta-schema validator rejects an invalid schema', () => {
    expect(
      validateJsonSchemaDocument({ type: 'object', properties: { a: { type: 'strin' } } }).length,
    ).toBeGreaterThan(0);
    expect(
      validateJsonSchemaDocument({ type: 'object', minProperties: -1 }).length,
    ).toBeGreaterThan(0);
    expect(validateJsonSchemaDocument({ type: 'object', additionalProperties: false })).toEqual([]);
  });

  it('generated validators are up to date with the schema files', () => {
    const r = spawnSync(process.execPath, ['scripts/gen-validators.mjs', '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('generated code compiles nothing at run time (CSP without unsafe-eval)', () => {
    const code = readFileSync(`${dir}generated/validators.ts`, 'utf8');
    expect(code).not.toMatch(/new Function|\beval\(|\brequire\(/);
  });
});
