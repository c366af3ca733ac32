import {
  Bot,
  Download,
  Eye,
  FilePlus2,
  FolderOpen,
  LibraryBig,
  PackageOpen,
  Plug,
  ScanSearch,
  Server,
  X,
} from 'lucide-react';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
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
import { FolderPickerDialog } from '../ui/FolderPickerDialog';
import { useLibraryStore } from '../features/library/stores';
import { ServerPanel } from '../features/server/ServerPanel';
import { useServerStore } from '../features/server/stores';
import { onEvent, shellKind } from '../platform/api';
import { routeEvents } from './route-events';
import { useNoticesStore, useSettingsStore } from './state/stores';
import { useAppStore } from './stores';
import { TargetSelector } from './TargetSelector';

type View = 'library' | 'agents' | 'server' | 'inspector' | 'agent-view';

const VIEWS: { id: View; label: string; icon: typeof Bot }[] = [
  { id: 'library', label: 'Library', icon: LibraryBig },
  { id: 'agents', label: 'Agents', icon: Bot },
  { id: 'server', label: 'Server', icon: Server },
  { id: 'inspector', label: 'Inspector', icon: ScanSearch },
  { id: 'agent-view', label: 'What the agent sees', icon: Eye },
];

/**
 * The first screen, before any folder is open: the three ways in (a folder of skills, a first
 * skill, a server to inspect), and the skill folders found on this computer.
 */
function Welcome({
  onOpenFolder,
  onFirstSkill,
  onConnect,
}: {
  onOpenFolder: () => void;
  onFirstSkill: () => void;
  onConnect: () => void;
}) {
  const suggestions = useLibraryStore((s) => s.suggestions);
  const openLibrary = useLibraryStore((s) => s.openLibrary);
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h2 id="welcome-title">Welcome to Skillbench</h2>
      <p className="muted">
        A skill is a folder with a <code>SKILL.md</code> that teaches an agent how to do one job.
        Start in one of three ways:
      </p>
      <ol className="welcome-steps">
        <li>
          <FolderOpen size={28} aria-hidden />
          <h3>Open a folder of skills</h3>
          <p>Every folder inside it with a SKILL.md is listed, checked and ready to edit.</p>
          <button type="button" className="primary" onClick={onOpenFolder}>
            Open a folder…
          </button>
          {suggestions.length > 0 ? (
            <div className="suggestions" aria-label="Suggested folders" role="group">
              <span className="muted">Found on this computer:</span>
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
            </div>
          ) : null}
        </li>
        <li>
          <FilePlus2 size={28} aria-hidden />
          <h3>Create your first skill</h3>
          <p>Choose the folder where your skills live, then fill in a name and what it is for.</p>
          <button type="button" onClick={onFirstSkill}>
            Create your first skill…
          </button>
        </li>
        <li>
          <Plug size={28} aria-hidden />
          <h3>Connect to a skill server</h3>
          <p>Look at the skills a server offers, check them, and keep the ones you like.</p>
          <button type="button" onClick={onConnect}>
            Connect to a server…
          </button>
        </li>
      </ol>
    </section>
  );
}

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
  const [dialog, setDialog] = useState<'open' | 'new' | 'import' | 'install' | null>(null);
  const [view, setView] = useState<View>('library');
  // Why: "Create your first skill" with no folder open asks for the folder first, then opens the wizard.
  const [newAfterOpen, setNewAfterOpen] = useState(false);
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
  const showError = useNoticesStore((s) => s.showError);
  const openSkill = useEditorStore((s) => s.open);
  const openPath = useEditorStore((s) => s.path);
  // The skill to open once the user has answered about the unsaved changes.
  const [leaving, setLeaving] = useState<string | null>(null);
  const tabMovesFocus = useSettingsStore((s) => s.tabMovesFocus);
  const setTabMovesFocus = useSettingsStore((s) => s.setTabMovesFocus);
  // What the window-wide shortcuts need to know, read when a key is pressed.
  const current = useRef({ dialog, roots, view });
  current.current = { dialog, roots, view };
  const focusSearchNext = useRef(false);

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
    // Window-wide shortcuts. Why the capture phase: Ctrl+S must save from anywhere (the editor,
    // the form, the list) and never reach the browser's "Save page as".
    const keys = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      const key = event.key.toLowerCase();
      const { dialog: openDialog, roots: openRoots, view: shown } = current.current;
      if (key === 's') {
        event.preventDefault();
        const editor = useEditorStore.getState();
        if (editor.path && isDirty(editor)) void editor.save();
      } else if (key === 'k') {
        event.preventDefault();
        if (shown === 'library') document.getElementById('skill-search')?.focus();
        else {
          focusSearchNext.current = true;
          setView('library');
        }
      } else if (key === 'n' && openDialog === null) {
        event.preventDefault();
        setView('library');
        if (openRoots.length > 0) setDialog('new');
        else startFirstSkill();
      }
    };
    window.addEventListener('keydown', keys, true);
    return () => {
      stopEvents();
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('keydown', keys, true);
    };
  }, []);

  useEffect(() => {
    if (view !== 'library' || !focusSearchNext.current) return;
    focusSearchNext.current = false;
    document.getElementById('skill-search')?.focus();
  }, [view, roots]);

  useEffect(() => {
    // Why here: opening or removing a library folder changes what the agent sees; the app shell is
    // where features meet (renderer/README.md), and refresh reads again only if the view was shown.
    void useAgentViewStore.getState().refresh();
  }, [roots]);

  useEffect(() => {
    // A skill whose folder was removed from the list is closed: it can no longer be saved there.
    // Why no question first: unsaved changes are kept as a draft (offered back when the folder
    // is opened again), so nothing is lost.
    if (libraryState !== 'ready') return;
    const editor = useEditorStore.getState();
    const path = editor.path;
    if (!path) return;
    const inside = (root: string) =>
      path.startsWith(`${root.replace(/[\\/]+$/, '')}/`) ||
      path.startsWith(`${root.replace(/[\\/]+$/, '')}\\`);
    if (roots.some(inside)) return;
    const name = editor.skillDir?.split(/[\\/]/).pop() ?? path;
    const kept = isDirty(editor);
    editor.close();
    // The draft was kept before the folder left the list (removeFolder below).
    if (kept) void useEditorStore.getState().loadRecovered();
    useNoticesStore
      .getState()
      .showNotice(
        kept
          ? `${name} was closed with its folder. Your unsaved changes are kept: open the folder again to get them back.`
          : `${name} was closed with its folder.`,
      );
  }, [roots, libraryState]);

  useEffect(() => {
    if (!newAfterOpen || roots.length === 0) return;
    setNewAfterOpen(false);
    setDialog('new');
  }, [newAfterOpen, roots]);

  /** Before a folder leaves the list: unsaved changes of the open skill in it are kept as a draft. */
  async function beforeRemoveFolder(): Promise<void> {
    await useEditorStore.getState().keepDraftNow();
  }

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

  function startFirstSkill() {
    setNewAfterOpen(true);
    void openFolder();
  }

  /** An archive dropped on the list: show the import dialog and check the archive in it. */
  function importDropped(file: File) {
    setDialog('import');
    void useImportStore.getState().uploadForImport(file);
  }

  const noFolder = roots.length === 0;
  const installButton = (
    <button
      type="button"
      onClick={() => setDialog('install')}
      disabled={noFolder}
      title="Install skills into your agents"
    >
      <Download size={16} aria-hidden />
      <span className="compact-label">Install…</span>
    </button>
  );

  return (
    <div
      className="app"
      data-state={appState === 'ready' && libraryState === 'ready' ? 'ready' : 'starting'}
      data-shell={shellKind}
    >
      <header className="app-header">
        <h1>Skillbench</h1>
        <div role="tablist" aria-label="Views" className="view-switch">
          {VIEWS.map(({ id, label, icon: Icon }) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={view === id}
              onClick={() => setView(id)}
            >
              <Icon size={16} aria-hidden />
              {label}
            </button>
          ))}
        </div>
        {view === 'library' ? (
          <div role="toolbar" aria-label="Library actions" className="toolbar">
            <button type="button" className="primary" onClick={() => void openFolder()}>
              <FolderOpen size={16} aria-hidden />
              Open folder…
            </button>
            <button
              type="button"
              onClick={() => setDialog('new')}
              disabled={noFolder}
              aria-keyshortcuts="Control+N"
            >
              <FilePlus2 size={16} aria-hidden />
              New skill…
            </button>
            <button
              type="button"
              onClick={() => setDialog('import')}
              disabled={noFolder}
              title="Import a skill from an archive or a folder"
            >
              <PackageOpen size={16} aria-hidden />
              <span className="compact-label">Import…</span>
            </button>
            {installButton}
            <TargetSelector />
          </div>
        ) : view === 'agents' ? (
          <div role="toolbar" aria-label="Agents actions" className="toolbar">
            {installButton}
          </div>
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
          <button
            type="button"
            className="icon-button"
            onClick={() => showError(null)}
            aria-label="Dismiss message"
          >
            <X size={16} aria-hidden />
          </button>
        </div>
      ) : null}
      <RecoveredDrafts />
      <main className="workspace">
        {view === 'library' ? (
          noFolder ? (
            <Welcome
              onOpenFolder={() => void openFolder()}
              onFirstSkill={startFirstSkill}
              onConnect={() => setView('inspector')}
            />
          ) : (
            <>
              <LibraryPanel
                onBeforeRemove={beforeRemoveFolder}
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
                <SkillView onNewSkill={() => setDialog('new')} />
              </Suspense>
            </>
          )
        ) : view === 'agents' ? (
          <AgentsView />
        ) : view === 'server' ? (
          <ServerPanel
            onOpenSkill={(dir) => {
              const skill = useLibraryStore
                .getState()
                .skills.find((k) => k.path.replace(/[\\/][^\\/]*$/, '') === dir);
              if (!skill) return;
              setView('library');
              void switchTo(skill.path);
            }}
          />
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
      <footer className="status-bar">
        <div role="status" className="status-message">
          {notice}
        </div>
        {view === 'library' && openPath ? (
          <label
            className="tab-mode"
            title="When on, Tab moves to the next control; when off, Tab types a tab in SKILL.md. Ctrl+M switches it from the editor."
          >
            <input
              type="checkbox"
              checked={tabMovesFocus}
              onChange={(e) => setTabMovesFocus(e.target.checked)}
            />
            Tab leaves the editor (Ctrl+M)
          </label>
        ) : null}
      </footer>
      {leaving !== null && openPath ? (
        <UnsavedChangesDialog
          fileName={openPath.split(/[\\/]/).slice(-2).join('/')}
          onChoose={leaveUnsaved}
        />
      ) : null}
      {dialog === 'open' ? (
        <FolderPickerDialog
          title="Open a folder of skills"
          chooseLabel="Open this folder"
          initialPath={roots[0] ?? info?.homeDir ?? ''}
          browse={useLibraryStore.getState().browse}
          onChoose={async (path) =>
            (await useLibraryStore.getState().openLibrary(path))
              ? null
              : (useNoticesStore.getState().error?.message ?? `${path} could not be opened.`)
          }
          onClose={() => {
            if (useLibraryStore.getState().roots.length === 0) setNewAfterOpen(false);
            // Why the check: opening the folder may already have handed over to the wizard.
            setDialog((d) => (d === 'open' ? null : d));
          }}
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
