import { useState } from 'react';
import { SafetyReportView } from '../../ui/SafetyReport';
import { TrustDialog } from '../../ui/TrustDialog';
import { useEditorStore } from './stores';

/**
 * The safety review of the open skill's saved files (the editor's markers review the buffer
 * live with the same rules), with "Trust anyway…" and "Stop trusting".
 */
export function SafetyPanel() {
  const reviewed = useEditorStore((s) => s.safetyReview);
  const skillDir = useEditorStore((s) => s.skillDir);
  const dirty = useEditorStore((s) => s.draft !== s.savedText);
  const trustSkill = useEditorStore((s) => s.trustSkill);
  const untrustSkill = useEditorStore((s) => s.untrustSkill);
  const loadSafety = useEditorStore((s) => s.loadSafety);
  const [trusting, setTrusting] = useState(false);
  if (!reviewed || !skillDir) {
    return (
      <section className="safety-panel" aria-label="Safety review">
        <p className="muted">Reviewing the skill…</p>
      </section>
    );
  }
  const verdict = reviewed.report.verdict;
  return (
    <section className="safety-panel" aria-label="Safety review">
      <SafetyReportView
        collapsible
        reviewed={reviewed}
        heading={dirty ? 'Safety review (saved version)' : 'Safety review'}
        onOpenFinding={(file) =>
          void useEditorStore.getState().open(`${skillDir}/${file}`, skillDir)
        }
        actions={
          <>
            <button type="button" onClick={() => void loadSafety()}>
              Review again
            </button>
            {verdict !== 'clear' && !reviewed.accepted ? (
              <button type="button" className="danger" onClick={() => setTrusting(true)}>
                Trust anyway…
              </button>
            ) : null}
            {reviewed.accepted ? (
              <button type="button" onClick={() => void untrustSkill()}>
                Stop trusting
              </button>
            ) : null}
          </>
        }
      />
      {trusting ? (
        <TrustDialog
          reviewed={reviewed}
          doing="serve, install and export it without stopping"
          onCancel={() => setTrusting(false)}
          onConfirm={(reason, days) => {
            setTrusting(false);
            void trustSkill(reason, days);
          }}
        />
      ) : null}
    </section>
  );
}
