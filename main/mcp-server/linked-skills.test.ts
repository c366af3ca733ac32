import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skillMd, tempDir, writeTree } from '../testing/skill-library';
import { buildSnapshot } from './catalog';
import { LiveCatalog, type CatalogChange } from './live-catalog';

// A skill folder that is a link (how agents' skill managers install, e.g. the `skills` CLI's
// `.claude/skills/x -> ../../.agents/skills/x`) is served as the skill it points to, under the
// one link policy: only targets inside the agents' skills folders or a served root are followed.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function project(): Promise<{ root: string; canonical: string; outside: string }> {
  const tmp = await tempDir('sb-linked-');
  cleanups.push(() => tmp.remove());
  const canonical = join(tmp.path, 'proj', '.agents', 'skills');
  const root = join(tmp.path, 'proj', '.claude', 'skills');
  const outside = join(tmp.path, 'elsewhere');
  await writeTree(canonical, {
    'my-skill/SKILL.md': skillMd('name: my-skill\ndescription: Installed by a skill manager.'),
    'my-skill/references/guide.md': '# Guide\n',
  });
  await writeTree(outside, {
    'stray/SKILL.md': skillMd('name: stray\ndescription: Lives outside every skills folder.'),
  });
  await mkdir(root, { recursive: true });
  await symlink('../../.agents/skills/my-skill', join(root, 'my-skill'));
  await symlink(join(outside, 'stray'), join(root, 'stray'));
  await symlink(join(tmp.path, 'nowhere'), join(root, 'broken'));
  return { root, canonical, outside };
}

describe('the embedded server and linked skill folders', () => {
  it('serves a followed link as the skill it points to, and lists the others as not served', async () => {
    const { root, canonical } = await project();
    const snap = await buildSnapshot([root], { linkRoots: [canonical] });
    expect(snap.skills.map((s) => s.skillPath)).toEqual(['my-skill']);
    const served = snap.skills[0];
    expect(served?.files.map((f) => f.relPath).sort()).toEqual(['SKILL.md', 'references/guide.md']);
    expect(served?.uri).toBe('skill://my-skill/SKILL.md');
    const reasons = new Map(snap.excluded.map((e) => [e.relativeDir, e.reasons.join(' ')]));
    expect(reasons.get('stray')).toContain('outside the skills folders');
    expect(reasons.get('broken')).toContain('broken link');
  });

  it('without the agents folders allowed, the same link is not followed', async () => {
    const { root } = await project();
    const snap = await buildSnapshot([root]);
    expect(snap.skills).toEqual([]);
    expect(snap.excluded.map((e) => e.relativeDir).sort()).toEqual(['broken', 'my-skill', 'stray']);
  });

  it('an edit in the linked folder reaches the running catalog', async () => {
    const { root, canonical } = await project();
    const catalog = new LiveCatalog([root], { debounceMs: 20, linkRoots: () => [canonical] });
    cleanups.push(() => catalog.close());
    await catalog.load();
    const changed = new Promise<CatalogChange>((resolve) => catalog.once('changed', resolve));
    await writeFile(join(canonical, 'my-skill', 'references', 'guide.md'), '# Guide, edited\n');
    await changed;
    const guide = catalog.current.skills[0]?.files.find((f) => f.relPath === 'references/guide.md');
    expect(guide?.text).toBe('# Guide, edited\n');
  });
});
