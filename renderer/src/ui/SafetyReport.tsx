import { useId, useState, type ReactNode } from 'react';
import type {
  SafetyBadge as SafetyBadgeData,
  SafetyFinding,
  SafetyReviewResult,
  SafetyVerdict,
} from '../../../shared/safety/types';

/** The verdict in a word or two, for badges (the full headline says "No known risks found"). */
const SHORT: Record<SafetyVerdict, string> = {
  clear: 'No known risks',
  review: 'Review first',
  danger: "Don't trust",
};

/**
 * A list row's badge (library, agents): nothing while the skill shows no known risk and was not
 * trusted by the user; `where` says where the findings are read.
 */
export function SafetyRowBadge({ badge, where }: { badge?: SafetyBadgeData; where: string }) {
  if (!badge || (badge.verdict === 'clear' && !badge.accepted)) return null;
  const findings = `${badge.findings} finding${badge.findings === 1 ? '' : 's'}`;
  const title = badge.accepted
    ? `You chose to trust this version (${findings}).`
    : `Safety review: ${badge.headline} (${findings}). ${where}`;
  return <SafetyBadge verdict={badge.verdict} accepted={badge.accepted} title={title} />;
}

const SEVERITY: Record<SafetyFinding['severity'], string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Note',
};

/** A small badge with the verdict; "Trusted by you" when the user accepted its findings. */
export function SafetyBadge({
  verdict,
  accepted = false,
  title,
}: {
  verdict: SafetyVerdict;
  accepted?: boolean;
  title?: string;
}) {
  if (accepted)
    return (
      <span className="safety-badge accepted" title={title}>
        Trusted by you
      </span>
    );
  return (
    <span className={`safety-badge ${verdict}`} title={title}>
      {verdict === 'danger' ? '✕ ' : verdict === 'review' ? '! ' : '✓ '}
      {SHORT[verdict]}
    </span>
  );
}

/** One finding: the headline, where, the line as an agent reads it, hidden text, why and what to do. */
function FindingItem({
  finding,
  onOpen,
}: {
  finding: SafetyFinding;
  onOpen?: (file: string, line: number) => void;
}) {
  const where = finding.line > 0 ? `${finding.file}, line ${finding.line}` : finding.file;
  return (
    <li className={`safety-finding ${finding.severity}`}>
      <p className="safety-finding-title">
        <span className="safety-severity">{SEVERITY[finding.severity]}</span> {finding.title}
        {finding.accepted ? <span className="muted"> (accepted)</span> : null}
      </p>
      <p className="safety-where">
        {onOpen && !finding.file.endsWith('/') ? (
          <button
            type="button"
            className="link-button"
            onClick={() => onOpen(finding.file, finding.line)}
          >
            {where}
          </button>
        ) : (
          <span>{where}</span>
        )}
      </p>
      {finding.excerpt ? (
        // Why text in <code>: text from a skill is shown inert, never as HTML or Markdown.
        <pre className="safety-excerpt" aria-label="The line">
          <code>{finding.excerpt}</code>
        </pre>
      ) : null}
      {finding.hidden !== undefined ? (
        <p className="safety-hidden">
          Hidden text: <code>{finding.hidden}</code>
        </p>
      ) : null}
      <p>
        <strong>Why it matters:</strong> {finding.why}
      </p>
      <p>
        <strong>What to do:</strong> {finding.action}
      </p>
      <details>
        <summary>For experts</summary>
        <p>
          Rule <code>{finding.rule}</code>: <code>{finding.detail}</code>
        </p>
      </details>
    </li>
  );
}

/**
 * The safety review of one skill for people: the verdict, what the skill can do, every finding
 * with where it is and why it matters, what was not examined, and room for actions ("Trust
 * anyway…"). Pure: the caller brings the review and the handlers.
 */
export function SafetyReportView({
  reviewed,
  onOpenFinding,
  actions,
  heading = 'Safety review',
  level = 3,
  collapsible = false,
}: {
  reviewed: SafetyReviewResult;
  onOpenFinding?: (file: string, line: number) => void;
  actions?: ReactNode;
  heading?: string;
  /** The heading's level where the report sits (h3 by default). */
  level?: 3 | 4 | 5;
  /**
   * The heading line (with the verdict) opens and closes the rest, as the Hosts strip does:
   * closed, the verdict still shows.
   */
  collapsible?: boolean;
}) {
  const { report, accepted } = reviewed;
  const Heading = `h${level}` as const;
  const acceptedCount = report.findings.filter((f) => f.accepted && f.severity !== 'low').length;
  const headingId = useId();
  const [showNotes, setShowNotes] = useState(false);
  const main = report.findings.filter((f) => f.severity !== 'low');
  const notes = report.findings.filter((f) => f.severity === 'low');
  const title = (
    <Heading id={headingId}>
      {heading}:{' '}
      <SafetyBadge
        verdict={report.verdict}
        accepted={accepted !== undefined}
        title={report.headline}
      />
      {/* Why not the headline beside the badge: it said the verdict twice ("No known risks No known risks found"). */}
      {accepted ? (
        <span>
          {' '}
          You accepted {acceptedCount} finding{acceptedCount === 1 ? '' : 's'}
        </span>
      ) : null}
    </Heading>
  );
  const rest = (
    <>
      <p className="safety-summary">{report.summary}</p>
      {accepted ? (
        <p className="safety-accepted" role="note">
          You chose to trust this version until {accepted.expires.slice(0, 10)}: “{accepted.reason}
          ”. Skillbench asks again if the skill changes.
        </p>
      ) : null}
      {main.length > 0 ? (
        <ol className="safety-findings" aria-label="Findings">
          {main.map((f, i) => (
            <FindingItem
              key={`${f.rule}-${f.file}-${f.line}-${i}`}
              finding={f}
              onOpen={onOpenFinding}
            />
          ))}
        </ol>
      ) : report.verdict === 'clear' ? (
        <p className="help">
          Skillbench found none of the risks it knows about. That is not a promise that the skill is
          safe: read what it asks the agent to do.
        </p>
      ) : null}
      {notes.length > 0 ? (
        <>
          <button
            type="button"
            className="link-button"
            aria-expanded={showNotes}
            onClick={() => setShowNotes(!showNotes)}
          >
            {showNotes ? 'Hide' : 'Show'} {notes.length} note{notes.length === 1 ? '' : 's'} that do
            not change the verdict
          </button>
          {showNotes ? (
            <ol className="safety-findings" aria-label="Notes">
              {notes.map((f, i) => (
                <FindingItem
                  key={`${f.rule}-${f.file}-${f.line}-${i}`}
                  finding={f}
                  onOpen={onOpenFinding}
                />
              ))}
            </ol>
          ) : null}
        </>
      ) : null}
      {report.notExamined.length > 0 ? (
        <div className="safety-not-examined">
          <p>
            <strong>Not examined</strong> (look at these yourself):
          </p>
          <ul>
            {report.notExamined.map((n) => (
              <li key={n.path}>
                <code>{n.path}</code>: {n.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {actions ? <div className="row">{actions}</div> : null}
    </>
  );
  return (
    <section className={`safety-report ${report.verdict}`} aria-labelledby={headingId}>
      {collapsible ? (
        <details open>
          <summary>{title}</summary>
          {rest}
        </details>
      ) : (
        <>
          {title}
          {rest}
        </>
      )}
    </section>
  );
}
