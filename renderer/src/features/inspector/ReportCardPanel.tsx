import { count } from '../../../../shared/text/words';
import type { CheckStatus } from '../../../../shared/inspector/types';
import { useInspectorStore } from './stores';
import { TextExport } from './TextExport';

/** Words for a check's outcome. */
const OUTCOME: Record<CheckStatus, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warning',
  skip: 'not applicable',
};

/** The server report card: one action checks a server against the Skills extension; pass/fail per check with evidence; export. */
export function ReportCardPanel() {
  const statuses = useInspectorStore((s) => s.statuses);
  const reports = useInspectorStore((s) => s.reports);
  const reporting = useInspectorStore((s) => s.reporting);
  const runReport = useInspectorStore((s) => s.runReport);
  const connected = Object.values(statuses).filter((s) => s.state === 'connected');

  if (connected.length === 0)
    return <p className="muted">Connect to a server to check it against the Skills extension.</p>;
  return (
    <div className="insp-reports">
      {connected.map(({ label }) => {
        const output = reports[label];
        return (
          <section
            key={label}
            aria-label={`Report card for ${label}`}
            className="insp-block"
            data-state={reporting === label ? 'running' : output ? 'ready' : 'idle'}
          >
            <div className="row">
              <h3>Report card: {label}</h3>
              <button
                type="button"
                onClick={() => void runReport(label)}
                disabled={reporting !== null}
                aria-label={`${output ? 'Check again' : 'Check this server'}: ${label}`}
              >
                {output ? 'Check again' : 'Check this server'}
              </button>
            </div>
            {reporting === label ? (
              <p role="status">Checking the server; this reads every listed file…</p>
            ) : null}
            {output ? (
              <>
                <p
                  role="status"
                  className={output.report.verdict === 'pass' ? 'insp-ok' : 'insp-error'}
                  data-verdict={output.report.verdict}
                >
                  {output.report.verdict === 'pass'
                    ? 'The server follows the Skills extension.'
                    : 'The server does not follow the Skills extension in some checks.'}{' '}
                  {output.report.counts.pass} passed, {output.report.counts.fail} failed,{' '}
                  {count(output.report.counts.warn, 'warning')} (
                  {count(output.report.skills, 'skill')}, {count(output.report.files, 'file')},{' '}
                  {Math.round(output.report.durationMs)} ms).
                </p>
                <div className="row">
                  <TextExport
                    text={output.markdown}
                    fileName={`report-${label}.md`}
                    mimeType="text/markdown"
                    label="Markdown"
                  />
                  <TextExport
                    text={output.json}
                    fileName={`report-${label}.json`}
                    mimeType="application/json"
                    label="JSON"
                  />
                </div>
                <table className="insp-table">
                  <caption className="insp-visually-hidden">Checks</caption>
                  <thead>
                    <tr>
                      <th scope="col">Check</th>
                      <th scope="col">Result</th>
                      <th scope="col">Evidence</th>
                    </tr>
                  </thead>
                  <tbody>
                    {output.report.checks.map((c) => (
                      <tr key={c.id} data-status={c.status} data-check={c.id}>
                        <th scope="row">
                          {c.title}
                          <br />
                          <span className="muted">{c.source}</span>
                        </th>
                        <td>
                          <span className={`insp-badge insp-check-${c.status}`}>
                            {OUTCOME[c.status]}
                          </span>
                        </td>
                        <td>
                          {c.summary}
                          {c.evidence.length > 0 ? (
                            <details>
                              <summary>Evidence ({c.evidence.length})</summary>
                              <ul>
                                {c.evidence.map((e, i) => (
                                  <li key={i}>
                                    <code>{e}</code>
                                  </li>
                                ))}
                              </ul>
                            </details>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
