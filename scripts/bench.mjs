// `npm run bench`: run every benchmark in bench/ one after another. Each prints its own table
// with the peer's numbers from the same run; nothing is asserted (docs/conventions.md §10).
// `npm run bench -- validate server` runs only those.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const all = ['speed', 'validate', 'growth', 'server', 'soak', 'pack', 'inspect', 'ui'];
const chosen = process.argv.slice(2).filter((a) => all.includes(a));
let failed = 0;
for (const name of chosen.length > 0 ? chosen : all) {
  const entry = join(root, 'bench', name, 'run.mjs');
  if (!existsSync(entry)) continue;
  console.log(`\n### bench/${name}\n`);
  const result = spawnSync(process.execPath, [entry], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
