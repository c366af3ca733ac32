import { useEffect, useRef, useState } from 'react';
import { monaco } from './monaco-setup';
import { useEditorStore } from './stores';

/** Side by side: the version on disk (left) and the user's unsaved version (right). */
function DiffView({ disk, mine }: { disk: string; mine: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const original = monaco.editor.createModel(disk, 'markdown');
    const modified = monaco.editor.createModel(mine, 'markdown');
    const diff = monaco.editor.createDiffEditor(host.current, {
      readOnly: true,
      automaticLayout: true,
      theme: 'vs-dark',
      renderSideBySide: true,
      originalEditable: false,
    });
    diff.setModel({ original, modified });
    return () => {
      diff.dispose();
      original.dispose();
      modified.dispose();
    };
  }, [disk, mine]);
  return (
    <div
      className="diff-view"
      ref={host}
      aria-label="Disk version on the left, your version on the right"
      data-testid="conflict-diff"
    />
  );
}

/** Shown when the open file changed on disk while the user has unsaved changes: never a silent overwrite. */
export function ConflictBanner() {
  const conflict = useEditorStore((s) => s.conflict);
  const draft = useEditorStore((s) => s.draft);
  const takeDisk = useEditorStore((s) => s.takeDiskVersion);
  const keepMine = useEditorStore((s) => s.keepMine);
  const [showBoth, setShowBoth] = useState(false);
  if (!conflict) return null;
  return (
    <div
      className="conflict"
      role="alertdialog"
      aria-labelledby="conflict-title"
      aria-describedby="conflict-text"
    >
      <h2 id="conflict-title">
        {conflict.kind === 'deleted'
          ? 'This file was deleted outside Skillbench'
          : 'This file changed outside Skillbench'}
      </h2>
      <p id="conflict-text">
        {conflict.kind === 'deleted'
          ? 'Your text is still here. Save to write it back, or close the file.'
          : 'You have unsaved changes, and the file on disk changed too. Both versions are kept until you choose.'}
      </p>
      <div className="row">
        {conflict.diskText !== null ? (
          <>
            <button type="button" onClick={() => setShowBoth(!showBoth)} aria-expanded={showBoth}>
              {showBoth ? 'Hide both versions' : 'Show both versions'}
            </button>
            <button type="button" onClick={takeDisk}>
              Use the version on disk
            </button>
          </>
        ) : null}
        <button type="button" className="primary" onClick={keepMine}>
          Keep my version
        </button>
      </div>
      {showBoth && conflict.diskText !== null ? (
        <DiffView disk={conflict.diskText} mine={draft} />
      ) : null}
    </div>
  );
}
