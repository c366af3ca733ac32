// Helpers the benchmarks share: a deterministic library generator, simple statistics, and the
// verified read of a served library.

import { createHash } from 'node:crypto';

const WORDS =
  'skill agent notes meeting action item review draft summary export import archive folder file value check rule profile target limit'.split(
    ' ',
  );

/** Deterministic prose of about `chars` characters (a tiny LCG, so every run writes the same library). */
export function prose(chars: number, seed: number): string {
  let s = seed >>> 0;
  const out: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const w = WORDS[s % WORDS.length] ?? 'skill';
    out.push(i % 14 === 13 ? `${w}.\n` : w);
    n += w.length + 1;
  }
  return out.join(' ').slice(0, chars);
}

/** A ~3 KB SKILL.md (at the default body size) that links the three supporting files every generated skill has. */
export function skillText(name: string, i: number, bodyChars = 2560): string {
  const head = [
    '---',
    `name: ${name}`,
    `description: Turns ${WORDS[i % WORDS.length]} notes into a checked ${WORDS[(i + 3) % WORDS.length]} summary. Use when the user pastes raw notes and asks for a tidy result.`,
    'license: MIT',
    'metadata:',
    '  author: bench',
    `  version: "1.${i % 10}.0"`,
    '---',
    `# ${name}`,
    '',
    'Read [the guide](references/guide.md) first, run [the script](scripts/run.py), and fill [the template](assets/template.txt).',
    '',
  ].join('\n');
  const parts = Math.max(1, Math.round(bodyChars / 640));
  const sections = Array.from(
    { length: parts },
    (_, k) => `## Step ${k + 1}\n\n${prose(640, i * 7 + k)}\n`,
  ).join('\n');
  return `${head}${sections}`;
}

/** The middle value (upper median for even counts). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** The p-th percentile, nearest rank. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
}

/** Wall and CPU time in ms of one call. CPU is the whole process's (every thread, user + system). */
export async function timeOnce(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

/**
 * Ours and a peer in turns: one warm-up each, then `runs` pairs, each one run of ours then one
 * of the peer. Why in turns: the machine's load drifts over seconds (other builds and tests share
 * its cores), and timing all of one side's runs before the other's lets that drift into the
 * ratio. Returns the medians and one ratio per pair (ours ÷ peer in speed, i.e. peer wall ÷ ours).
 */
export async function timePairs(
  ours: () => Promise<unknown>,
  peer: () => Promise<unknown>,
  runs: number,
): Promise<{
  ours: { wall: number; cpu: number };
  peer: { wall: number; cpu: number };
  ratios: number[];
}> {
  await ours();
  await peer();
  const a: { wall: number; cpu: number }[] = [];
  const b: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < runs; r++) {
    a.push(await timeOnce(ours));
    b.push(await timeOnce(peer));
  }
  const summary = (xs: { wall: number; cpu: number }[]): { wall: number; cpu: number } => ({
    wall: median(xs.map((x) => x.wall)),
    cpu: median(xs.map((x) => x.cpu)),
  });
  return {
    ours: summary(a),
    peer: summary(b),
    ratios: a.map((x, i) => (b[i]?.wall ?? NaN) / x.wall),
  };
}

/** An MCP client that reads resources (the SDK's `Client`). */
interface ResourceReader {
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
}

/**
 * Read every listed file, `inFlight` requests at a time, each checked against the size and
 * sha256 the listing gave: what an MCP client that trusts nothing unverified does.
 */
export async function readVerified(
  client: ResourceReader,
  files: readonly { uri: string; digest: string; size: number }[],
  inFlight: number,
): Promise<{ bytes: number; failures: number }> {
  let next = 0;
  let bytes = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < files.length) {
        const r = files[next++];
        const res = await client.readResource({ uri: r.uri });
        const c = res.contents[0] as { text?: string; blob?: string };
        const buf =
          typeof c.text === 'string'
            ? Buffer.from(c.text, 'utf8')
            : Buffer.from(c.blob ?? '', 'base64');
        const digest = `sha256:${createHash('sha256').update(buf).digest('hex')}`;
        if (digest !== r.digest || buf.length !== r.size) failures++;
        bytes += buf.length;
      }
    }),
  );
  return { bytes, failures };
}
