import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../shared/validation/rule-catalog';
import { PROFILE_IDS } from '../../shared/validation/types';
import { DISK_RULES } from './disk-rules';

// docs/skill-format.md §2.8 lists every rule's severity in every profile. The app reads the
// catalogs; this keeps the page telling the same.

const LETTER = { error: 'E', warning: 'W', info: 'I' } as const;

function documentedTable(): { header: string[]; rows: Map<string, string[]> } {
  const text = readFileSync(join(__dirname, '..', '..', 'docs', 'skill-format.md'), 'utf8');
  const section = text.slice(text.indexOf('### 2.8 All rules by profile'), text.indexOf('## 3.'));
  const lines = section.split('\n').filter((l) => l.startsWith('|'));
  const cells = (l: string): string[] =>
    l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim().replace(/^`|`$/g, ''));
  const rows = new Map<string, string[]>();
  for (const l of lines.slice(2)) {
    const [id, ...sev] = cells(l);
    rows.set(id, sev);
  }
  return { header: cells(lines[0]).slice(1), rows };
}

describe('docs/skill-format.md §2.8', () => {
  it('names every profile, and every rule with its severity in each', () => {
    const { header, rows } = documentedTable();
    expect(header).toEqual([...PROFILE_IDS]);
    const expected = new Map(
      [...RULES, ...DISK_RULES].map((r) => [
        r.id,
        PROFILE_IDS.map((p) => {
          const s = r.severity[p];
          return s ? LETTER[s] : '–';
        }),
      ]),
    );
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(expected));
  });
});
