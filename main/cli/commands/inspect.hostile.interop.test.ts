// The official MCP Inspector CLI as a second opinion on our hostile test servers
// (docs/skills-over-mcp.md §7): where it refuses a server, `skillbench inspect --verify` must
// too, and both accept the honest one, so our own verdicts do not rest only on our own reading
// of the rules. Needs the npm registry (npx downloads Node 22 and the tool).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture } from '../../testing/inspector-servers';
import { HOSTILE_SCENARIOS } from '../../testing/hostile-servers';
import type { HostileName } from '../../testing/hostile-servers';
import { NPX_TIMEOUT_MS, runWithNode22 } from '../../testing/npx-tools';
import { bundleCli, runCliProcess, tempDir } from '../../testing/skill-library';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

type Dir = Awaited<ReturnType<typeof tempDir>>;

let build: Dir;
let cli: string;
beforeAll(async () => {
  build = await tempDir('skillbench-peer-');
  cli = await bundleCli(build.path);
}, 120_000);
afterAll(async () => {
  await build?.remove();
});

describe('the official MCP Inspector CLI agrees with skillbench inspect --verify on hostile servers', () => {
  // The cases where the peer refuses the server too. It lets through (exit 0) a listed `..`,
  // `%2e%2e` or query URI and, not walking folders, an unlisted file; those are ours alone
  // (inspect.hostile.test.ts). Its own exit codes differ from ours (7 failed, 8 incomplete,
  // 4 unreachable, 1 error); what must agree is zero or not zero.
  const cases: [HostileName, 0 | 1][] = [
    ['honest', 0],
    ['wrong-digest', 1],
    ['wrong-size', 1],
    ['frontmatter-mismatch', 1],
    ['name-mismatch', 1],
    ['other-skill-file', 1],
    ['file-uri', 1],
    ['endless-cursor', 1],
    ['repeated-cursor', 1],
    ['oversize-listed-file', 1],
    ['closes-mid-listing', 1],
  ];
  for (const [name, ours] of cases) {
    it(
      `${name}: both exit ${ours === 0 ? '0' : 'non-zero'}`,
      async () => {
        const server = await startFixture(HOSTILE_SCENARIOS[name]().spec);
        try {
          const peer = await runWithNode22(
            [INSPECTOR],
            `mcp-inspector --cli ${server.url} --transport http --method skills/list --verify`,
            { cwd: build.path },
          );
          // Why 64 pages: the peer's own bound, so both stop an endless listing at the same place.
          const own = await runCliProcess(
            cli,
            ['inspect', '--verify', '--max-pages', '64', server.url],
            { cwd: build.path },
          );
          expect(own.code, own.stdout + own.stderr).toBe(ours);
          if (ours === 0) expect(peer.code, peer.out).toBe(0);
          else expect(peer.code, peer.out).toBeGreaterThan(0);
        } finally {
          await server.close();
        }
      },
      NPX_TIMEOUT_MS,
    );
  }
});
