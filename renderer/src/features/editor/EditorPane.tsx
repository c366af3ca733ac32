import { useEffect, useRef } from 'react';
import type { Diagnostic } from '../../../../shared/validation/types';
import { editorSchemaFor } from '../../ui/profile-schemas';
import { useSettingsStore } from '../../app/state/stores';
import { BOM, setEditorBridge } from './editor-bridge';
import { frontmatterLines } from './frontmatter-mirror';
import { CORE_MARKER_OWNER, SAFETY_MARKER_OWNER, toMarkers, toSafetyMarkers } from './markers';
import {
  FRONTMATTER_MODEL_URI,
  monaco,
  setFrontmatterSchema,
  SKILL_LANGUAGE,
} from './monaco-setup';
import { useEditorStore } from './stores';

/** Offsets in the store's text → offsets in Monaco's (which never holds the BOM). */
function modelOffset(text: string, offset: number): number {
  return text.startsWith(BOM) ? offset - 1 : offset;
}

/** Diagnostics currently shown, for the code-action provider (one provider per language, registered once). */
let shownDiagnostics: { uri: string; text: string; diagnostics: Diagnostic[] } = {
  uri: '',
  text: '',
  diagnostics: [],
};

monaco.languages.registerCodeActionProvider(SKILL_LANGUAGE, {
  provideCodeActions(model, range) {
    if (model.uri.toString() !== shownDiagnostics.uri)
      return { actions: [], dispose: () => undefined };
    const { text, diagnostics } = shownDiagnostics;
    const actions: monaco.languages.CodeAction[] = [];
    for (const d of diagnostics) {
      if (!d.fixes || d.fixes.length === 0) continue;
      const start = d.range?.start.line ?? 1;
      const end = d.range?.end.line ?? 1;
      if (end < range.startLineNumber || start > range.endLineNumber) continue;
      for (const fix of d.fixes) {
        // Why fixes that rename the folder are left to the Problems panel: a code action can only
        // change text, and the name without its folder would differ from the folder again.
        if (
          fix.edits.length === 0 ||
          fix.fileOperations?.length ||
          (text.startsWith(BOM) && fix.edits.some((e) => e.start < 1))
        )
          continue;
        actions.push({
          title: fix.title,
          kind: 'quickfix',
          isPreferred: fix.safe,
          edit: {
            edits: fix.edits.map((e) => {
              const from = model.getPositionAt(modelOffset(text, e.start));
              const to = model.getPositionAt(modelOffset(text, e.end));
              return {
                resource: model.uri,
                versionId: model.getVersionId(),
                textEdit: {
                  range: new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column),
                  text: e.newText,
                },
              };
            }),
          },
        });
      }
    }
    return { actions, dispose: () => undefined };
  },
});

/** The SKILL.md editor: Monaco with YAML-highlighted frontmatter, Markdown body, live markers and quick fixes. */
export function EditorPane() {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const path = useEditorStore((s) => s.path);
  const status = useEditorStore((s) => s.status);
  const externalRevision = useEditorStore((s) => s.externalRevision);
  const diagnostics = useEditorStore((s) => s.diagnostics);
  const diskDiagnostics = useEditorStore((s) => s.diskDiagnostics);
  const safetyFindings = useEditorStore((s) => s.safetyFindings);
  const profiles = useEditorStore((s) => s.profiles);
  const tabMovesFocus = useSettingsStore((s) => s.tabMovesFocus);

  useEffect(() => {
    if (!host.current) return;
    const mirror =
      monaco.editor.getModel(FRONTMATTER_MODEL_URI) ??
      monaco.editor.createModel('', 'yaml', FRONTMATTER_MODEL_URI);
    const editor = monaco.editor.create(host.current, {
      automaticLayout: true,
      language: SKILL_LANGUAGE,
      theme: 'vs-dark',
      wordWrap: 'on',
      minimap: { enabled: false },
      fontSize: 14,
      ariaLabel: 'SKILL.md editor',
      quickSuggestions: { other: true, comments: false, strings: false },
      lightbulb: { enabled: monaco.editor.ShowLightbulbIconMode.OnCode },
      renderValidationDecorations: 'on',
      // Why: Tab moves on to the next control unless the user chose otherwise (settings store);
      // a keyboard user is never trapped in the editor. Ctrl+S is the window's (app/App.tsx).
      tabFocusMode: useSettingsStore.getState().tabMovesFocus,
    });
    editorRef.current = editor;
    // Ctrl+M switches what Tab does, as in VS Code, but remembered with the settings.
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyM, () => {
      const settings = useSettingsStore.getState();
      settings.setTabMovesFocus(!settings.tabMovesFocus);
    });
    const changes = editor.onDidChangeModelContent(() => {
      const model = editor.getModel();
      if (!model) return;
      const hasBom = useEditorStore.getState().draft.startsWith(BOM);
      const text = (hasBom ? BOM : '') + model.getValue();
      useEditorStore.getState().setDraft(text, true);
      mirror.setValue(frontmatterLines(text));
    });
    setEditorBridge({
      applyEdits(edits) {
        const model = editor.getModel();
        const text = useEditorStore.getState().draft;
        if (!model || (text.startsWith(BOM) && edits.some((e) => e.start < 1))) return false;
        editor.pushUndoStop();
        editor.executeEdits(
          'skillbench-fix',
          edits.map((e) => {
            const from = model.getPositionAt(modelOffset(text, e.start));
            const to = model.getPositionAt(modelOffset(text, Math.min(e.end, text.length)));
            return {
              range: new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column),
              text: e.newText,
            };
          }),
        );
        editor.pushUndoStop();
        return true;
      },
      reveal(offset) {
        const model = editor.getModel();
        if (!model) return;
        const position = model.getPositionAt(modelOffset(useEditorStore.getState().draft, offset));
        editor.setPosition(position);
        editor.revealPositionInCenter(position);
        editor.focus();
      },
    });
    return () => {
      setEditorBridge(null);
      changes.dispose();
      editor.getModel()?.dispose();
      editor.dispose();
      editorRef.current = null;
    };
  }, []);

  // Open a document, or follow a change made outside the editor widget (fix, form view, reload).
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || !path || (status !== 'ready' && status !== 'saving')) return;
    const { draft } = useEditorStore.getState();
    const modelText = draft.startsWith(BOM) ? draft.slice(1) : draft;
    const uri = monaco.Uri.file(path);
    let model = editor.getModel();
    if (!model || model.uri.toString() !== uri.toString()) {
      model?.dispose();
      model = monaco.editor.getModel(uri) ?? monaco.editor.createModel('', SKILL_LANGUAGE, uri);
      // Why: keep the file's own line endings; Monaco would otherwise write LF.
      model.setEOL(
        modelText.includes('\r\n')
          ? monaco.editor.EndOfLineSequence.CRLF
          : monaco.editor.EndOfLineSequence.LF,
      );
      model.setValue(modelText);
      editor.setModel(model);
      monaco.editor.getModel(FRONTMATTER_MODEL_URI)?.setValue(frontmatterLines(draft));
      editor.focus();
    } else if (model.getValue() !== modelText) {
      model.pushEditOperations(
        [],
        [{ range: model.getFullModelRange(), text: modelText }],
        () => null,
      );
      monaco.editor.getModel(FRONTMATTER_MODEL_URI)?.setValue(frontmatterLines(draft));
    }
  }, [path, status, externalRevision]);

  // Live markers from the core, plus the disk checks from the last save.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model || !path) return;
    const all = [...diagnostics, ...diskDiagnostics];
    shownDiagnostics = {
      uri: model.uri.toString(),
      text: useEditorStore.getState().draft,
      diagnostics: all,
    };
    monaco.editor.setModelMarkers(model, CORE_MARKER_OWNER, toMarkers(all));
  }, [diagnostics, diskDiagnostics, path]);

  // Live safety markers: the same rules as the review panel, on every change.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model || !path) return;
    monaco.editor.setModelMarkers(model, SAFETY_MARKER_OWNER, toSafetyMarkers(safetyFindings));
  }, [safetyFindings, path, status]);

  useEffect(() => {
    editorRef.current?.updateOptions({ tabFocusMode: tabMovesFocus });
  }, [tabMovesFocus]);

  useEffect(() => {
    const { uri, schema } = editorSchemaFor(profiles);
    setFrontmatterSchema(schema, uri);
  }, [profiles]);

  return (
    <div
      className="editor-host"
      ref={host}
      data-testid="editor"
      data-state={status}
      data-dirty={useEditorStore((s) => (s.draft !== s.savedText ? 'true' : 'false'))}
    />
  );
}
