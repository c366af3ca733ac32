/**
 * SARIF 2.1.0, the log code-scanning tools read: the one writer of it, for `skillbench validate`
 * and `skillbench scan`. Paths are relative to the folder the command ran in (`%SRCROOT%`),
 * columns are UTF-16 code units, and a result names its rule by id and by index in the rules.
 */
import { sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeRelativePath } from '../../shared/sep/skill-uri';

export type SarifLevel = 'error' | 'warning' | 'note';

/** One rule of the tool, as the log describes it. */
export interface SarifRule {
  id: string;
  /** A PascalCase name, where the tool gives its rules one. */
  name?: string;
  title: string;
  description: string;
  help: string;
  level: SarifLevel;
  properties: Record<string, unknown>;
}

/** Where a result is: 1-based lines and columns, the end column exclusive. */
export interface SarifRegion {
  startLine: number;
  startColumn?: number;
  endLine?: number;
  endColumn?: number;
}

/** One finding. */
export interface SarifResult {
  ruleId: string;
  level: SarifLevel;
  text: string;
  /** `/`-separated, relative to the command's folder; a folder ends with `/`. */
  file: string;
  region?: SarifRegion;
  properties: Record<string, unknown>;
  /** Why the finding is set aside (a "Trust anyway" the user recorded). */
  acceptedBecause?: string;
}

/** The whole log: one run of `tool` over `cwd`. */
export function sarifLog(
  tool: { name: string; version: string; rules: readonly SarifRule[] },
  cwd: string,
  results: readonly SarifResult[],
): Record<string, unknown> {
  const index = new Map(tool.rules.map((r, i) => [r.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            informationUri: 'https://agentskills.io',
            rules: tool.rules.map((r) => ({
              id: r.id,
              ...(r.name !== undefined ? { name: r.name } : {}),
              shortDescription: { text: r.title },
              fullDescription: { text: r.description },
              help: { text: r.help },
              defaultConfiguration: { level: r.level },
              properties: r.properties,
            })),
          },
        },
        originalUriBaseIds: {
          '%SRCROOT%': { uri: pathToFileURL(cwd.endsWith(sep) ? cwd : `${cwd}${sep}`).href },
        },
        columnKind: 'utf16CodeUnits',
        results: results.map((r) => ({
          ruleId: r.ruleId,
          ...(index.has(r.ruleId) ? { ruleIndex: index.get(r.ruleId) } : {}),
          level: r.level,
          message: { text: r.text },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: encodeRelativePath(r.file), uriBaseId: '%SRCROOT%' },
                ...(r.region ? { region: r.region } : {}),
              },
            },
          ],
          properties: r.properties,
          ...(r.acceptedBecause !== undefined
            ? {
                suppressions: [
                  { kind: 'external', status: 'accepted', justification: r.acceptedBecause },
                ],
              }
            : {}),
        })),
      },
    ],
  };
}
