import { useEffect, useRef, useState } from 'react';
import type { ApiError } from '../../../../shared/ipc/contract';
import { useNoticesStore } from '../../app/state/stores';
import { useLibraryStore } from './stores';

interface Listing {
  path: string;
  parent: string | null;
  folders: { name: string; path: string }[];
  isSkill: boolean;
}

/** The browser shell's folder picker: a path field plus a folder browser served by main. */
export function OpenFolderDialog({
  initialPath,
  onClose,
}: {
  initialPath: string;
  onClose: () => void;
}) {
  const [path, setPath] = useState(initialPath);
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const openLibrary = useLibraryStore((s) => s.openLibrary);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  async function browse(target: string) {
    const result = await useLibraryStore.getState().browse(target);
    if (result.ok) {
      setListing(result.value);
      setPath(result.value.path);
      setError(null);
    } else {
      setError(result.error);
    }
  }

  useEffect(() => {
    void useLibraryStore
      .getState()
      .browse(initialPath)
      .then((result) => {
        if (result.ok) setListing(result.value);
      });
  }, [initialPath]);

  async function open(target: string) {
    if (target.trim() === '') {
      setError({ code: 'invalid-input', message: 'Type the path of a folder, or pick one below.' });
      return;
    }
    if (await openLibrary(target)) onClose();
    else setError(useNoticesStore.getState().error);
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
          void open(path);
        }}
      >
        <h2 id="open-dialog-title">Open a folder of skills</h2>
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
            {error.message}
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
            Open this folder
          </button>
        </div>
      </form>
    </dialog>
  );
}
