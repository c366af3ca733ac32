// Build time only (scripts/cached-bundles.mjs runs it as `node warmup.mjs OUT_DIR`): load each
// bundle that is loaded with a code cache, run it over a small library of made-up skills the way
// the app does, and write the code cache of what that compiled beside it. Why a run and not just a
// load: V8 compiles a function when it is first called, and a cache holds only what was compiled,
// so a cache made right after loading would leave the rules to compile at every start anyway.
//
// The skills are the common shapes, not any benchmark's: skill-creator's layout (references,
// scripts, assets), the optional fields, a folder of grouped skills, and the mistakes people make
// (a name that does not match its folder, no description, YAML that does not parse), so the code
// that reports findings is compiled too.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type * as ValidationCore from '../validate/library-job';
import type * as ValidateProcess from './validate-process';
import {
  bundleCacheData,
  bundleCacheFile,
  loadBundle,
  VALIDATE_CLI_BUNDLE,
  VALIDATION_BUNDLE,
  type LoadedBundle,
} from '../platform/bundle-cache';
import { writeFileAtomic } from '../platform/atomic-write';
import { PartClaims } from '../platform/part-claims';

const SKILLS: Record<string, string> = {
  'pdf-forms/SKILL.md': `---
name: pdf-forms
description: Fills in PDF forms and extracts their fields. Use when the user asks to fill, read or flatten a PDF form.
license: Apache-2.0
allowed-tools: Read Bash(python3:*)
metadata:
  author: example
  version: "1.2"
---
# PDF forms

1. Run \`scripts/fill.py\` with the form and a JSON file of values.
2. See [the field guide](references/fields.md) for checkbox values.

![layout](assets/layout.png)
`,
  'pdf-forms/references/fields.md': '# Fields\n\nCheckboxes take `/Yes` or `/Off`.\n',
  'pdf-forms/scripts/fill.py': 'import sys\nprint(sys.argv[1:])\n',
  'pdf-forms/assets/layout.png': '\u0089PNG\r\n',
  'meeting-notes/SKILL.md': `---
name: meeting-notes
description: >-
  Turns a meeting transcript into notes with decisions and action items.
  Use when the user shares a transcript or asks for minutes.
compatibility: Needs no network access.
---
# Meeting notes

Write **Decisions**, then **Action items** (owner, due date), then open questions.
See [the template](templates/notes.md).
`,
  'meeting-notes/templates/notes.md': '## Decisions\n\n## Action items\n',
  'team/brand-voice/SKILL.md': `---
name: brand-voice
description: Rewrites text in the company's brand voice. Use when drafting posts, emails or release notes.
---
Keep sentences short. Never use exclamation marks.
`,
  'team/Release_Notes/SKILL.md': `---
name: Release_Notes
description: Writes release notes from merged changes. Use when preparing a release. <b>Fast</b>
depends_on: [brand-voice, changelog-format]
---
# Release notes
Read [the style](references/style.md).
`,
  'draft-skill/SKILL.md': `---
name: draft-skill
---
TODO: write this skill.
`,
  'broken-yaml/SKILL.md': `---
name: broken-yaml
description: "An unclosed quote
  metadata: [1, 2
---
Body.
`,
};

/** Write a bundle's code cache, from what running it compiled. */
async function keep(bundle: string, loaded: LoadedBundle<unknown>): Promise<void> {
  await writeFileAtomic(bundleCacheFile(bundle), bundleCacheData(loaded));
}

async function main(): Promise<void> {
  const outDir = process.argv[2];
  if (!outDir) throw new Error('usage: bundle-warmup OUT_DIR');
  const work = await realpath(await mkdtemp(join(tmpdir(), 'skillbench-warmup-')));
  const lib = join(work, 'library');
  try {
    for (const [path, text] of Object.entries(SKILLS)) {
      await mkdir(dirname(join(lib, path)), { recursive: true });
      await writeFile(join(lib, path), text);
    }
    const core = join(outDir, VALIDATION_BUNDLE);
    if (existsSync(core)) {
      const loaded = loadBundle<typeof ValidationCore>(core);
      const dirs = ['broken-yaml', 'draft-skill', 'meeting-notes', 'pdf-forms', 'team'];
      const job = { root: lib, realRoot: lib, stamp: true, validate: true };
      // As a worker runs it: parts taken from a shared job, each reported.
      loaded.exports.runSharedLibraryJob(
        { job, parts: [dirs.slice(0, 2), dirs.slice(2)], claims: new PartClaims(2).buffer },
        () => undefined,
      );
      await keep(core, loaded);
    }
    const cli = join(outDir, VALIDATE_CLI_BUNDLE);
    if (existsSync(cli)) {
      const loaded = loadBundle<typeof ValidateProcess>(cli);
      const run = (...args: string[]) =>
        loaded.exports.runValidateProcess(['validate', ...args], outDir, 'warm-up');
      // The forms people run: a full check as JSON, then as text with the findings kept (in a
      // user-data folder of this run's own), then again finding them kept, and one skill.
      process.env['SKILLBENCH_USER_DATA'] = join(work, 'user-data');
      await run(lib, '--format', 'json', '--no-cache');
      await run(lib);
      await run(lib, '--format', 'sarif');
      await run(join(lib, 'pdf-forms'));
      process.exitCode = 0;
      await keep(cli, loaded);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
