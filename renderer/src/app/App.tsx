import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { AgentsView } from '../features/agents/AgentsView';
import { InstallDialog } from '../features/agents/InstallDialog';
import { useAgentsStore } from '../features/agents/stores';
import { ImportDialog } from '../features/import/ImportDialog';
import { useImportStore } from '../features/import/stores';
import { isDirty } from '../features/editor/editor-store';
import { RecoveredDrafts } from '../features/editor/RecoveredDrafts';
import { UnsavedChangesDialog, type UnsavedChoice } from '../features/editor/UnsavedChangesDialog';
import { useEditorStore } from '../features/editor/stores';
import { useAgentViewStore } from '../features/agent-view/stores';
import { useInspectorStore } from '../features/inspector/stores';
import { LibraryPanel } from '../features/library/LibraryPanel';
import { NewSkillWizard } from '../features/library/NewSkillWizard';
import { OpenFolderDialog } from '../features/library/OpenFolderDialog';
import { useLibraryStore } from '../features/library/stores';
import { ServerPanel } from '../features/server/ServerPanel';
import { useServerStore } from '../features/server/stores';
import { onEvent, shellKind } from '../platform/api';
import { routeEvents } from './route-events';
import { useNoticesStore } from './state/stores';
import { useAppStore } from './stores';
import { TargetSelector } from './TargetSelector';

// Why lazy: Monaco and the inspector are most of the bundle; the list must not wait for them
// (a 5,000-skill list must be interactive within 1.5 s).
const SkillView = lazy(() =>
  import('../features/editor/SkillView').then((m) => ({ default: m.SkillView })),
);
const AgentView = lazy(() =>
  import('../features/agent-view/AgentView').then((m) => ({ default: m.AgentView })),
);
const InspectorView = lazy(() =>
  import('../features/inspector/InspectorView').then((m) => ({ default: m.InspectorView })),
);

/** The Skillbench window. */
export function App() {
  const info = useAppStore((s) => s.info);
  const appState = useAppStore((s) => s.state);
  const suggestions = useLibraryStore((s) => s.suggestions);
  const [dialog, setDialog] = useState<'open' | 'new' | 'import' | 'install' | null>(null);
  const [view, setView] = useState<'library' | 'agents' | 'server' | 'inspector' | 'agent-view'>(
    'library',
  );
  const agentsOverview = useAgentsStore((s) => s.overview);
  const librarySkills = useLibraryStore((s) => s.skills);
  // Why here: the library shows where each skill is installed, and features never import the Agents feature.
  const installedIn = useMemo(() => {
    const map: Record<string, string[]> = {};
    for (const agent of agentsOverview?.agents ?? [])
      for (const folder of agent.folders)
        for (const skill of folder.skills) {
          if (!skill.libraryDir) continue;
          const list = (map[skill.libraryDir] ??= []);
          if (!list.includes(agent.name)) list.push(agent.name);
        }
    return map;
  }, [agentsOverview]);
  const roots = useLibraryStore((s) => s.roots);
  const error = useNoticesStore((s) => s.error);
  const notice = useNoticesStore((s) => s.notice);
  const libraryState = useLibraryStore((s) => s.state);
  const openLibrary = useLibraryStore((s) => s.openLibrary);
  const closeRoot = useLibraryStore((s) => s.closeRoot);
  const showError = useNoticesStore((s) => s.showError);
  const openSkill = useEditorStore((s) => s.open);
  const openPath = useEditorStore((s) => s.path);
  // The skill to open once the user has answered about the unsaved changes.
  const [leaving, setLeaving] = useState<string | null>(null);

  useEffect(() => {
    void useAppStore.getState().start();
    void useAgentsStore.getState().load();
    const stopEvents = routeEvents(onEvent, {
      editor: useEditorStore.getState,
      library: useLibraryStore.getState,
      server: useServerStore.getState,
      inspector: useInspectorStore.getState,
      agentView: useAgentViewStore.getState,
    });
    // Why: closing the window with unsaved changes asks first (never lose work).
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
      stopEvents();
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('keydown', keys);
    };
  }, []);

  useEffect(() => {
    // Why here: opening or removing a library folder changes what the agent sees; the app shell is
    // where features meet (renderer/README.md), and refresh reads again only if the view was shown.
    void useAgentViewStore.getState().refresh();
  }, [roots]);

  /** Switch skills, asking before unsaved changes are left behind (Save, Discard or Cancel). */
  async function switchTo(path: string) {
    const editor = useEditorStore.getState();
    if (path === editor.path) return;
    if (isDirty(editor)) {
      setLeaving(path);
      return;
    }
    await openSkill(path);
  }

  async function leaveUnsaved(choice: UnsavedChoice) {
    const next = leaving;
    const editor = useEditorStore.getState();
    if (choice === 'cancel' || next === null) {
      setLeaving(null);
      return;
    }
    if (choice === 'save' && !(await editor.save())) {
      setLeaving(null);
      return;
    }
    if (choice === 'discard') await editor.discardChanges();
    setLeaving(null);
    await openSkill(next);
  }

  async function openFolder() {
    if (info?.nativeDialogs && (await useLibraryStore.getState().pickFolder())) return;
    setDialog('open');
  }

  /** An archive dropped on the list: show the import dialog and check the archive in it. */
  function importDropped(file: File) {
    setDialog('import');
    void useImportStore.getState().uploadForImport(file);
  }

  return (
    <div
      className="app"
      data-state={appState === 'ready' && libraryState === 'ready' ? 'ready' : 'starting'}
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
            aria-selected={view === 'agents'}
            onClick={() => setView('agents')}
          >
            Agents
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
          <button
            type="button"
            role="tab"
            aria-selected={view === 'agent-view'}
            onClick={() => setView('agent-view')}
          >
            What the agent sees
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
        <button type="button" onClick={() => setDialog('install')} disabled={roots.length === 0}>
          Install…
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
              openPath={openPath}
              onOpen={(path) => void switchTo(path)}
              onDropArchive={importDropped}
              installedIn={installedIn}
            />
            <Suspense
              fallback={
                <section className="skill-view empty" aria-label="Skill" aria-busy="true" />
              }
            >
              <SkillView />
            </Suspense>
          </>
        ) : view === 'agents' ? (
          <AgentsView />
        ) : view === 'server' ? (
          <ServerPanel />
        ) : view === 'agent-view' ? (
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <AgentView />
          </Suspense>
        ) : (
          <Suspense fallback={<p className="muted">Loading the inspector…</p>}>
            <InspectorView />
          </Suspense>
        )}
      </main>
      {leaving !== null && openPath ? (
        <UnsavedChangesDialog
          fileName={openPath.split(/[\\/]/).slice(-2).join('/')}
          onChoose={leaveUnsaved}
        />
      ) : null}
      {dialog === 'open' ? (
        <OpenFolderDialog
          initialPath={roots[0] ?? info?.homeDir ?? ''}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === 'new' ? (
        <NewSkillWizard onClose={() => setDialog(null)} onCreated={(path) => void switchTo(path)} />
      ) : null}
      {dialog === 'import' ? <ImportDialog roots={roots} onClose={() => setDialog(null)} /> : null}
      {dialog === 'install' ? (
        <InstallDialog skills={librarySkills} initial={openPath} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}
