import { Fragment, useId, useState } from 'react';
import type { ProtocolLogEntry } from '../../../../shared/inspector/types';
import { useInspectorStore } from './stores';
import { TextExport } from './TextExport';

/** The protocol log: every JSON-RPC message with direction, time, duration and method; filterable; exportable as JSON. */
export function ProtocolLogPanel() {
  const log = useInspectorStore((s) => s.log);
  const detail = useInspectorStore((s) => s.logDetail);
  const { showLogEntry, exportLog } = useInspectorStore.getState();
  const [filter, setFilter] = useState('');
  const [direction, setDirection] = useState<'all' | 'out' | 'in'>('all');
  const [exported, setExported] = useState<string | null>(null);
  const id = useId();
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = log.filter((e) => {
    if (direction !== 'all' && e.direction !== direction) return false;
    const hay =
      `${e.server} ${e.method ?? ''} ${e.inReplyTo ?? ''} ${e.kind} ${e.id ?? ''}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });

  return (
    <section aria-label="Protocol log" className="insp-block insp-log">
      <div className="row">
        <label htmlFor={`${id}-filter`}>Filter</label>
        <input
          id={`${id}-filter`}
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="method, server or kind"
        />
        <label htmlFor={`${id}-dir`}>Direction</label>
        <select
          id={`${id}-dir`}
          value={direction}
          onChange={(e) => setDirection(e.target.value as 'all' | 'out' | 'in')}
        >
          <option value="all">both</option>
          <option value="out">sent</option>
          <option value="in">received</option>
        </select>
        <button
          type="button"
          onClick={() => void exportLog(direction === 'all' ? {} : { direction }).then(setExported)}
        >
          Export as JSON
        </button>
        {exported !== null ? (
          <TextExport
            text={exported}
            fileName="protocol-log.json"
            mimeType="application/json"
            label="log JSON"
          />
        ) : null}
      </div>
      <p className="muted">
        {shown.length} of {log.length} messages
      </p>
      <table className="insp-table">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Server</th>
            <th scope="col">Direction</th>
            <th scope="col">Kind</th>
            <th scope="col">Method</th>
            <th scope="col">Duration</th>
            <th scope="col">Size</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {[...shown]
            .reverse()
            .slice(0, 300)
            .map((e) => (
              <Fragment key={e.seq}>
                <tr
                  className={e.kind === 'error' && !e.expectedProbe ? 'failed' : ''}
                  data-probe={e.expectedProbe ? 'expected' : undefined}
                  data-method={e.method ?? e.inReplyTo ?? ''}
                >
                  <td>{new Date(e.time).toLocaleTimeString()}</td>
                  <td>{e.server}</td>
                  <td>{e.direction === 'out' ? '→ sent' : '← received'}</td>
                  <td>
                    {e.kind}
                    {e.expectedProbe ? <span className="muted"> (expected probe)</span> : null}
                  </td>
                  <td>{methodLabel(e)}</td>
                  <td>{e.durationMs !== undefined ? `${e.durationMs} ms` : ''}</td>
                  <td>{e.bytes} B</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => void showLogEntry(detail?.seq === e.seq ? null : e.seq)}
                      aria-label={`${detail?.seq === e.seq ? 'Hide' : 'Show'} message ${e.seq}`}
                      aria-expanded={detail?.seq === e.seq}
                    >
                      {detail?.seq === e.seq ? 'Hide' : 'Show'}
                    </button>
                  </td>
                </tr>
                {detail?.seq === e.seq ? (
                  <tr className="insp-log-detail-row">
                    <td colSpan={8}>
                      <div
                        className="insp-log-detail"
                        // Why: a long message must not leave the user looking at the row alone.
                        ref={(el) => el?.scrollIntoView({ block: 'nearest' })}
                        role="group"
                        aria-label={`Message ${detail.seq}`}
                      >
                        {detail.truncated ? <p>Cut down: too large to keep.</p> : null}
                        <pre className="insp-source" tabIndex={0}>
                          <code>{JSON.stringify(detail.message, null, 2)}</code>
                        </pre>
                      </div>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
        </tbody>
      </table>
    </section>
  );
}

/** A row's method: a request's own, or for an answer the request's method and its id (`skills/list → #59`). */
function methodLabel(e: Omit<ProtocolLogEntry, 'message'>): string {
  if (e.method !== undefined) return e.method;
  if (e.id === undefined) return '';
  return e.inReplyTo !== undefined ? `${e.inReplyTo} → #${e.id}` : `#${e.id}`;
}
