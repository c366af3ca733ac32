// Helpers the benchmarks share: a deterministic library generator and simple statistics.

const WORDS = 'skill agent notes meeting action item review draft summary export import archive folder file value check rule profile target limit'.split(' ');

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
  const sections = Array.from({ length: parts }, (_, k) => `## Step ${k + 1}\n\n${prose(640, i * 7 + k)}\n`).join('\n');
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
