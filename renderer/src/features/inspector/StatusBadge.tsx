import type { FileStatus } from '../../../../shared/inspector/types';

/** Words for each file status, for people rather than protocols. */
const WORDS: Record<FileStatus, string> = {
  verified: 'verified',
  mismatch: 'mismatch',
  unlisted: 'unlisted',
  unverifiable: 'unverifiable',
  pending: 'not read yet',
};

/** A file's verification status as a small labelled badge. */
export function StatusBadge({ status }: { status: FileStatus }) {
  return (
    <span className={`insp-badge insp-${status}`} data-status={status}>
      {WORDS[status]}
    </span>
  );
}

/** The "legacy, unverified" label for anything found outside the Skills extension. */
export function LegacyBadge({ label }: { label?: string }) {
  return label ? <span className="insp-badge insp-legacy">{label}</span> : null;
}
