import { lazy, Suspense, useEffect, useState } from 'react';
import { onEvent, shellKind } from '../platform/api';
import { useAppStore } from '../state/app-store';
import { isDirty, useEditorStore } from '../state/editor-store';
import { useLibraryStore } from '../state/library-store';
import { ImportDialog } from './ImportDialog';
import { LibraryPanel } from './LibraryPanel';
import { NewSkillWizard } from './NewSkillWizard';
import { OpenFolderDialog } from './OpenFolderDialog';
import { RecoveredDrafts } from './RecoveredDrafts';
import { ServerPanel } from './ServerPanel';
import { TargetSelector } from './TargetSelector';

// Why lazy: Monaco and the inspector are most of the bundle; the list must not wait for them
// (issue 4: list interactive under 1.5 s with 5,000 skills).
const SkillView = lazy(() => import('./SkillView').then((m) => ({ default: m.SkillView })));
const InspectorView = lazy(() =>
  import('./inspector/InspectorView').then((m) => ({ default: m.InspectorView })),
);

/** The Skillbench window. */
export function App() {
  const info = useAppStore((s) => s.info);
  const suggestions = useAppStore((s) => s.suggestions);
  const [dialog, setDialog] = useState<'open' | 'new' | 'import' | null>(null);
  const [view, setView] = useState<'library' | 'server' | 'inspector'>('library');
  const roots = useLibraryStore((s) => s.roots);
  const error = useLibraryStore((s) => s.error);
  const notice = useLibraryStore((s) => s.notice);
  const libraryState = useLibraryStore((s) => s.state);
  const openLibrary = useLibraryStore((s) => s.openLibrary);
  const closeRoot = useLibraryStore((s) => s.closeRoot);
  const showError = useLibraryStore((s) => s.showError);
  const openSkill = useEditorStore((s) => s.open);

  useEffect(() => {
    void useAppStore.getState().start();
    const offChanged = onEvent(
      'skill.changed',
      ({ path, version }) => void useEditorStore.getState().externalChange(path, version),
    );
    // Why: a large library's first listing arrives before its checks; this event says they are done.
    const offLibrary = onEvent('library.changed', () => void useLibraryStore.getState().refresh());
    // Why: closing the window with unsaved changes asks first (issue 4: never lose work).
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (isDirty(useEditorStore.getState())) event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    const keys = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        document.getElementById('skill-search')?.focus();
      }
    };
    window.addEventListener('keydown', keys);
    return () => {
      offChanged();
      offLibrary();
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('keydown', keys);
    };
  }, []);

  /** Switch skills, asking before unsaved changes are left behind. */
  async function switchTo(path: string) {
    const editor = useEditorStore.getState();
    if (path === editor.path) return;
    if (isDirty(editor)) {
      const keep = window.confirm(
        `Save your changes to ${editor.path} before opening another skill?\n\nOK saves them; Cancel stays here.`,
      );
      if (!keep || !(await editor.save())) return;
    }
    await openSkill(path);
  }

  async function openFolder() {
    if (info?.nativeDialogs && (await useAppStore.getState().pickFolder())) return;
    setDialog('open');
  }

  return (
    <div
      className="app"
      data-state={info && libraryState === 'ready' ? 'ready' : 'starting'}
      data-shell={shellKind}
    >
      <header className="app-header">
        <h1>Skillbench</h1>
        <div role="tablist" aria-label="Views" className="view-switch">
          <button
            type="button"
            role="tab"
            aria-selected={view === 'library'}
            onClick={() => setView('library')}
          >
            Library
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={view === 'server'}
            onClick={() => setView('server')}
          >
            Server
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={view === 'inspector'}
            onClick={() => setView('inspector')}
          >
            Inspector
          </button>
        </div>
        <button type="button" className="primary" onClick={() => void openFolder()}>
          Open folder…
        </button>
        <button type="button" onClick={() => setDialog('new')} disabled={roots.length === 0}>
          New skill…
        </button>
        <button type="button" onClick={() => setDialog('import')} disabled={roots.length === 0}>
          Import…
        </button>
        <TargetSelector />
        <span className="root-path" title={roots.join('\n')}>
          {roots.length === 0
            ? 'No folder open'
            : roots.length === 1
              ? roots[0]
              : `${roots.length} folders`}
        </span>
        {roots.length > 0 ? (
          <details className="roots-menu">
            <summary>Folders</summary>
            <ul>
              {roots.map((r) => (
                <li key={r}>
                  {r}{' '}
                  <button
                    type="button"
                    onClick={() => void closeRoot(r)}
                    aria-label={`Remove ${r} from the library`}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </header>
      {error ? (
        <div role="alert" className="banner error">
          <span>{error.message}</span>
          {error.detail ? (
            <details>
              <summary>Details</summary>
              <code>{error.detail}</code>
            </details>
          ) : null}
          <button type="button" onClick={() => showError(null)} aria-label="Dismiss message">
            ✕
          </button>
        </div>
      ) : null}
      <RecoveredDrafts />
      {roots.length === 0 && suggestions.length > 0 ? (
        <section className="banner suggestions" aria-label="Suggested folders">
          <span>Skills found on this computer:</span>
          {suggestions.map((s) => (
            <button
              type="button"
              key={s.path}
              onClick={() => void openLibrary(s.path)}
              title={s.path}
            >
              {s.label}
            </button>
          ))}
        </section>
      ) : null}
      <div role="status" className="status-line">
        {notice}
      </div>
      <main className="workspace">
        {view === 'library' ? (
          <>
            <LibraryPanel
              onOpen={(path) => void switchTo(path)}
              onImport={() => setDialog('import')}
            />
            <Suspense
              fallback={
                <section className="skill-view empty" aria-label="Skill" aria-busy="true" />
              }
            >
              <SkillView />
            </Suspense>
          </>
        ) : view === 'server' ? (
          <ServerPanel />
        ) : (
          <Suspense fallback={<p className="muted">Loading the inspector…</p>}>
            <InspectorView />
          </Suspense>
        )}
      </main>
      {dialog === 'open' ? (
        <OpenFolderDialog
          initialPath={roots[0] ?? info?.homeDir ?? ''}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === 'new' ? (
        <NewSkillWizard onClose={() => setDialog(null)} onCreated={(path) => void switchTo(path)} />
      ) : null}
      {dialog === 'import' ? <ImportDialog onClose={() => setDialog(null)} /> : null}
    </div>
  );
}
