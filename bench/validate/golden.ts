// Differential check for performance work (not a benchmark): writes every verdict and
// diagnostic of a varied library and of thousands of mutated SKILL.md texts to one JSON file,
// so two trees' outputs can be compared byte for byte. Run: node bench/validate/golden.mjs OUT.json
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSkill } from '../../shared/skill';
import { PROFILE_IDS, validateSkill } from '../../shared/validation';
import type { ProfileId } from '../../shared/validation';
import { validateLibrary, validateSkillFolder } from '../../main/validate/service';

const MUTATIONS = [
  ': ',
  '\t',
  ' #',
  '---\n',
  '"',
  "'",
  '[',
  '{',
  '&a ',
  '*a',
  '\r\n',
  '\r',
  'yes',
  '\uFEFF',
  '  ',
  '\n',
  '- ',
  '<x>',
  '](../x.md)',
  '](missing.md)',
  ':',
  '...\n',
  '|\n  ',
  '? ',
  '!!str ',
  '%',
  '@',
  '`',
  'é',
  '\u2028',
];

/** A small LCG so every run writes the same texts. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function mutate(text: string, r: () => number): string {
  let t = text;
  const n = 1 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(r() * Math.min(t.length + 1, 400));
    if (r() < 0.25) t = t.slice(0, at) + t.slice(at + 1 + Math.floor(r() * 4));
    else t = t.slice(0, at) + (MUTATIONS[Math.floor(r() * MUTATIONS.length)] ?? '') + t.slice(at);
  }
  return t;
}

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
}

async function main(): Promise<void> {
  const out = process.argv[2] ?? 'golden.json';
  const repo = process.env.BENCH_REPO ?? process.cwd();
  const corpus = JSON.parse(
    await readFile(
      join(repo, 'shared', 'validation', 'fixtures', 'frontmatter-cases.json'),
      'utf8',
    ),
  ) as { cases: { id: string; folder?: string; content: string }[] };
  const seeds = corpus.cases.map((c) => c.content);
  seeds.push(
    '---\nname: big\ndescription: "Quoted: yes"\nmetadata:\n  a: 1\n  b: [x, y]\nallowed-tools: Read Write\nlicense: MIT\ncompatibility: any\n---\n# Body\n\nSee [g](references/g.md) and [m](missing.md).\n',
    '---\nspec_version: "2.1"\nname: uni\ndescription: Universal skill. Use when testing.\nversion: 1.0.0\ntools:\n  - name: run\n    description: runs\n    runtime: python\n    entrypoint: scripts/run.py\n    input_schema:\n      type: object\n      properties: {}\ndepends_on:\n  - other\n---\nbody $ARGUMENTS\n',
    '---\nname: xp\ndescription: XP skill. Use when testing.\nx-personal-mcp:\n  id: xp\n  version: 1.0.0\n  capabilities:\n    - resource://skills/xp/document\n  depends_on:\n    - nope\n  references:\n    guide:\n      path: references/guide.md\n      mime_type: text/markdown\n---\nbody\n',
    '---\nname: cc\ndescription: Claude Code skill. Use when testing.\nargument-hint: [file]\nallowed-tools:\n  - Read\nwhen_to_use: always\n---\n!`ls`\n$1\n',
  );
  const r = rng(42);
  const texts: string[] = [...seeds];
  for (let i = 0; i < 3000; i++) texts.push(mutate(seeds[Math.floor(r() * seeds.length)] ?? '', r));
  const result: Record<string, unknown> = {};
  // 1. The core on every text, every profile, and the parse facts rules rely on.
  result['core'] = texts.map((t) => {
    const p = parseSkill(t);
    const all = validateSkill(p, { profiles: [...PROFILE_IDS] as ProfileId[] });
    return {
      parse: {
        fm: p.frontmatter,
        issues: p.boundaryIssues,
        data: p.data === undefined ? '<undefined>' : p.data,
        errors: p.yamlErrors,
        warnings: p.yamlWarnings,
        repairs: p.repairs,
        bodyStart: p.bodyStart,
        bodyStartLine: p.bodyStartLine,
        lineEnding: p.lineEnding,
      },
      all,
      fileView: validateSkill(t, {
        profiles: ['agentskills', 'mcp-serve'],
        fileView: {
          folderName: 'big',
          relativePath: 'big',
          entries: [
            { path: 'references', kind: 'directory', size: 0 },
            { path: 'references/g.md', kind: 'file', size: 3 },
          ],
        },
      }),
    };
  });
  // 2. A library on disk: nested skills, symlinks, tools.json, unwalked folders, duplicates, dependencies.
  const lib = join(repo, 'bench', '.work', 'golden-lib');
  await rm(lib, { recursive: true, force: true });
  for (let i = 0; i < 400; i++) {
    const t = texts[i * 7] ?? '';
    const dir = join(lib, `g${i % 5}`, `s-${i}`);
    await put(join(dir, i % 17 === 0 ? 'skill.md' : 'SKILL.md'), t);
    if (i % 3 === 0) await put(join(dir, 'references', 'g.md'), '# g\n');
    if (i % 11 === 0) await put(join(dir, 'tools.json'), '[]');
    if (i % 13 === 0) await put(join(dir, 'node_modules', 'x', 'SKILL.md'), t);
    if (i % 19 === 0) await put(join(dir, 'nested', 'SKILL.md'), texts[i] ?? '');
    if (i % 23 === 0) await symlink('/etc', join(dir, 'escape'));
    if (i % 29 === 0) await symlink('references', join(dir, 'inside'));
    if (i % 31 === 0) await symlink('nowhere', join(dir, 'dangling'));
  }
  const strip = (v: unknown): unknown => JSON.parse(JSON.stringify(v).split(lib).join('<LIB>'));
  result['library-default'] = strip(await validateLibrary(lib));
  result['library-all'] = strip(
    await validateLibrary(lib, { profiles: [...PROFILE_IDS] as ProfileId[] }),
  );
  result['library-group'] = strip(await validateLibrary(join(lib, 'g1')));
  result['library-skill-root'] = strip(await validateLibrary(join(lib, 'g0', 's-0')));
  result['folder'] = strip(await validateSkillFolder(join(lib, 'g2', 's-2'), { libraryRoot: lib }));
  await writeFile(out, `${JSON.stringify(result, null, 1)}\n`);
  process.stdout.write(`wrote ${out} (${texts.length} texts)\n`);
}

await main();
