/**
 * Test support (Node). The probes scripts/agent-listing.mjs writes for an agent (scripts/probes/AGENT.json, then the
 * frontmatter corpus, folder names made unique as the script makes them) and what the real agent
 * loaded of each (scripts/probes/AGENT.observed.json, written with --record). For the readers'
 * tests: each checks Skillbench's reading of every probe against what the agent did.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One probe: its folder name and its SKILL.md. */
export interface Probe {
  folder: string;
  text: string;
}

/** What the agent loaded of one probe: the name and description it showed, or null. */
export interface Observed {
  folder: string;
  listed: { name: string; description?: string } | null;
}

const root = join(__dirname, '..', '..');
const json = (path: string): unknown => JSON.parse(readFileSync(join(root, path), 'utf8'));

/** Every probe of `agent`, by folder name. */
export function agentProbes(agent: string): Map<string, Probe> {
  const file = json(`scripts/probes/${agent}.json`) as { groups: { skills: Probe[] }[] };
  const corpus = json('shared/validation/fixtures/frontmatter-cases.json') as {
    cases: { id: string; folder: string; content: string }[];
  };
  const all = new Map<string, Probe>();
  for (const group of file.groups) for (const p of group.skills) all.set(p.folder, p);
  const used = new Set<string>();
  for (const c of corpus.cases) {
    const folder = used.has(c.folder) ? `${c.folder}-${c.id}` : c.folder;
    used.add(folder);
    all.set(folder, { folder, text: c.content });
  }
  return all;
}

/** What `agent` loaded of each probe, as recorded. */
export function agentObserved(agent: string): Observed[] {
  return (json(`scripts/probes/${agent}.observed.json`) as { skills: Observed[] }).skills;
}
