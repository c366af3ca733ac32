import { useEffect, useId, useRef } from 'react';

/**
 * A skill of this name is already in the library: keep both (the new one under a free
 * `name-N`), replace the existing one (it goes to Skillbench's trash, nothing is lost) or cancel.
 * One dialog for every place that writes a skill into the library (import, the inspector's Save).
 */
export function NameConflictDialog({
  name,
  suggestion,
  message,
  verb,
  onKeepBoth,
  onReplace,
  onCancel,
  identical = false,
}: {
  /** The name already taken. */
  name: string;
  /** The free name "Keep both" uses. */
  suggestion: string;
  /** Main's sentence about the conflict (where the existing folder is). */
  message: string;
  /** What the new copy is being: "import", "save". */
  verb: string;
  onKeepBoth: () => void;
  onReplace: () => void;
  onCancel: () => void;
  /** The existing folder holds exactly these files: nothing to replace, a second copy on request. */
  identical?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = { title: useId(), body: useId() };
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="name-conflict-dialog"
      aria-labelledby={ids.title}
      aria-describedby={ids.body}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={ids.title}>{name} is already in your library</h2>
      <div id={ids.body}>
        <p>{message}</p>
        {identical ? null : (
          <ul className="help">
            <li>
              <strong>Keep both</strong>: {verb} this one as <code>{suggestion}</code> (its name in
              SKILL.md changes to match); the existing skill stays as it is.
            </li>
            <li>
              <strong>Replace</strong>: the existing <code>{name}</code> goes to Skillbench&rsquo;s
              trash, where you can still get it back, and this one takes its place.
            </li>
          </ul>
        )}
      </div>
      {identical ? (
        <div className="row end">
          <button type="button" onClick={onKeepBoth}>
            Keep a second copy as {suggestion}
          </button>
          <button type="button" className="primary" onClick={onCancel} autoFocus>
            Close
          </button>
        </div>
      ) : (
        <div className="row end">
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" onClick={onReplace}>
            Replace
          </button>
          <button type="button" className="primary" onClick={onKeepBoth} autoFocus>
            Keep both
          </button>
        </div>
      )}
    </dialog>
  );
}
