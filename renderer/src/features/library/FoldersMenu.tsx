import { Folder } from 'lucide-react';
import { useCallback, useRef, useState } from 'react';
import { useDismiss } from '../../ui/use-dismiss';
import { useLibraryStore } from './stores';

/** The library folders: where they are, and a button to remove each (closes on Escape or a click outside). */
export function FoldersMenu({
  onBeforeRemove,
}: {
  /** Called before a folder leaves the list (the editor keeps unsaved changes of a skill in it). */
  onBeforeRemove?: (root: string) => Promise<void>;
}) {
  const roots = useLibraryStore((s) => s.roots);
  const closeRoot = useLibraryStore((s) => s.closeRoot);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(box, open, close, toggle);
  return (
    <div className="roots-menu" ref={box}>
      <button
        ref={toggle}
        type="button"
        className="root-path"
        aria-expanded={open}
        aria-controls="roots-list"
        title={roots.join('\n')}
        onClick={() => setOpen(!open)}
      >
        <Folder size={16} aria-hidden />
        <span>Folders: {roots.length === 1 ? roots[0] : `${roots.length} folders`}</span>
      </button>
      {open ? (
        <ul id="roots-list" aria-label="Library folders">
          {roots.map((r) => (
            <li key={r}>
              <span className="root-name">{r}</span>
              <button
                type="button"
                onClick={() =>
                  void (onBeforeRemove?.(r) ?? Promise.resolve()).then(() => closeRoot(r))
                }
                aria-label={`Remove ${r} from the library`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
