import { useEffect, useRef, useState } from 'react';

/** What the user chose about unsaved changes. */
export type UnsavedChoice = 'save' | 'discard' | 'cancel';

/**
 * Asked before unsaved changes are left behind: Save, Discard or Cancel (stay). Escape cancels.
 * `onChoose` may be async (saving); the buttons wait for it.
 */
export function UnsavedChangesDialog({
  fileName,
  onChoose,
}: {
  fileName: string;
  onChoose: (choice: UnsavedChoice) => Promise<void> | void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  async function choose(choice: UnsavedChoice) {
    setBusy(true);
    try {
      await onChoose(choice);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={dialog}
      className="unsaved-dialog"
      aria-labelledby="unsaved-dialog-title"
      aria-describedby="unsaved-dialog-text"
      onCancel={(event) => {
        event.preventDefault();
        void choose('cancel');
      }}
    >
      <h2 id="unsaved-dialog-title">Unsaved changes</h2>
      <p id="unsaved-dialog-text">
        You changed <strong>{fileName}</strong> and did not save it. Save the changes before you go
        on?
      </p>
      <div className="unsaved-dialog-buttons">
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => void choose('save')}
        >
          Save
        </button>
        <button type="button" disabled={busy} onClick={() => void choose('discard')}>
          Discard changes
        </button>
        <button type="button" disabled={busy} onClick={() => void choose('cancel')}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
