/**
 * The verdict of one inspection: may the user trust what was listed and read? Only a complete
 * listing, read over a clean channel, whose every skill verified, is a yes
 * (docs/skills-over-mcp.md §5 "The verdict"). Anything that failed — and anything that could
 * not be checked (a timeout, a bound, a partial listing, a legacy route) — is a no, with a plain
 * sentence per reason and the technical detail apart. Pure: a function of what was found.
 */
import type { DiscoveryResult, ReportCard, SkillVerification } from './types';

/** Output of a server that was not MCP messages (a stdio server writing other text on stdout). */
export interface UnreadableOutput {
  count: number;
  /** The first few parse errors, as the transport reported them (they quote the text). */
  samples: string[];
}

/** One reason the inspection is not a clean yes. */
export interface VerdictReason {
  /** A sentence for anyone. */
  plain: string;
  /** Technical detail: URIs, server messages, numbers. */
  detail: string[];
}

/** The verdict of an inspection. */
export interface InspectionVerdict {
  /** True only when nothing failed and nothing was left unchecked. */
  ok: boolean;
  /** One sentence: the answer. */
  headline: string;
  reasons: VerdictReason[];
}

/** Detail lines kept per reason (the full record is in the JSON output and the app). */
const MAX_DETAIL = 10;

function bounded(lines: string[]): string[] {
  return lines.length > MAX_DETAIL
    ? [...lines.slice(0, MAX_DETAIL), `… and ${lines.length - MAX_DETAIL} more.`]
    : lines;
}

function skills(n: number): string {
  return n === 1 ? '1 skill' : `${n} skills`;
}

/**
 * Decide the verdict. `verifications` undefined means only the listing was asked for: then the
 * listing alone is judged, and nothing is claimed about the files. A `report` card that was
 * run counts too: each failed check is a reason (it read the files, so its findings are real).
 */
export function inspectionVerdict(input: {
  discovery: DiscoveryResult;
  verifications?: SkillVerification[];
  unreadable?: UnreadableOutput;
  report?: ReportCard;
}): InspectionVerdict {
  const { discovery, verifications, unreadable, report } = input;
  const reasons: VerdictReason[] = [];
  if (unreadable && unreadable.count > 0)
    reasons.push({
      plain: `The server wrote ${unreadable.count === 1 ? 'a line' : `${unreadable.count} lines`} on its output that ${unreadable.count === 1 ? 'is' : 'are'} not MCP messages, so its answers cannot be trusted.`,
      detail: bounded(unreadable.samples),
    });
  const failedSteps = discovery.steps.filter((s) => s.outcome === 'failed');
  if (failedSteps.length > 0)
    reasons.push({
      plain: 'Listing the skills failed, so skills may be missing.',
      detail: failedSteps.map((s) => `${s.route}: ${s.detail}`),
    });
  // The discovery's problems name the cause: the page bound, a repeated cursor, entries left out.
  if (discovery.partial)
    reasons.push({
      plain: "The server's list of skills could not be read to the end, so skills may be missing.",
      detail: bounded(discovery.problems),
    });
  else if (discovery.problems.length > 0)
    reasons.push({
      plain: 'Some entries of the listing could not be used.',
      detail: bounded(discovery.problems),
    });
  if (verifications === undefined) {
    // Listing only: an entry at fault (a listed URI outside its skill, a name that is not its
    // URI's last segment) is already visible without reading anything.
    const faulty = discovery.skills.filter((s) => s.problems.length > 0);
    if (faulty.length > 0)
      reasons.push({
        plain:
          faulty.length === 1
            ? '1 skill in the listing breaks the rules, so it would fail verification.'
            : `${faulty.length} skills in the listing break the rules, so they would fail verification.`,
        detail: bounded(faulty.flatMap((s) => s.problems.map((p) => `${s.uri}: ${p}`))),
      });
  } else {
    const failed = verifications.filter((v) => v.verdict === 'failed');
    const unchecked = verifications.filter((v) => v.verdict === 'unverifiable');
    if (failed.length > 0)
      reasons.push({
        plain: `${skills(failed.length)} failed verification: the server listed something other than it serves, or its listing breaks the rules.`,
        detail: bounded(failed.map((v) => v.uri)),
      });
    if (unchecked.length > 0)
      reasons.push({
        plain: `${skills(unchecked.length)} could not be verified: a read timed out or failed, a limit was reached, or the server gave nothing to check against.`,
        detail: bounded(unchecked.map((v) => v.uri)),
      });
  }
  const failedChecks = report?.checks.filter((c) => c.status === 'fail') ?? [];
  if (failedChecks.length > 0 || report?.verdict === 'fail')
    reasons.push({
      plain:
        failedChecks.length === 1
          ? 'The report card failed 1 check.'
          : `The report card failed ${failedChecks.length} checks.`,
      detail: bounded(failedChecks.map((c) => `${c.title}: ${c.summary}`)),
    });
  const ok = reasons.length === 0;
  const headline = !ok
    ? verifications !== undefined
      ? 'Not verified.'
      : failedChecks.length > 0
        ? 'The server fails the report card.'
        : 'The listing is not complete or not clean.'
    : verifications === undefined
      ? report
        ? 'The whole listing was read and the report card passes.'
        : 'The whole listing was read. No file was read or verified (add --verify for that).'
      : verifications.length === 0
        ? 'The server lists no skills, so there was nothing to verify.'
        : 'Verified: every listed skill and file matches what the server listed.';
  return { ok, headline, reasons };
}
