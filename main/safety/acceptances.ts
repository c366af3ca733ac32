/**
 * "Trust anyway": the user's acceptance of a skill's findings, with a reason and an expiry, kept
 * in the user-data folder (main/platform/user-data.ts) and keyed by the skill's content hash, so
 * any change to the skill asks again (docs/safety-review.md, "Trust anyway").
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SafetyAcceptance } from '../../shared/safety';
import { writeFileAtomic } from '../platform/atomic-write';

/** File name of the acceptances inside the user-data folder. */
export const ACCEPTANCES_FILE = 'safety-acceptances.json';

/** One recorded acceptance. */
export interface AcceptanceRecord extends SafetyAcceptance {
  /** The content hash it is tied to. */
  hash: string;
  /** The skill's name and folder when accepted, for people reading the file. */
  name: string;
  path: string;
  /** How many findings there were, and the worst verdict, when accepted. */
  findings: number;
  verdict: string;
}

/** Every acceptance recorded (an unreadable file counts as none). */
export async function readAcceptances(dataDir: string): Promise<AcceptanceRecord[]> {
  try {
    const parsed = JSON.parse(await readFile(join(dataDir, ACCEPTANCES_FILE), 'utf8')) as {
      records?: unknown;
    };
    return Array.isArray(parsed.records)
      ? (parsed.records as AcceptanceRecord[]).filter(
          (r) => typeof r?.hash === 'string' && typeof r.expires === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

/** The acceptance that holds for `hash` now (the latest, unexpired), or undefined. */
export function acceptanceFor(
  records: readonly AcceptanceRecord[],
  hash: string,
  now = new Date(),
): AcceptanceRecord | undefined {
  let best: AcceptanceRecord | undefined;
  for (const r of records) {
    if (r.hash !== hash || !(Date.parse(r.expires) > now.getTime())) continue;
    if (!best || r.acceptedAt > best.acceptedAt) best = r;
  }
  return best;
}

/** Record an acceptance (expired records are dropped on the way). */
export async function recordAcceptance(dataDir: string, record: AcceptanceRecord): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const now = Date.now();
  const kept = (await readAcceptances(dataDir)).filter((r) => Date.parse(r.expires) > now);
  kept.push(record);
  await writeFileAtomic(
    join(dataDir, ACCEPTANCES_FILE),
    `${JSON.stringify({ version: 1, records: kept }, null, 2)}\n`,
  );
}

/** Remove the acceptances of a hash ("stop trusting"). */
export async function revokeAcceptance(dataDir: string, hash: string): Promise<void> {
  const kept = (await readAcceptances(dataDir)).filter((r) => r.hash !== hash);
  await mkdir(dataDir, { recursive: true });
  await writeFileAtomic(
    join(dataDir, ACCEPTANCES_FILE),
    `${JSON.stringify({ version: 1, records: kept }, null, 2)}\n`,
  );
}
