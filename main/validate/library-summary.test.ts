import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSkill } from '../../shared/skill';
import { suggestProfiles } from '../../shared/validation';
import { validateLibrary } from './service';

let tmp: string;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(tmp, path)), { recursive: true });
  await writeFile(join(tmp, path), text);
}

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-summary-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('validateLibrary summaries (what the library list shows without reading each file again)', () => {
  it('carries each skill’s description and the core’s profile suggestion, whatever profiles were checked', async () => {
    const texts: Record<string, string> = {
      plain:
        '---\nname: plain\ndescription: Does plain things.\n  Still the description.\n---\n# plain\n',
      code: '---\nname: code\ndescription: Claude Code skill. Use when asked.\nallowed-tools: Read\nwhen_to_use: always\n---\n',
      universal: '---\nspec_version: "2.1"\nname: universal\ndescription: Universal.\n---\n',
      broken: '---\nname: broken\ndescription: [unclosed\n---\n',
      none: '# no frontmatter\n',
    };
    for (const [dir, text] of Object.entries(texts)) await put(`lib/${dir}/SKILL.md`, text);
    for (const profiles of [undefined, ['claude-upload' as const]]) {
      const r = await validateLibrary(join(tmp, 'lib'), profiles ? { profiles } : {});
      for (const s of r.skills) {
        const parsed = parseSkill(texts[s.relativePath] ?? '');
        const data = parsed.data as Record<string, unknown> | undefined;
        const description =
          data && typeof data === 'object' && typeof data['description'] === 'string'
            ? data['description']
            : undefined;
        expect(s.description, s.relativePath).toBe(description);
        expect(s.suggestedProfiles, s.relativePath).toEqual(suggestProfiles(parsed));
      }
    }
    const r = await validateLibrary(join(tmp, 'lib'));
    expect(r.skills.find((s) => s.relativePath === 'code')?.suggestedProfiles).toEqual([
      'claude-code',
    ]);
    expect(r.skills.find((s) => s.relativePath === 'plain')?.description).toBe(
      'Does plain things. Still the description.',
    );
  });
});
