// The MCP conformance suite's SEP-2640 *client* scenarios with `skillbench inspect` as the client:
// the suite starts a scripted server, runs our command with the server URL
// appended, and checks what we read. Needs the npm registry (npx downloads Node 22 and the suite).
import { spawn } from 'node:child_process';
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
        `conformance client --command '${clientCommand}' --scenario ${scenario}`,
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
      expect(r.out).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      expect(r.code, r.out).toBe(0);
    }, 240_000);
  }
});
