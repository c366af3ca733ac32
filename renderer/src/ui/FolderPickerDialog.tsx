import { useEffect, useRef, useState } from 'react';
import type { ChannelOutput, Result } from '../../../shared/ipc/contract';

type Listing = ChannelOutput<'fs.browse'>;

/**
 * Asking for a folder where the window has no folder dialog of its own (the browser shell; the
 * Electron window uses the system's): a path field and a folder browser served by main. The one
 * folder picker, for opening a library and for adding a project folder.
 */
export function FolderPickerDialog({
  title,
  chooseLabel,
  initialPath,
  browse: list,
  onChoose,
  onClose,
}: {
  title: string;
  /** The button that takes the folder shown: "Open this folder", "Add this project". */
  chooseLabel: string;
  initialPath: string;
  /** Lists a folder's sub-folders (main's `fs.browse`). */
  browse: (path: string) => Promise<Result<Listing>>;
  /** Takes the folder; the message to show when it was refused, or null when it was taken. */
  onChoose: (path: string) => Promise<string | null>;
  onClose: () => void;
}) {
  const [path, setPath] = useState(initialPath);
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  async function browse(target: string) {
    const result = await list(target);
    if (result.ok) {
      setListing(result.value);
      setPath(result.value.path);
      setError(null);
    } else {
      setError(result.error.message);
    }
  }

  useEffect(() => {
    void list(initialPath).then((result) => {
      if (!result.ok) return;
      setListing(result.value);
      // Why: with no path given, main lists the home folder; the field names it.
      setPath((typed) => (typed === '' ? result.value.path : typed));
    });
  }, [initialPath, list]);

  async function choose(target: string) {
    if (target.trim() === '') {
      setError('Type the path of a folder, or pick one below.');
      return;
    }
    const refused = await onChoose(target.trim());
    if (refused === null) onClose();
    else setError(refused);
  }

  return (
    <dialog
      ref={dialog}
      className="open-dialog"
      aria-labelledby="open-dialog-title"
      onCancel={onClose}
    >
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          void choose(path);
        }}
      >
        <h2 id="open-dialog-title">{title}</h2>
        <label htmlFor="folder-path">Folder path</label>
        <div className="row">
          <input
            id="folder-path"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            autoFocus
            spellCheck={false}
          />
          <button type="button" onClick={() => void browse(path)}>
            Browse
          </button>
        </div>
        {error ? (
          <p role="alert" className="error-text">
            {error}
          </p>
        ) : null}
        <nav aria-label="Folders" className="folder-browser">
          {listing?.parent ? (
            <button
              type="button"
              className="folder up"
              onClick={() => void browse(listing.parent as string)}
            >
              ↑ Up to {listing.parent}
            </button>
          ) : null}
          <ul>
            {listing?.folders.map((folder) => (
              <li key={folder.path}>
                <button type="button" className="folder" onClick={() => void browse(folder.path)}>
                  <span className="file-kind folder" aria-hidden="true" />
                  {folder.name}
                </button>
              </li>
            ))}
          </ul>
          {listing && listing.folders.length === 0 ? (
            <p className="muted">No sub-folders here.</p>
          ) : null}
        </nav>
        <div className="row end">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary">
            {chooseLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
