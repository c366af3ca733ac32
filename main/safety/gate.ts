/**
 * The gate every point of trust uses (docs/safety-review.md, "Points of trust"): a skill the
 * review calls "Don't trust" goes no further unless the user chose "Trust anyway" for exactly
 * this content, now or before. "Review before trusting" passes, with its findings shown.
 */
import { withAcceptance, VERDICT_HEADLINES } from '../../shared/safety';
import type { SafetyReviewResult, TrustRequest } from '../../shared/safety';
import { trustAnyway } from './service';

/** What the gate decided. */
export interface GateOutcome {
  allowed: boolean;
  reviewed: SafetyReviewResult;
  /** Why not, in plain words (when not allowed). */
  message?: string;
}

/**
 * The plain sentence for a skill the gate stops: the worst finding and how to go on. `planned`:
 * said before the person acts (an export's checks), so "will not be", not "was not".
 */
export function refusalMessage(
  reviewed: SafetyReviewResult,
  doing: string,
  planned = false,
): string {
  const worst = reviewed.report.findings.find((f) => !f.accepted);
  const where = worst
    ? ` ${worst.title} (${worst.file}${worst.line > 0 ? `, line ${worst.line}` : ''}).`
    : '';
  return `${reviewed.name} ${planned ? 'will not be' : 'was not'} ${doing}: the safety review says "${VERDICT_HEADLINES.danger}".${where} Read the findings, and choose "Trust anyway" only if you know why they are there.`;
}

/** Let `reviewed` through, or not; a `trust` request is recorded (tied to the content hash) and lets it through. */
export async function passGate(
  reviewed: SafetyReviewResult,
  dataDir: string,
  doing: string,
  trust?: TrustRequest,
  planned = false,
): Promise<GateOutcome> {
  if (reviewed.report.verdict !== 'danger') return { allowed: true, reviewed };
  if (trust && trust.reason.trim().length > 0) {
    const accepted = await trustAnyway(dataDir, reviewed, trust.reason, trust.days);
    return {
      allowed: true,
      reviewed: { ...reviewed, accepted, report: withAcceptance(reviewed.report, accepted) },
    };
  }
  return { allowed: false, reviewed, message: refusalMessage(reviewed, doing, planned) };
}
