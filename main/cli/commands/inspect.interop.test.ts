// The MCP conformance suite's SEP-2640 *client* scenarios with `skillbench inspect` as the client:
// the suite starts a scripted server, runs our command with the server URL
// appended, and checks what we read. Its server speaks both revisions; we negotiate 2026-07-28. Needs the npm registry (npx downloads Node 22 and the suite).
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli, tempDir } from '../../testing/skill-library';

const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';

type Dir = Awaited<ReturnType<typeof tempDir>>;

function runScenario(
  scenario: string,
  clientCommand: string,
  cwd: string,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      [
        '-y',
        '-p',
        'node@22',
        '-p',
        SUITE,
        '-c',
        `conformance client --command '${clientCommand}' --scenario ${scenario} -o out-${scenario}`,
      ],
      {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, npm_config_update_notifier: 'false' },
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe('MCP conformance client scenarios (SEP-2640) with skillbench inspect as the client', () => {
  let build: Dir;
  let cli: string;
  beforeAll(async () => {
    build = await tempDir('skillbench-conformance-');
    cli = await bundleCli(build.path);
  }, 120_000);
  afterAll(async () => {
    await build?.remove();
  });

  // Without --verify the inspector only lists: nothing may be read ahead of need.
  const cases: [string, string][] = [
    ['sep-2640-client-no-prefetch', 'inspect'],
    ['sep-2640-client-verify-digest', 'inspect --verify'],
    ['sep-2640-client-verify-size', 'inspect --verify'],
    ['sep-2640-client-verify-frontmatter', 'inspect --verify'],
  ];
  for (const [scenario, args] of cases) {
    it(`${scenario} passes`, async () => {
      const r = await runScenario(scenario, `${process.execPath} ${cli} ${args}`, build.path);
      expect(r.out, r.out).toMatch(/OVERALL: PASSED/);
      // The suite's server offers 2026-07-28 (server/discover) beside initialize: we took the newer.
      const out = join(build.path, `out-${scenario}`);
      const [run] = await readdir(out);
      expect(await readFile(join(out, run ?? '', 'stdout.txt'), 'utf8')).toContain(
        'protocol 2026-07-28',
      );
      expect(r.out).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      expect(r.code, r.out).toBe(0);
    }, 240_000);
  }
});
