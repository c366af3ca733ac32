import { useDeferredValue, useMemo } from 'react';
import { hostCompatibility, type HostReport } from '../../../../shared/agent-view';
import type { QuickFix } from '../../../../shared/validation/types';
import { CopyButton } from '../../ui/CopyButton';
import { useLibraryStore } from '../library/stores';
import { useEditorStore } from './stores';
import './hosts-panel.css';

/** A fix from a host's note, applied like a quick fix. */
function FixButton({ fix, onApply }: { fix: QuickFix; onApply: (fix: QuickFix) => void }) {
  return (
    <button type="button" className="link" onClick={() => onApply(fix)}>
      {fix.title}
    </button>
  );
}

/**
 * Each host's view of the open skill (docs/agent-view.md §4), computed from the buffer as it is
 * typed. One computation per render of the skill view: the Hosts strip shows it, and the problems
 * panel says when a host would refuse what the selected targets find no error in.
 */
export function useHostReports(): HostReport[] {
  const draft = useDeferredValue(useEditorStore((s) => s.draft));
  const fileView = useEditorStore((s) => s.fileView);
  const librarySkills = useLibraryStore((s) => s.skills.length);
  // The same gate the server, export and install apply: "Don't trust", not trusted anyway.
  const heldBack = useEditorStore((s) => s.safetyReview?.report.verdict === 'danger');
  const folderName = useEditorStore((s) => s.skillDir?.split(/[\\/]/).pop());
  return useMemo(
    () =>
      hostCompatibility(draft, {
        ...(fileView ? { fileView } : {}),
        ...(librarySkills > 0 ? { librarySkills } : {}),
        ...(heldBack ? { heldBack } : {}),
        ...(folderName ? { folderName } : {}),
      }),
    [draft, fileView, librarySkills, heldBack, folderName],
  );
}

/**
 * Each host's view of the open skill: the Claude API (8 skills per request, 8 MB per skill),
 * Claude Code, Codex (what Codex itself does with the file), MCP and OpenAI strict tools, beside the targets' own problems. A fix edits
 * SKILL.md the way a quick fix does.
 */
export function HostsPanel({ hosts }: { hosts: readonly HostReport[] }) {
  const applyFix = useEditorStore((s) => s.applyFix);
  return (
    <section className="hosts-panel" aria-label="Hosts">
      <details>
        <summary>
          <h2>Hosts</h2>{' '}
          <span className="hosts-summary">
            {hosts.map((h) => (
              <span key={h.host} className={`host-verdict hv-${h.verdict}`}>
                {h.label}: {h.words.toLowerCase()}
              </span>
            ))}
          </span>
        </summary>
        <ul className="hosts">
          {hosts.map((h) => (
            <li key={h.host} className="host" data-host={h.host} data-verdict={h.verdict}>
              <strong>{h.label}</strong>:{' '}
              <span className={`host-verdict hv-${h.verdict}`}>{h.words}</span>
              {h.verdict === 'ok' || h.verdict === 'not-applicable' ? (
                <p className="muted">{h.summary}</p>
              ) : null}
              {h.notes.length > 0 ? (
                <ul className="notes">
                  {h.notes.map((n, i) => (
                    <li key={`${i}-${n.message}`} className={`note-${n.severity}`}>
                      {n.message} {n.fix ? <FixButton fix={n.fix} onApply={applyFix} /> : null}
                      {n.copy ? <CopyButton text={n.copy.text} label={n.copy.label} /> : null}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
