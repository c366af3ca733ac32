import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateSkill } from './index';
import type { ProfileId } from './index';

interface CorpusCase {
  id: string;
  folder: string;
  content: string;
  expect: Partial<Record<ProfileId, 'valid' | 'warning' | 'error'>>;
  why: string;
}

const corpus = JSON.parse(
  readFileSync(new URL('./fixtures/frontmatter-cases.json', import.meta.url), 'utf8'),
) as { cases: CorpusCase[] };

/** The finding each failing case is about, and the text its range must cover. */
const KEY_DIAGNOSTIC: Record<string, { ruleId: string; text: string; profile?: ProfileId }> = {
  'uppercase-name': { ruleId: 'name/uppercase', text: 'MySkill' },
  'leading-hyphen': { ruleId: 'name/pattern', text: '-my-skill' },
  'double-hyphen': { ruleId: 'name/pattern', text: 'my--skill' },
  underscore: { ruleId: 'name/pattern', text: 'my_skill' },
  'name-65': { ruleId: 'name/too-long', text: 'a'.repeat(65) },
  'folder-mismatch': { ruleId: 'name/folder-mismatch', text: 'correct-name' },
  'unknown-key': { ruleId: 'keys/unexpected', text: 'version' },
  'claude-code-keys': { ruleId: 'keys/unexpected', text: 'argument-hint' },
  'description-1025': { ruleId: 'description/too-long', text: 'x'.repeat(1025) },
  'description-xml-tag': {
    ruleId: 'description/xml-tag',
    text: '<input>',
    profile: 'claude-upload',
  },
  'reserved-word': {
    ruleId: 'name/reserved-word',
    text: 'claude-helper',
    profile: 'claude-upload',
  },
  'unquoted-colon': { ruleId: 'yaml/unquoted-colon', text: 'Use when: the user asks for PDFs' },
  crlf: { ruleId: 'file/line-endings', text: '\r\n' },
  bom: { ruleId: 'frontmatter/bom', text: '\uFEFF' },
  'empty-description': { ruleId: 'description/empty', text: 'description' },
  'no-frontmatter': { ruleId: 'frontmatter/missing', text: '# Just a heading' },
  'unclosed-frontmatter': { ruleId: 'frontmatter/unclosed', text: '---' },
  'compatibility-501': { ruleId: 'compatibility/too-long', text: 'y'.repeat(501) },
  'hash-comment-in-description': {
    ruleId: 'yaml/comment-truncates-value',
    text: 'Handles C# #tags and issue #12',
  },
};

describe('corpus: frontmatter-cases.json', () => {
  for (const c of corpus.cases) {
    const profiles = Object.keys(c.expect) as ProfileId[];
    it(`${c.id}: ${c.why}`, () => {
      const result = validateSkill(c.content, {
        profiles,
        fileView: { folderName: c.folder, entries: [] },
      });
      for (const p of profiles) {
        const mine = result.diagnostics.filter((d) => d.profile === p);
        expect(
          { profile: p, verdict: result.verdicts[p] },
          JSON.stringify(mine.map((d) => `${d.severity} ${d.ruleId}`)),
        ).toEqual({ profile: p, verdict: c.expect[p] });
      }
      const key = KEY_DIAGNOSTIC[c.id];
      if (!key) {
        expect(Object.values(c.expect).every((v) => v === 'valid')).toBe(true);
        return;
      }
      const profile = key.profile ?? 'agentskills';
      const d = result.diagnostics.find((x) => x.ruleId === key.ruleId && x.profile === profile);
      expect(d, `${key.ruleId} under ${profile}`).toBeDefined();
      expect(d?.range).toBeDefined();
      const r = d?.range;
      if (r) expect(c.content.slice(r.start.offset, r.end.offset)).toBe(key.text);
    });
  }

  it('covers every case in the corpus', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(22);
    for (const c of corpus.cases) {
      if (Object.values(c.expect).some((v) => v !== 'valid'))
        expect(KEY_DIAGNOSTIC[c.id], c.id).toBeDefined();
    }
  });
});
