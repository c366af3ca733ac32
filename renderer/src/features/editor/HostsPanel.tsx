import { useDeferredValue, useMemo } from 'react';
import { hostCompatibility } from '../../../../shared/agent-view';
import { useLibraryStore } from '../library/stores';
import { useEditorStore } from './stores';
import './hosts-panel.css';

const VERDICT_WORDS = {
  ok: 'Ready',
  warning: 'Works, with warnings',
  problem: 'Would be refused',
  'not-applicable': 'Nothing to check',
} as const;

/**
 * Each host's view of the open skill (docs/agent-view.md §4): the Claude API (8 skills per
 * request, 8 MB per skill), Claude Code, MCP and OpenAI strict tools, beside the targets' own
 * problems. Computed from the buffer as it is typed, like the validation markers; a fix edits
 * SKILL.md the way a quick fix does.
 */
export function HostsPanel() {
  const draft = useDeferredValue(useEditorStore((s) => s.draft));
  const fileView = useEditorStore((s) => s.fileView);
  const applyFix = useEditorStore((s) => s.applyFix);
  const librarySkills = useLibraryStore((s) => s.skills.length);
  const hosts = useMemo(
    () =>
      hostCompatibility(draft, {
        ...(fileView ? { fileView } : {}),
        ...(librarySkills > 0 ? { librarySkills } : {}),
      }),
    [draft, fileView, librarySkills],
  );
  return (
    <section className="hosts-panel" aria-label="Hosts">
      <h2>How each host takes this skill</h2>
      <ul className="hosts">
        {hosts.map((h) => (
          <li key={h.host} className="host" data-host={h.host} data-verdict={h.verdict}>
            <strong>{h.label}</strong>:{' '}
            <span className={`verdict ${h.verdict}`}>{VERDICT_WORDS[h.verdict]}</span>
            <p className="muted">{h.summary}</p>
            {h.notes.length > 0 ? (
              <ul className="notes">
                {h.notes.map((n, i) => (
                  <li key={`${i}-${n.message}`} className={n.severity}>
                    {n.message}{' '}
                    {n.fix ? (
                      <button type="button" className="link" onClick={() => applyFix(n.fix!)}>
                        {n.fix.title}
                      </button>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
