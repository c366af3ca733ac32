import { useEffect, useState } from 'react';
import type { ChannelOutput } from '../../../shared/ipc/contract';
import { api, shellKind } from '../platform/api';
import { useLibraryStore } from '../state/library-store';
import { EditorPane } from './EditorPane';
import { OpenFolderDialog } from './OpenFolderDialog';
import { SkillList } from './SkillList';

/** The Skillbench window. */
export function App() {
  const [info, setInfo] = useState<ChannelOutput<'app.info'> | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const root = useLibraryStore((s) => s.root);
  const error = useLibraryStore((s) => s.error);
  const notice = useLibraryStore((s) => s.notice);
  const openLibrary = useLibraryStore((s) => s.openLibrary);
  const dismissError = useLibraryStore((s) => s.dismissError);

  useEffect(() => {
    void api['app.info']({}).then((result) => {
      if (result.ok) setInfo(result.value);
    });
  }, []);

  async function openFolder() {
    if (info?.nativeDialogs) {
      const result = await api['dialog.pickFolder']({});
      if (result.ok && result.value.path) await openLibrary(result.value.path);
      return;
    }
    setPickerOpen(true);
  }

  return (
    <div className="app" data-state={info ? 'ready' : 'starting'} data-shell={shellKind}>
      <header className="app-header">
        <h1>Skillbench</h1>
        <button type="button" className="primary" onClick={() => void openFolder()}>
          Open folder…
        </button>
        <span className="root-path" title={root ?? ''}>
          {root ?? 'No folder open'}
        </span>
      </header>
      {error ? (
        <div role="alert" className="banner error">
          <span>{error.message}</span>
          {error.detail ? <details><summary>Details</summary><code>{error.detail}</code></details> : null}
          <button type="button" onClick={dismissError} aria-label="Dismiss message">
            ✕
          </button>
        </div>
      ) : null}
      <div role="status" className="status-line">
        {notice}
      </div>
      <main className="workspace">
        <aside className="sidebar" aria-label="Library">
          <SkillList />
        </aside>
        <EditorPane />
      </main>
      {pickerOpen ? <OpenFolderDialog initialPath={root ?? info?.homeDir ?? ''} onClose={() => setPickerOpen(false)} /> : null}
    </div>
  );
}
