import { useEffect, useMemo, useState } from 'react';

/** A download link for generated text (a report, a log) through a Blob URL, revoked when it changes, plus a copy button. */
export function TextExport({
  text,
  fileName,
  mimeType,
  label,
}: {
  text: string;
  fileName: string;
  mimeType: string;
  label: string;
}) {
  const url = useMemo(
    () => URL.createObjectURL(new Blob([text], { type: mimeType })),
    [text, mimeType],
  );
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <span className="insp-export">
      <a href={url} download={fileName} className="insp-link-button">
        Download {label}
      </a>
      <button
        type="button"
        aria-label={`Copy ${label}${copied === 'done' ? ' (copied)' : copied === 'failed' ? ' (copy failed)' : ''}`}
        onClick={() => {
          void navigator.clipboard.writeText(text).then(
            () => setCopied('done'),
            () => setCopied('failed'),
          );
        }}
      >
        {`Copy ${label}`}
      </button>
    </span>
  );
}
