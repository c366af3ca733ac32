import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RULES } from '../../../shared/validation';
import { runCliCaptured, type CliRun } from '../../testing/cli-run';
import { backdate, LAST_MONTH, LAST_YEAR } from '../../testing/file-times';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
let tmp: string;

/** `skillbench validate ARGS…` in this process. */
function run(args: string[], cwd = tmp): Promise<CliRun> {
  return runCliCaptured(['validate', ...args], cwd);
}

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(tmp, path)), { recursive: true });
  await writeFile(join(tmp, path), text);
}

const GOOD = (name: string): string =>
  `---\nname: ${name}\ndescription: Does ${name} work. Use when the user asks for ${name}.\n---\n# ${name}\nSee [guide](references/guide.md).\n`;

/** A small library: one clean skill, one with an error (unquoted colon) and a warning (broken link). */
async function smallLibrary(): Promise<void> {
  await put('lib/clean-skill/SKILL.md', GOOD('clean-skill'));
  await put('lib/clean-skill/references/guide.md', '# Guide\n');
  await put(
    'lib/broken-skill/SKILL.md',
    '---\nname: broken-skill\ndescription: Use when: notes arrive\n---\n# Body\nSee [gone](references/gone.md).\n',
  );
}

/** `skillbench validate lib --format json` as a real process in tmp, with its own user-data folder. */
interface ValidateRun {
  status: number | null;
  report: unknown;
}
function validateAsProcess(data: string, extra: string[]): ValidateRun {
  const p = spawnSync(
    process.execPath,
    [join(repo, 'main/cli/skillbench.mjs'), 'validate', 'lib', '--format', 'json', ...extra],
    {
      cwd: tmp,
      encoding: 'utf8',
      env: { ...process.env, SKILLBENCH_USER_DATA: data },
      timeout: 60_000,
    },
  );
  expect(p.stderr).toBe('');
  return { status: p.status, report: JSON.parse(p.stdout) };
}

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-cli-validate-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('skillbench validate --format json', () => {
  it('prints a document that matches the published JSON Schema', async () => {
    await smallLibrary();
    const { code, out, err } = await run(['lib', '--format', 'json']);
    expect(err).toBe('');
    expect(code).toBe(1);
    const schema = JSON.parse(
      await readFile(join(repo, 'main/validate/validate-output.schema.json'), 'utf8'),
    );
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    const doc = JSON.parse(out);
    const valid = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(doc.summary).toEqual({ skills: 2, error: 1, warning: 1, info: 0, fixedFiles: 0 });
    expect(doc.skills.map((s: { file: string }) => s.file)).toEqual([
      'lib/broken-skill/SKILL.md',
      'lib/clean-skill/SKILL.md',
    ]);
    const colon = doc.skills[0].diagnostics.find(
      (d: { ruleId: string }) => d.ruleId === 'yaml/unquoted-colon',
    );
    expect(colon).toMatchObject({
      severity: 'error',
      profile: 'agentskills',
      file: 'lib/broken-skill/SKILL.md',
      range: { start: { line: 3, column: 14 } },
    });
    expect(doc.libraries).toHaveLength(1);
    expect(doc.libraries[0].root).toBe('lib');
    // The schema rejects what it does not describe, so it can fail.
    expect(validate({ ...doc, extra: true })).toBe(false);
  });
});

describe('skillbench validate --format sarif', () => {
  it('prints SARIF 2.1.0 with the rule catalog and located results', async () => {
    await smallLibrary();
    const { code, out } = await run(['lib', '--format', 'sarif']);
    expect(code).toBe(1);
    const sarif = JSON.parse(out);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.$schema).toContain('sarif-2.1.0');
    const run0 = sarif.runs[0];
    const rules = run0.tool.driver.rules as {
      id: string;
      help: { text: string };
      shortDescription: { text: string };
    }[];
    expect(run0.tool.driver.name).toBe('skillbench');
    for (const r of RULES)
      expect(rules.some((x) => x.id === r.id && x.help.text === r.help)).toBe(true);
    expect(rules.some((x) => x.id === 'links/broken')).toBe(true);
    interface SarifResult {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: unknown }[];
    }
    const results = run0.results as SarifResult[];
    expect(results).toHaveLength(2);
    for (const res of results) {
      expect(typeof res.ruleId).toBe('string');
      expect(['error', 'warning', 'note']).toContain(res.level);
      expect(res.message.text.length).toBeGreaterThan(0);
      expect(rules[res.ruleIndex]?.id).toBe(res.ruleId);
    }
    const link = results.find((r) => r.ruleId === 'links/broken');
    expect(link?.level).toBe('warning');
    expect(link?.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'lib/broken-skill/SKILL.md', uriBaseId: '%SRCROOT%' },
      region: { startLine: 6, startColumn: 12, endLine: 6, endColumn: 30 },
    });
  });
});

describe('skillbench validate (text)', () => {
  it('prints file:line:col, severity, rule id, profile and a summary; exit 1 on errors', async () => {
    await smallLibrary();
    const { code, out } = await run(['lib']);
    expect(code).toBe(1);
    expect(out).toContain(
      'lib/broken-skill/SKILL.md:3:14: error yaml/unquoted-colon [agentskills] The description has a colon',
    );
    expect(out).toMatch(
      /^lib\/broken-skill\/SKILL\.md:6:12: warning links\/broken \[agentskills\] The link "references\/gone\.md"/m,
    );
    expect(out.trimEnd().split('\n').pop()).toBe('Checked 2 skills: 1 error, 1 warning, 0 notes.');
  });

  it('exits 0 with warnings only, and names every profile that raised the same finding', async () => {
    await put('lib/clean-skill/SKILL.md', GOOD('clean-skill'));
    const { code, out } = await run([
      'lib/clean-skill',
      '--profile',
      'agentskills',
      '--profile',
      'claude-upload',
    ]);
    expect(code).toBe(0);
    expect(out).toContain(
      'lib/clean-skill/SKILL.md:6:13: warning links/broken [agentskills, claude-upload]',
    );
  });

  it('exits 0 on a clean skill and says so', async () => {
    await put('lib/clean-skill/SKILL.md', GOOD('clean-skill'));
    await put('lib/clean-skill/references/guide.md', '# Guide\n');
    const { code, out } = await run(['lib/clean-skill/SKILL.md']);
    expect(code).toBe(0);
    expect(out).toBe('No problems found in 1 skill.\n');
  });

  it('works as `validate .` from inside a skill folder', async () => {
    await put(
      'lib/broken-skill/SKILL.md',
      '---\nname: broken-skill\ndescription: Use when: notes arrive\n---\n',
    );
    const { code, out } = await run(['.'], join(tmp, 'lib/broken-skill'));
    expect(code).toBe(1);
    expect(out).toContain('SKILL.md:3:14: error yaml/unquoted-colon');
    expect(out).not.toContain('name/folder-mismatch');
  });

  it('exits 2 with a plain sentence for a path that does not exist, or a folder without skills', async () => {
    const missing = await run(['no-such-folder']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`Nothing exists at ${join(tmp, 'no-such-folder')}`);
    await mkdir(join(tmp, 'empty'));
    const empty = await run(['empty', '--format', 'json']);
    expect(empty.code).toBe(2);
    expect(JSON.parse(empty.out).inputErrors[0].message).toContain('No skills found');
  });

  it('exits 2 with the usage on a bad option, profile or format, or no PATH', async () => {
    for (const args of [
      ['--profile', 'nope', 'lib'],
      ['--format', 'xml', 'lib'],
      [],
      ['--bogus', 'lib'],
    ]) {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(r.err).toContain('Usage: skillbench validate PATH...');
    }
  });
});

describe('skillbench validate --fix', () => {
  it('applies the safe fixes atomically, reports them, and exits with what remains', async () => {
    // Fixable (unquoted colon) plus an unfixable-by-default error (name differs from the folder).
    await put(
      'lib/notes/SKILL.md',
      '---\nname: note-taker\ndescription: Use when: notes arrive\n---\n# Body\n',
    );
    const before = await stat(join(tmp, 'lib/notes/SKILL.md'));
    const r = await run(['lib', '--fix']);
    expect(r.out).toContain(
      'fixed lib/notes/SKILL.md: Put the value in quotes (yaml/unquoted-colon)',
    );
    expect(r.out).not.toContain('yaml/unquoted-colon [');
    expect(r.out).toContain('error name/folder-mismatch');
    expect(r.code).toBe(1);
    expect(await readFile(join(tmp, 'lib/notes/SKILL.md'), 'utf8')).toBe(
      '---\nname: note-taker\ndescription: "Use when: notes arrive"\n---\n# Body\n',
    );
    expect((await stat(join(tmp, 'lib/notes/SKILL.md'))).ino).not.toBe(before.ino);
    expect((await readdir(join(tmp, 'lib/notes'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('exits 0 when the fixes leave no errors, and reports them in JSON', async () => {
    await put(
      'lib/notes/SKILL.md',
      '---\nname: notes\ndescription: Use when: notes arrive\n---\n# Body\n',
    );
    const r = await run(['lib/notes', '--fix', '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.summary.fixedFiles).toBe(1);
    expect(doc.fixes[0]).toMatchObject({
      file: 'lib/notes/SKILL.md',
      changed: true,
      applied: [{ ruleId: 'yaml/unquoted-colon' }],
    });
    expect(doc.skills[0].diagnostics).toEqual([]);
  });
});

describe('the real skillbench process', () => {
  beforeAll(() => {
    // Why: main/cli/skillbench.mjs runs out/main/cli.js and builds it only when missing; build it from this tree.
    const built = spawnSync(
      process.execPath,
      [join(repo, 'scripts/build.mjs'), '--node-only', '--quiet'],
      { cwd: repo, encoding: 'utf8' },
    );
    expect(built.status, built.stderr).toBe(0);
  }, 120_000);

  it('validates a library and exits 1 on errors, 0 on a clean skill', async () => {
    await smallLibrary();
    const bin = join(repo, 'main/cli/skillbench.mjs');
    const env = { ...process.env, SKILLBENCH_USER_DATA: join(tmp, 'data') };
    // Why a bound on every run: a process that never ends must fail the test, not stall it.
    const bad = spawnSync(process.execPath, [bin, 'validate', 'lib', '--format', 'json'], {
      cwd: tmp,
      encoding: 'utf8',
      env,
      timeout: 60_000,
    });
    expect(bad.status, bad.stderr).toBe(1);
    expect(JSON.parse(bad.stdout).summary).toMatchObject({ skills: 2, error: 1 });
    const good = spawnSync(process.execPath, [bin, 'validate', 'lib/clean-skill'], {
      cwd: tmp,
      encoding: 'utf8',
      env,
      timeout: 60_000,
    });
    expect(good.stdout).toBe('No problems found in 1 skill.\n');
    expect(good.status).toBe(0);
  });

  it('checks a large library on this thread and a helper worker with the report of one thread', async () => {
    // Enough skill folders for the command line to share them with its helper worker (the
    // in-process run below has no built worker, so it checks everything on one thread).
    for (let i = 0; i < 320; i++) {
      const name = `skill-${String(i).padStart(3, '0')}`;
      if (i % 7 === 3)
        await put(`big/${name}/SKILL.md`, `---\nname: ${name}\ndescription: Use when: x\n---\n`);
      else await put(`big/${name}/SKILL.md`, GOOD(i % 11 === 5 ? 'same-name' : name));
      if (i % 2 === 0) await put(`big/${name}/references/guide.md`, '# Guide\n');
    }
    const one = await run(['big', '--format', 'json', '--no-cache']);
    const bin = join(repo, 'main/cli/skillbench.mjs');
    const two = spawnSync(
      process.execPath,
      [bin, 'validate', 'big', '--format', 'json', '--no-cache'],
      {
        cwd: tmp,
        encoding: 'utf8',
        env: { ...process.env, SKILLBENCH_USER_DATA: join(tmp, 'data') },
        // Why a bound: a helper that never answers must fail this test, not hang it.
        timeout: 60_000,
      },
    );
    expect(two.stderr).toBe('');
    expect(two.status).toBe(one.code);
    expect(two.stdout).toBe(one.out);
    const report = JSON.parse(two.stdout) as { summary: { skills: number; error: number } };
    expect(report.summary.skills).toBe(320);
    expect(report.summary.error).toBeGreaterThan(0);
  });

  it("keeps a library's findings between runs and checks again only the skill folders that changed", async () => {
    await smallLibrary();
    await backdate(join(tmp, 'lib'), LAST_YEAR);
    const data = join(tmp, 'data');
    const validate = (...extra: string[]): ValidateRun => validateAsProcess(data, extra);
    const first = validate();
    expect(first.status).toBe(1);
    expect(await readdir(join(data, 'cache', 'listings'))).toHaveLength(1);
    expect(validate()).toEqual(first);

    // The error fixed in place with the same size and file time: a folder that looks unchanged
    // is not read again, so the kept finding stands; --no-cache checks everything.
    const skill = join(tmp, 'lib/broken-skill/SKILL.md');
    const text = await readFile(skill, 'utf8');
    const fixed = text.replace('Use when: notes', 'Use when, notes');
    expect(fixed.length).toBe(text.length);
    await writeFile(skill, fixed);
    await backdate(skill, LAST_YEAR);
    expect(validate()).toEqual(first);
    const fresh = validate('--no-cache');
    expect(fresh.status).toBe(0);

    // Edited later (a new file time): checked again, and the cache now holds the new findings.
    await backdate(skill, LAST_MONTH);
    expect(validate()).toEqual(fresh);
    await writeFile(skill, text);
    expect(validate()).toEqual(first);
  });

  it('checks again a folder edited within two seconds of the run before, in a new process', async () => {
    // Why this case: a fingerprint cannot tell an edit made in the same clock tick, so a folder
    // with a file that recent is always checked again, also by the next process.
    await smallLibrary();
    const data = join(tmp, 'data');
    const validate = (...extra: string[]): ValidateRun => validateAsProcess(data, extra);
    expect(validate().status).toBe(1);
    const skill = join(tmp, 'lib/broken-skill/SKILL.md');
    await writeFile(
      skill,
      (await readFile(skill, 'utf8')).replace('Use when: notes', 'Use when, notes'),
    );
    const again = validate();
    expect(again).toEqual(validate('--no-cache'));
    expect(again.status).toBe(0);
  });
});
