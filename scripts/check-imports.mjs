// `npm run deps`: the import boundaries of .dependency-cruiser.cjs (dependency-cruiser resolves
// every import and applies the rules), plus one check it does not make: cycles between a
// folder and its own subfolders (dependency-cruiser's folder scope treats a subfolder as part of
// its parent, so `renderer/src` ⇄ `renderer/src/features` passes there). Type-only imports
// are left out (tsPreCompilationDeps: false). Exit 1 on any violation.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = spawnSync(
  join(root, 'node_modules', '.bin', 'depcruise'),
  [
    'main',
    'shared',
    'renderer',
    'preload',
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'json',
  ],
  { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
if (run.status !== 0 && !run.stdout) {
  process.stderr.write(run.stderr);
  process.exit(2);
}
const result = JSON.parse(run.stdout);
const problems = [];
for (const v of result.summary.violations) {
  const via = v.cycle?.length
    ? ` (${[v.from, ...v.cycle.map((c) => c.name ?? c)].join(' → ')})`
    : '';
  problems.push(`${v.rule.name}: ${v.from} → ${v.to}${via}`);
}

// Folder graph: each file stands in its own folder only (a subfolder is a folder of its own).
const edges = new Map();
for (const mod of result.modules) {
  const from = dirname(mod.source);
  for (const dep of mod.dependencies) {
    if (!/^(main|shared|renderer|preload)\//.test(dep.resolved) || dep.coreModule) continue;
    const to = dirname(dep.resolved);
    if (to === from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(to);
  }
}
// Tarjan's strongly connected components: every component of more than one folder is a cycle.
let index = 0;
const order = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function visit(v) {
  order.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!order.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), order.get(w)));
  }
  if (low.get(v) === order.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const v of [...edges.keys()].sort()) if (!order.has(v)) visit(v);
for (const component of components) {
  const inside = new Set(component);
  const links = [];
  for (const mod of result.modules) {
    const from = dirname(mod.source);
    if (!inside.has(from)) continue;
    for (const dep of mod.dependencies) {
      const to = dirname(dep.resolved);
      if (to !== from && inside.has(to)) links.push(`    ${mod.source} → ${dep.resolved}`);
    }
  }
  problems.push(`folder-cycle: ${component.join(' ⇄ ')}\n${links.slice(0, 12).join('\n')}`);
}

const modules = result.summary.totalCruised;
if (problems.length > 0) {
  console.error(`Import boundaries: ${problems.length} problem(s) in ${modules} modules:\n`);
  for (const p of problems) console.error(`- ${p}`);
  process.exit(1);
}
console.log(
  `Import boundaries: no cycles between files or folders, layers kept (${modules} modules).`,
);
