import { useEffect, useId, useRef, useState } from 'react';
import type { SafetyReviewResult } from '../../../shared/safety/types';

/** What the dialog says about the skill: its name, the verdict's headline and how many findings. */
export interface TrustSubject {
  name: string;
  headline: string;
  findings: number;
}

/** The subject of a full review: findings that change the verdict (notes do not). */
export function trustSubject(reviewed: SafetyReviewResult): TrustSubject {
  return {
    name: reviewed.name,
    headline: reviewed.report.headline,
    findings: reviewed.report.findings.filter((f) => f.severity !== 'low').length,
  };
}

/** How long "Trust anyway" may hold. */
const DURATIONS: readonly { days: number; label: string }[] = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: 'One year' },
];

/**
 * "Trust anyway": the user's reason and how long it holds, for exactly this version of the
 * skill (its content hash). The dialog says what that means before anything is recorded.
 */
export function TrustDialog({
  reviewed,
  doing,
  onConfirm,
  onCancel,
}: {
  reviewed: SafetyReviewResult | TrustSubject;
  /** What happens next, in a few words: "save it", "import it", "install it". */
  doing: string;
  onConfirm: (reason: string, days: number) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [days, setDays] = useState(30);
  const ids = { title: useId(), reason: useId(), days: useId(), help: useId() };
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const subject = 'report' in reviewed ? trustSubject(reviewed) : reviewed;
  const { findings } = subject;
  const ok = reason.trim().length >= 3;
  return (
    <dialog
      ref={dialog}
      className="trust-dialog"
      aria-labelledby={ids.title}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={ids.title}>Trust {subject.name} anyway?</h2>
      <p>
        The safety review says <strong>{subject.headline}</strong> ({findings} finding
        {findings === 1 ? '' : 's'}). If you continue, Skillbench will {doing} and stop warning
        about these findings for <strong>this exact version</strong> of the skill until the date you
        choose. If the skill changes in any way, it asks again.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (ok) onConfirm(reason.trim(), days);
        }}
      >
        <label htmlFor={ids.reason}>Why do you trust it? (kept with your decision)</label>
        <textarea
          id={ids.reason}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          rows={3}
          aria-describedby={ids.help}
          required
          minLength={3}
          autoFocus
        />
        <p id={ids.help} className="help">
          For example: “I wrote this skill myself” or “The author explained the download in issue
          12”.
        </p>
        <label htmlFor={ids.days}>For how long</label>
        <select id={ids.days} value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {DURATIONS.map((d) => (
            <option key={d.days} value={d.days}>
              {d.label}
            </option>
          ))}
        </select>
        <div className="row end">
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={!ok}>
            Trust anyway
          </button>
        </div>
      </form>
    </dialog>
  );
}
