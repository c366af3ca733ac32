import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../../shared/validation/types';
import {
  countCodePoints,
  diagnosticsFor,
  formFieldsFor,
  humaniseKey,
  isTruthy,
  listToText,
  pointerOf,
  scalarText,
  textToList,
  unknownKeys,
} from './form-fields';

describe('formFieldsFor', () => {
  it('gives the six Agent Skills fields with schema help for the default profile', () => {
    const fields = formFieldsFor(['agentskills']);
    expect(fields.map((f) => f.key)).toEqual([
      'name',
      'description',
      'license',
      'compatibility',
      'metadata',
      'allowed-tools',
    ]);
    const description = fields.find((f) => f.key === 'description');
    expect(description).toMatchObject({
      kind: 'textarea',
      required: true,
      maxLength: 1024,
      label: 'Description',
    });
    expect(description?.help).toMatch(/when to use it/);
    expect(fields.find((f) => f.key === 'name')).toMatchObject({
      kind: 'text',
      required: true,
      maxLength: 64,
    });
    expect(fields.find((f) => f.key === 'metadata')?.kind).toBe('metadata');
    expect(fields.find((f) => f.key === 'license')?.required).toBe(false);
  });

  it('takes the union of the active profiles, standard six first, with selects, checkboxes and lists', () => {
    const fields = formFieldsFor(['claude-code', 'universal-2.1']);
    const keys = fields.map((f) => f.key);
    expect(keys.slice(0, 6)).toEqual([
      'name',
      'description',
      'license',
      'compatibility',
      'metadata',
      'allowed-tools',
    ]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(
      expect.arrayContaining([
        'effort',
        'disable-model-invocation',
        'spec_version',
        'tags',
        'hooks',
      ]),
    );
    expect(fields.find((f) => f.key === 'effort')).toMatchObject({
      kind: 'select',
      options: ['low', 'medium', 'high', 'xhigh', 'max'],
    });
    expect(fields.find((f) => f.key === 'disable-model-invocation')?.kind).toBe('boolean');
    expect(fields.find((f) => f.key === 'paths')?.kind).toBe('text-or-list');
    expect(fields.find((f) => f.key === 'tags')?.kind).toBe('list');
    expect(fields.find((f) => f.key === 'hooks')?.kind).toBe('complex');
    // claude-code is listed first, so its string when_to_use wins over universal's object.
    expect(fields.find((f) => f.key === 'when_to_use')?.kind).toBe('textarea');
    // universal-2.1 requires spec_version and version.
    expect(fields.find((f) => f.key === 'spec_version')?.required).toBe(true);
  });

  it('leaves out keys no active profile knows, and reports them as unknown', () => {
    const fields = formFieldsFor(['agentskills']);
    expect(unknownKeys(fields, { name: 'a', version: '1.0.0', hooks: {} })).toEqual([
      'version',
      'hooks',
    ]);
  });

  it('falls back to the default profile when none is active', () => {
    expect(formFieldsFor([]).map((f) => f.key)).toEqual(
      formFieldsFor(['agentskills']).map((f) => f.key),
    );
  });
});

describe('diagnosticsFor', () => {
  const d = (field: string | undefined): Diagnostic => ({
    ruleId: 'x/y',
    severity: 'error',
    profile: 'agentskills',
    message: 'm',
    field,
  });
  it('matches a field and the paths inside it, not look-alike keys', () => {
    const all = [
      d('/description'),
      d('/metadata/author'),
      d('/name'),
      d('/names'),
      d(undefined),
      d('/x-personal-mcp/version'),
    ];
    expect(diagnosticsFor(all, 'description')).toEqual([all[0]]);
    expect(diagnosticsFor(all, 'metadata')).toEqual([all[1]]);
    expect(diagnosticsFor(all, 'name')).toEqual([all[2]]);
    expect(diagnosticsFor(all, 'x-personal-mcp')).toEqual([all[5]]);
  });

  it('escapes JSON pointers', () => {
    expect(pointerOf('a/b~c')).toBe('/a~1b~0c');
  });
});

describe('value helpers', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(countCodePoints('😀é')).toBe(2);
    expect('😀é'.length).toBe(3);
  });

  it('reads Claude Code booleans', () => {
    for (const v of [true, 'yes', 'on', 'TRUE', '1', 1]) expect(isTruthy(v)).toBe(true);
    for (const v of [false, 'no', 'off', '0', 0, undefined, null, 'maybe'])
      expect(isTruthy(v)).toBe(false);
  });

  it('turns lists into lines and back, dropping blank lines', () => {
    expect(listToText(['Read', 'Grep'])).toBe('Read\nGrep');
    expect(listToText('Read Grep')).toBe('Read Grep');
    expect(textToList(' Read \n\n Grep\r\n')).toEqual(['Read', 'Grep']);
    expect(textToList('\n')).toEqual([]);
  });

  it('shows scalars as text', () => {
    expect(scalarText(undefined)).toBe('');
    expect(scalarText(null)).toBe('');
    expect(scalarText(2.1)).toBe('2.1');
    expect(scalarText(false)).toBe('false');
    expect(scalarText({ a: 1 })).toBe('{"a":1}');
  });

  it('humanises keys', () => {
    expect(humaniseKey('allowed-tools')).toBe('Allowed tools');
    expect(humaniseKey('disableModelInvocation')).toBe('Disable model invocation');
    expect(humaniseKey('when_to_use')).toBe('When to use');
    expect(humaniseKey('x-personal-mcp')).toBe('x-personal-mcp');
  });
});
