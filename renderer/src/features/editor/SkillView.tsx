import { lazy, Suspense, useMemo, useState } from 'react';
import { parseSkill } from '../../../../shared/skill';
import { ExportDialog } from '../export/ExportDialog';
import { ConflictBanner } from './ConflictBanner';
import { isSkillFile } from './editor-store';
import { EditorPane } from './EditorPane';
import { FileTree } from './FileTree';
import { HostsPanel } from './HostsPanel';
import { ProblemsPanel } from './ProblemsPanel';
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
      tokens: Math.ceil(parsed.body.length / 4),
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
export function SkillView() {
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
  const imageDataUrl = useFilesStore((s) => s.imageDataUrl);
  const [allowRemote, setAllowRemote] = useState(false);
  const [exporting, setExporting] = useState(false);
  const skillFile = isSkillFile(path);
  const body = useMemo(() => (skillFile ? parseSkill(draft).body : draft), [draft, skillFile]);

  if (!path || !skillDir) {
    return (
      <section className="skill-view empty" aria-label="Skill">
        <p className="muted">Choose a skill on the left, or create one with New skill.</p>
      </section>
    );
  }
  const relative = path.startsWith(skillDir) ? path.slice(skillDir.length + 1) : path;

  return (
    <section className="skill-view" aria-label="Skill">
      <div className="editor-toolbar">
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
          <div role="tablist" aria-label="Edit as" className="view-tabs">
            <button
              type="button"
              role="tab"
              aria-selected={view === 'text'}
              onClick={() => setView('text')}
            >
              Text
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={view === 'form'}
              onClick={() => setView('form')}
            >
              Form
            </button>
          </div>
        ) : null}
        <button type="button" aria-pressed={showPreview} onClick={togglePreview}>
          Preview
        </button>
        <button type="button" onClick={() => setExporting(true)} disabled={!skillFile}>
          Export…
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => void save()}
          disabled={status !== 'ready' || !dirty}
        >
          {status === 'saving' ? 'Saving…' : 'Save'}
        </button>
      </div>
      <ConflictBanner />
      <div className="skill-body">
        <FileTree skillDir={skillDir} />
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
      {skillFile ? <ProblemsPanel /> : null}
      {skillFile ? <HostsPanel /> : null}
      {exporting ? <ExportDialog skillDir={skillDir} onClose={() => setExporting(false)} /> : null}
    </section>
  );
}
