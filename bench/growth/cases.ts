// The inputs of bench/growth: each case builds one SKILL.md and validates it the way the app
// does (validateSkill, default profile), on the calling thread. Shared by the bench's child
// processes and its worker thread, so both run the very same function.
import { performance } from 'node:perf_hooks';
import { parseSkill } from '../../shared/skill';
import { validateSkill } from '../../shared/validation';
import type { ValidationLimits } from '../../shared/validation';

/** Bounds lifted for the "limits lifted" column: the core's own growth, past where the app stops. */
export const LIFTED: Partial<ValidationLimits> = { frontmatterBytes: 1e9, nodes: 1e9 };

const fm = (yaml: string, body = '# Body\n') => `---\n${yaml}---\n${body}`;

function keys(n: number): string {
  const lines: string[] = ['name: demo', 'description: A demo skill.'];
  for (let i = 0; i < n; i++) lines.push(`k${i}: v${i}`);
  return fm(`${lines.join('\n')}\n`);
}

function blockDepth(n: number): string {
  const lines: string[] = ['name: demo', 'description: A demo skill.', 'metadata:'];
  for (let i = 1; i < n; i++) lines.push(`${'  '.repeat(i)}k${i}:`);
  return fm(`${lines.join('\n')} leaf\n`);
}

function flowDepth(n: number): string {
  return fm(
    `name: demo\ndescription: A demo skill.\nmetadata: ${'['.repeat(n)}x${']'.repeat(n)}\n`,
  );
}

function flowKey(n: number): string {
  let key = 'a';
  for (let i = 0; i < n; i++) key = `[${key}]`;
  return fm(`name: demo\ndescription: A demo skill.\n${key}: v\n`);
}

const LINK = 'See [the guide](references/missing-guide.md) for details.\n';

function body(bytes: number): string {
  return fm(
    'name: demo\ndescription: A demo skill.\n',
    LINK.repeat(Math.ceil(bytes / LINK.length)),
  );
}

/** One measured case: an id, its group, a label, and how to build its text. */
export interface GrowthCase {
  id: string;
  group: 'keys' | 'depth' | 'body' | 'flow key';
  label: string;
  text: () => string;
  /** Also time with {@link LIFTED} bounds. */
  lifted?: boolean;
  /** Also time main/validate's link check on the parsed file (what the library and CLI add). */
  links?: boolean;
  /** Also run in a worker thread. */
  worker?: boolean;
}

const KB = 1024;
const MB = 1024 * 1024;

export const CASES: readonly GrowthCase[] = [
  ...[1_000, 2_000, 4_000, 8_000, 16_000, 100_000].map((n): GrowthCase => ({
    id: `keys-${n}`,
    group: 'keys',
    label: `${n.toLocaleString('en-US')} keys`,
    text: () => keys(n),
    lifted: true,
  })),
  ...[10, 100, 1_000, 10_000].map((n): GrowthCase => ({
    id: `block-depth-${n}`,
    group: 'depth',
    label: `block mappings ${n.toLocaleString('en-US')} deep`,
    text: () => blockDepth(n),
  })),
  ...[10, 100, 1_000, 10_000].map((n): GrowthCase => ({
    id: `flow-depth-${n}`,
    group: 'depth',
    label: `flow lists ${n.toLocaleString('en-US')} deep`,
    text: () => flowDepth(n),
  })),
  ...[
    [1 * KB, '1 KB'],
    [1 * MB, '1 MB'],
    [10 * MB, '10 MB'],
    [50 * MB, '50 MB'],
  ].map(([bytes, label]): GrowthCase => ({
    id: `body-${label}`,
    group: 'body',
    label: `${label} body, a link per line`,
    text: () => body(Number(bytes)),
    links: true,
  })),
  ...[90, 2_400].map((n): GrowthCase => ({
    id: `flow-key-${n}`,
    group: 'flow key',
    label: `a flow list ${n.toLocaleString('en-US')} deep as a key (${flowKey(n).length.toLocaleString('en-US')} bytes)`,
    text: () => flowKey(n),
    worker: true,
  })),
];

/** What one run of a case measured. */
export interface Measured {
  /** parseSkill + validateSkill, ms. */
  ms: number;
  /** The core again with a file view, so with its link check (an empty folder), ms (when asked). */
  linksMs?: number;
  findings: number;
  /** The bounds the file went past (shared/skill/limits.ts), e.g. `nodes`; empty when within all. */
  over: string[];
}

/** Validate `text` `runs` times after a warm-up on a small skill; the run with the median time. */
export function measure(
  text: string,
  runs: number,
  limits?: Partial<ValidationLimits>,
  links = false,
): Measured {
  // Why the link check apart: it runs only with a file view (the editor, the library, an
  // export), and the core's cost on the text alone is what the bounds promise.
  const once = (t: string): Measured => {
    const t0 = performance.now();
    const parsed = parseSkill(t, { limits });
    const r = validateSkill(parsed, { limits });
    const ms = performance.now() - t0;
    const over = parsed.overLimits.map((o) => o.limit as string);
    if (
      r.diagnostics.some((d) => d.ruleId === 'file/too-complex' && d.message.includes('problems'))
    )
      over.push('findings');
    const out: Measured = { ms, findings: r.diagnostics.length, over };
    if (links) {
      const t1 = performance.now();
      const withView = validateSkill(parsed, {
        limits,
        fileView: { folderName: 'demo', fileName: 'SKILL.md', entries: [] },
      });
      out.linksMs = performance.now() - t1;
      out.findings = withView.diagnostics.length;
    }
    return out;
  };
  // Why this much warm-up: each case runs in a fresh process, and a cold JIT doubles small times.
  for (let i = 0; i < 8; i++) once(keys(1_000));
  const all = Array.from({ length: runs }, () => once(text));
  const sorted = [...all].sort((a, b) => a.ms - b.ms);
  return sorted[Math.floor(sorted.length / 2)] ?? once(text);
}
