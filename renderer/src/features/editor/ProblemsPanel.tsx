import { groupFindings } from '../../../../shared/validation/findings';
import type { HostReport } from '../../../../shared/agent-view';
import type { Diagnostic } from '../../../../shared/validation/types';
import { editorBridge } from './editor-bridge';
import { useNoticesStore } from '../../app/state/stores';
import { useEditorStore } from './stores';
import { profileLabel } from '../../ui/profile-labels';

const ORDER = { error: 0, warning: 1, info: 2 } as const;

/** The problems as rows (the same finding of several profiles once, naming them all), most severe first. */
function grouped(diagnostics: readonly Diagnostic[]): { d: Diagnostic; profiles: string[] }[] {
  return groupFindings(diagnostics)
    .map((g) => ({ d: g.d, profiles: g.all.map((x) => profileLabel(x.profile)) }))
    .sort(
      (a, b) =>
        ORDER[a.d.severity] - ORDER[b.d.severity] ||
        (a.d.range?.start.offset ?? 0) - (b.d.range?.start.offset ?? 0),
    );
}

/** "A and B", "A, B and C". */
function listed(names: readonly string[]): string {
  return names.length < 2
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Every problem of the open file in plain words, with one-click fixes and "Fix all safe problems".
 * The rows are the selected targets' findings; when the targets find no error but a host would
 * refuse the skill (its Hosts row), the panel says so, so the two never read as two answers.
 */
export function ProblemsPanel({ hosts = [] }: { hosts?: readonly HostReport[] }) {
  const profiles = useEditorStore((s) => s.profiles);
  const diagnostics = useEditorStore((s) => s.diagnostics);
  const disk = useEditorStore((s) => s.diskDiagnostics);
  const applyFix = useEditorStore((s) => s.applyFix);
  const fixAll = useEditorStore((s) => s.fixAll);
  const showNotice = useNoticesStore((s) => s.showNotice);
  const rows = grouped([...diagnostics, ...disk]);
  const safeCount = diagnostics.filter((d) => d.fixes?.some((f) => f.safe)).length;
  const errors = rows.filter((r) => r.d.severity === 'error').length;
  const warnings = rows.filter((r) => r.d.severity === 'warning').length;
  const refusing = hosts.filter((h) => h.refuses).map((h) => h.label);
  const misreading = hosts.filter((h) => h.verdict === 'problem' && !h.refuses).map((h) => h.label);

  return (
    <section className="problems" aria-label="Problems">
      <header>
        <h2>
          Problems{' '}
          <span className="muted">
            ({errors} {errors === 1 ? 'error' : 'errors'}, {warnings}{' '}
            {warnings === 1 ? 'warning' : 'warnings'})
          </span>
        </h2>
        <button
          type="button"
          disabled={safeCount === 0}
          onClick={() => {
            const n = fixAll();
            showNotice(
              n > 0
                ? `Fixed ${n} ${n === 1 ? 'problem' : 'problems'}. Review, then save.`
                : 'Nothing to fix automatically.',
            );
          }}
        >
          Fix all safe problems
        </button>
      </header>
      {rows.length === 0 ? (
        <p className="muted">
          No problems for the selected targets ({listed(profiles.map(profileLabel))}).
        </p>
      ) : null}
      {errors === 0 && refusing.length > 0 ? (
        <p className="problems-elsewhere" role="note">
          {listed(refusing)} would refuse this skill as it is now, for reasons outside the selected
          targets: the Hosts section below says why.
        </p>
      ) : null}
      {errors === 0 && misreading.length > 0 ? (
        <p className="problems-elsewhere" role="note">
          {listed(misreading)} would load this skill but not read it as written, for reasons outside
          the selected targets: the Hosts section below says why.
        </p>
      ) : null}
      <ul>
        {rows.map(({ d, profiles }) => (
          <li
            key={`${d.ruleId}-${d.range?.start.offset ?? 'file'}-${d.profile}`}
            className={`problem ${d.severity}`}
            data-rule={d.ruleId}
          >
            <span className={`severity ${d.severity}`}>{d.severity}</span>
            <div className="problem-text">
              <button
                type="button"
                className="link"
                onClick={() => d.range && editorBridge()?.reveal(d.range.start.offset)}
                disabled={!d.range}
              >
                {d.message}
              </button>
              <span className="problem-meta">
                {d.range
                  ? `line ${d.range.start.line}, column ${d.range.start.column} · `
                  : d.file
                    ? `${d.file} · `
                    : ''}
                {profiles.join(', ')} · <code>{d.ruleId}</code>
              </span>
              {d.detail ? (
                // Why labelled: the detail is a checker's own wording (what an upload or a
                // packaging script prints), for readers who meet that message elsewhere.
                <span className="problem-detail">Technical detail: {d.detail}</span>
              ) : null}
            </div>
            <div className="problem-fixes">
              {(d.fixes ?? [])
                .filter((f) => f.edits.length > 0 || (f.fileOperations?.length ?? 0) > 0)
                .map((fix) => (
                  <button type="button" key={fix.title} onClick={() => applyFix(fix)}>
                    {fix.title}
                  </button>
                ))}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
