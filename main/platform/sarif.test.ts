import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sarifLog, type SarifRule } from './sarif';

const RULES: SarifRule[] = [
  {
    id: 'a/one',
    title: 'One',
    description: 'Why one.',
    help: 'Do one.',
    level: 'error',
    properties: {},
  },
  {
    id: 'b/two',
    name: 'BTwo',
    title: 'Two',
    description: 'Why two.',
    help: 'Do two.',
    level: 'note',
    properties: { x: 1 },
  },
];

interface Run {
  tool: { driver: { name: string; version: string; rules: Record<string, unknown>[] } };
  originalUriBaseIds: Record<string, { uri: string }>;
  columnKind: string;
  results: (Record<string, unknown> & {
    locations: { physicalLocation: Record<string, unknown> }[];
  })[];
}

const firstRun = (log: Record<string, unknown>): Run | undefined => (log.runs as Run[])[0];

describe('sarifLog', () => {
  it('writes one run: the rules, each result with its rule index, an encoded path under %SRCROOT%', () => {
    const cwd = join('/tmp', 'work dir');
    const log = sarifLog({ name: 'tool', version: '1.2.3', rules: RULES }, cwd, [
      {
        ruleId: 'b/two',
        level: 'warning',
        text: 'Found two.',
        file: 'my skill/SKILL #1.md',
        region: { startLine: 3, startColumn: 1, endColumn: 5 },
        properties: { skill: 'my-skill' },
      },
      { ruleId: 'c/unknown', level: 'note', text: 'Folder-wide.', file: 'lib/', properties: {} },
    ]);
    expect(log).toMatchObject({
      version: '2.1.0',
      $schema: expect.stringContaining('sarif-2.1.0'),
    });
    const run = firstRun(log) as Run;
    expect(run.tool.driver).toMatchObject({ name: 'tool', version: '1.2.3' });
    expect(run.tool.driver.rules[1]).toEqual({
      id: 'b/two',
      name: 'BTwo',
      shortDescription: { text: 'Two' },
      fullDescription: { text: 'Why two.' },
      help: { text: 'Do two.' },
      defaultConfiguration: { level: 'note' },
      properties: { x: 1 },
    });
    expect(run.tool.driver.rules[0]).not.toHaveProperty('name');
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toBe('file:///tmp/work%20dir/');
    expect(run.columnKind).toBe('utf16CodeUnits');
    expect(run.results[0]).toEqual({
      ruleId: 'b/two',
      ruleIndex: 1,
      level: 'warning',
      message: { text: 'Found two.' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'my%20skill/SKILL%20%231.md', uriBaseId: '%SRCROOT%' },
            region: { startLine: 3, startColumn: 1, endColumn: 5 },
          },
        },
      ],
      properties: { skill: 'my-skill' },
    });
    // A rule the tool does not list has no index, and a result without a region has none.
    expect(run.results[1]).not.toHaveProperty('ruleIndex');
    expect(run.results[1].locations[0].physicalLocation).not.toHaveProperty('region');
    expect(run.results[1]).not.toHaveProperty('suppressions');
  });

  it('marks a result the user accepted as an external, accepted suppression with the reason', () => {
    const log = sarifLog({ name: 't', version: '1', rules: RULES }, '/tmp', [
      {
        ruleId: 'a/one',
        level: 'error',
        text: 'x',
        file: 'f',
        properties: {},
        acceptedBecause: 'Checked (until 2027-01-01)',
      },
    ]);
    const result = firstRun(log)?.results[0];
    expect(result?.suppressions).toEqual([
      { kind: 'external', status: 'accepted', justification: 'Checked (until 2027-01-01)' },
    ]);
  });
});
