import { useEffect, useRef } from 'react';
import { FRONTMATTER_MODEL_URI, monaco, setFrontmatterSchema, SKILL_LANGUAGE } from '../editor/monaco-setup';
import { frontmatterLines, FRONTMATTER_SCHEMA } from '../editor/frontmatter-mirror';
import { useLibraryStore } from '../state/library-store';

/** The SKILL.md editor: Monaco, YAML-highlighted frontmatter, Markdown body, Ctrl+S saves. */
export function EditorPane() {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const openPath = useLibraryStore((s) => s.openPath);
  const savedText = useLibraryStore((s) => s.savedText);
  const editorState = useLibraryStore((s) => s.editorState);
  const dirty = useLibraryStore((s) => s.draft !== s.savedText);

  useEffect(() => {
    if (!host.current) return;
    setFrontmatterSchema(FRONTMATTER_SCHEMA, 'skillbench://schemas/agentskills.json');
    const mirror = monaco.editor.getModel(FRONTMATTER_MODEL_URI) ?? monaco.editor.createModel('', 'yaml', FRONTMATTER_MODEL_URI);
    const editor = monaco.editor.create(host.current, {
      automaticLayout: true,
      language: SKILL_LANGUAGE,
      theme: 'vs-dark',
      wordWrap: 'on',
      minimap: { enabled: false },
      fontSize: 14,
      ariaLabel: 'SKILL.md editor',
      quickSuggestions: false,
    });
    editorRef.current = editor;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => void useLibraryStore.getState().save());
    const changes = editor.onDidChangeModelContent(() => {
      const text = editor.getValue();
      useLibraryStore.getState().setDraft(text);
      mirror.setValue(frontmatterLines(text));
    });
    // Schema problems that monaco-yaml finds in the mirror are shown on the real model, one line down
    // (the frontmatter starts on line 2, after the opening ---: ARCHITECTURE "Decisions").
    const markers = monaco.editor.onDidChangeMarkers((uris) => {
      if (!uris.some((u) => u.toString() === FRONTMATTER_MODEL_URI.toString())) return;
      const model = editor.getModel();
      if (!model) return;
      const mapped = monaco.editor.getModelMarkers({ resource: FRONTMATTER_MODEL_URI }).map((m) => ({
        ...m,
        startLineNumber: m.startLineNumber + 1,
        endLineNumber: m.endLineNumber + 1,
      }));
      monaco.editor.setModelMarkers(model, 'frontmatter-schema', mapped);
    });
    return () => {
      changes.dispose();
      markers.dispose();
      editor.getModel()?.dispose();
      editor.dispose();
      editorRef.current = null;
    };
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || editorState !== 'ready' || !openPath) return;
    const current = editor.getModel();
    if (current && current.uri.toString() === monaco.Uri.file(openPath).toString()) return;
    current?.dispose();
    const model = monaco.editor.createModel(savedText, SKILL_LANGUAGE, monaco.Uri.file(openPath));
    editor.setModel(model);
    monaco.editor.getModel(FRONTMATTER_MODEL_URI)?.setValue(frontmatterLines(savedText));
    editor.focus();
  }, [openPath, editorState, savedText]);

  return (
    <section className="editor-pane" aria-label="Editor">
      <div className="editor-toolbar">
        <span className="editor-path" title={openPath ?? ''}>
          {openPath ? openPath : 'Choose a skill on the left to edit its SKILL.md'}
          {dirty ? <span className="dirty-marker" aria-label="Unsaved changes"> ●</span> : null}
        </span>
        <button
          type="button"
          onClick={() => void useLibraryStore.getState().save()}
          disabled={!openPath || editorState !== 'ready' || !dirty}
        >
          {editorState === 'saving' ? 'Saving…' : 'Save'}
        </button>
      </div>
      <div
        className="editor-host"
        ref={host}
        data-testid="editor"
        data-state={editorState}
        data-dirty={dirty ? 'true' : 'false'}
        hidden={!openPath}
      />
    </section>
  );
}
