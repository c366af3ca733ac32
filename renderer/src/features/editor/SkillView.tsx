import { ViewTabs } from '../../ui/ViewTabs';
import { Eye, FileOutput, PanelLeftClose, PanelLeftOpen, Save } from 'lucide-react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { estimateTokens, parseSkill } from '../../../../shared/skill';
import { ExportDialog } from '../export/ExportDialog';
import { ConflictBanner } from './ConflictBanner';
import { isSkillFile } from './editor-store';
import { EditorPane } from './EditorPane';
import { FileTree } from './FileTree';
import { HostsPanel, useHostReports } from './HostsPanel';
import { ProblemsPanel } from './ProblemsPanel';
import { useLibraryStore } from '../library/stores';
import { SafetyPanel } from './SafetyPanel';
import { useEditorStore, useFilesStore } from './stores';

const FormView = lazy(() => import('../form/FormView').then((m) => ({ default: m.FormView })));
const MarkdownPreview = lazy(() =>
  import('../../ui/MarkdownPreview').then((m) => ({ default: m.MarkdownPreview })),
);

/** Count characters as the limits do: code points. */
function codePoints(value: unknown): number {
  return typeof value === 'string' ? [...value].length : 0;
}

/** Name and description counters and the body's token estimate (about 4 characters a token). */
function Counters({ text }: { text: string }) {
  const { name, description, tokens } = useMemo(() => {
    const parsed = parseSkill(text);
    const data = (parsed.data ?? {}) as Record<string, unknown>;
    return {
      name: codePoints(data.name),
      description: codePoints(data.description),
      tokens: estimateTokens(parsed.body),
    };
  }, [text]);
  return (
    <span className="counters" aria-label="Counters">
      <span className={name > 64 ? 'over' : ''} title="Characters in name (at most 64)">
        name {name}/64
      </span>
      <span
        className={description > 1024 ? 'over' : ''}
        title="Characters in description (at most 1024)"
      >
        description {description}/1024
      </span>
      <span
        className={tokens > 5000 ? 'over' : ''}
        title="Estimated tokens in the body (keep it under about 5,000)"
      >
        body ≈{tokens.toLocaleString()} tokens
      </span>
    </span>
  );
}

/** The open skill: its files, the editor (text or form), the preview, and its problems. */
export function SkillView({ onNewSkill }: { onNewSkill: () => void }) {
  const path = useEditorStore((s) => s.path);
  const skillDir = useEditorStore((s) => s.skillDir);
  const status = useEditorStore((s) => s.status);
  const draft = useEditorStore((s) => s.draft);
  const dirty = useEditorStore((s) => s.draft !== s.savedText);
  const view = useEditorStore((s) => s.view);
  const showPreview = useEditorStore((s) => s.showPreview);
  const diagnostics = useEditorStore((s) => s.diagnostics);
  const setView = useEditorStore((s) => s.setView);
  const togglePreview = useEditorStore((s) => s.togglePreview);
  const save = useEditorStore((s) => s.save);
  const setDraft = useEditorStore((s) => s.setDraft);
  const profiles = useEditorStore((s) => s.profiles);
  const hosts = useHostReports();
  const imageDataUrl = useFilesStore((s) => s.imageDataUrl);
  const [allowRemote, setAllowRemote] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [filesShown, setFilesShown] = useState(true);
  const skillCount = useLibraryStore((s) => s.skills.length);
  const skillFile = isSkillFile(path);
  const body = useMemo(() => (skillFile ? parseSkill(draft).body : draft), [draft, skillFile]);

  // Ctrl+E: export the open skill, from anywhere in the window.
  useEffect(() => {
    if (!skillFile) return;
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      if (event.key.toLowerCase() !== 'e' || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      setExporting(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [skillFile]);

  if (!path || !skillDir) {
    return (
      <section className="skill-view empty" aria-label="Skill">
        <div className="empty-guide">
          {skillCount === 0 ? (
            <>
              <h2>No skills in this folder yet</h2>
              <p className="muted">A skill is a folder with a SKILL.md. Make the first one here.</p>
              <button type="button" className="primary" onClick={onNewSkill}>
                Create a skill here…
              </button>
            </>
          ) : (
            <>
              <h2>Choose a skill on the left</h2>
              <p className="muted">Its SKILL.md opens here, with its problems and their fixes.</p>
            </>
          )}
          <dl className="shortcuts">
            <dt>
              <kbd>Ctrl</kbd>+<kbd>K</kbd>
            </dt>
            <dd>search skills, then ↓ and Enter</dd>
            <dt>
              <kbd>Ctrl</kbd>+<kbd>N</kbd>
            </dt>
            <dd>new skill</dd>
            <dt>
              <kbd>Ctrl</kbd>+<kbd>S</kbd>
            </dt>
            <dd>save</dd>
            <dt>
              <kbd>Ctrl</kbd>+<kbd>E</kbd>
            </dt>
            <dd>export</dd>
          </dl>
        </div>
      </section>
    );
  }
  const relative = path.startsWith(skillDir) ? path.slice(skillDir.length + 1) : path;

  return (
    <section className="skill-view" aria-label="Skill">
      <div className="editor-toolbar">
        <button
          type="button"
          className="icon-button"
          aria-expanded={filesShown}
          aria-controls="skill-files"
          aria-label={filesShown ? 'Hide files' : 'Show files'}
          title={filesShown ? 'Hide the Files panel' : 'Show the Files panel'}
          onClick={() => setFilesShown(!filesShown)}
        >
          {filesShown ? (
            <PanelLeftClose size={16} aria-hidden />
          ) : (
            <PanelLeftOpen size={16} aria-hidden />
          )}
        </button>
        <span className="editor-path" title={path}>
          {skillDir.split(/[\\/]/).pop()}/{relative}
          {dirty ? (
            <span className="dirty-marker" aria-label="Unsaved changes">
              {' '}
              ●
            </span>
          ) : null}
        </span>
        {skillFile ? <Counters text={draft} /> : null}
        {skillFile ? (
          <ViewTabs
            label="Edit as"
            value={view}
            options={[
              { id: 'text', label: 'Text' },
              { id: 'form', label: 'Form' },
            ]}
            onChange={setView}
          />
        ) : null}
        <button type="button" aria-pressed={showPreview} onClick={togglePreview}>
          <Eye size={16} aria-hidden />
          Preview
        </button>
        <button
          type="button"
          onClick={() => setExporting(true)}
          disabled={!skillFile}
          aria-keyshortcuts="Control+E"
        >
          <FileOutput size={16} aria-hidden />
          Export…
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => void save()}
          disabled={status !== 'ready' || !dirty}
          aria-keyshortcuts="Control+S"
        >
          <Save size={16} aria-hidden />
          {status === 'saving' ? 'Saving…' : 'Save'}
        </button>
      </div>
      <ConflictBanner />
      <div className="skill-body">
        <div id="skill-files" className="files-panel" hidden={!filesShown}>
          <FileTree skillDir={skillDir} />
        </div>
        <div className="edit-area">
          <div className={view === 'form' && skillFile ? 'hidden-editor' : 'editor-wrap'}>
            <EditorPane />
          </div>
          {view === 'form' && skillFile ? (
            <Suspense fallback={<p className="muted">Loading the form…</p>}>
              <FormView
                text={draft}
                profiles={profiles}
                diagnostics={diagnostics}
                onChange={(text) => setDraft(text, false)}
              />
            </Suspense>
          ) : null}
        </div>
        {showPreview ? (
          <Suspense fallback={<p className="muted">Loading the preview…</p>}>
            <div className="preview-pane" aria-label="Preview">
              <MarkdownPreview
                markdown={body}
                allowRemote={allowRemote}
                onAllowRemote={() => setAllowRemote(true)}
                resolveImage={imageDataUrl}
                onOpenLink={(relativePath) =>
                  void useEditorStore.getState().open(`${skillDir}/${relativePath}`, skillDir)
                }
              />
            </div>
          </Suspense>
        ) : null}
      </div>
      {skillFile ? <ProblemsPanel hosts={hosts} /> : null}
      {skillFile ? <HostsPanel hosts={hosts} /> : null}
      <SafetyPanel />
      {exporting ? <ExportDialog skillDir={skillDir} onClose={() => setExporting(false)} /> : null}
    </section>
  );
}
