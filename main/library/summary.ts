import { parse } from 'yaml';

/** The fields the library list shows. */
export interface SummaryFields {
  name: string;
  description: string;
}

/** Read `name` and the first line of `description` from SKILL.md text; never throws. */
export function summarizeSkillText(text: string): SummaryFields {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return { name: '', description: '' };
  const end = lines.indexOf('---', 1);
  if (end < 0) return { name: '', description: '' };
  try {
    const data: unknown = parse(lines.slice(1, end).join('\n'));
    if (!data || typeof data !== 'object') return { name: '', description: '' };
    const record = data as Record<string, unknown>;
    const name = typeof record.name === 'string' ? record.name : '';
    const description = typeof record.description === 'string' ? (record.description.split('\n')[0] ?? '') : '';
    return { name, description };
  } catch {
    return { name: '', description: '' };
  }
}
