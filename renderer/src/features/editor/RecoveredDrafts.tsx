import { useEditorStore } from './stores';

/** Unsaved changes found from an earlier session (a crash or a closed window): restore or discard. */
export function RecoveredDrafts() {
  const recovered = useEditorStore((s) => s.recovered);
  const restore = useEditorStore((s) => s.restoreDraft);
  const discard = useEditorStore((s) => s.discardDraft);
  if (recovered.length === 0) return null;
  return (
    <section className="banner recovered" aria-label="Recovered changes">
      <span>Skillbench kept these unsaved changes:</span>
      <ul>
        {recovered.map((draft) => (
          <li key={draft.path}>
            <code>{draft.path}</code>{' '}
            <span className="muted">({new Date(draft.savedAt).toLocaleString()})</span>{' '}
            <button type="button" onClick={() => void restore(draft)}>
              Restore
            </button>{' '}
            <button type="button" onClick={() => void discard(draft)}>
              Discard
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
