import { useId, useState } from 'react';
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
    const hay = `${e.server} ${e.method ?? ''} ${e.kind} ${e.id ?? ''}`.toLowerCase();
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
              <tr
                key={e.seq}
                className={e.kind === 'error' ? 'failed' : ''}
                data-method={e.method ?? ''}
              >
                <td>{new Date(e.time).toLocaleTimeString()}</td>
                <td>{e.server}</td>
                <td>{e.direction === 'out' ? '→ sent' : '← received'}</td>
                <td>{e.kind}</td>
                <td>{e.method ?? (e.id !== undefined ? `#${e.id}` : '')}</td>
                <td>{e.durationMs !== undefined ? `${e.durationMs} ms` : ''}</td>
                <td>{e.bytes} B</td>
                <td>
                  <button
                    type="button"
                    onClick={() => void showLogEntry(e.seq)}
                    aria-label={`Show message ${e.seq}`}
                  >
                    Show
                  </button>
                </td>
              </tr>
            ))}
        </tbody>
      </table>
      {detail ? (
        <div className="insp-log-detail" role="group" aria-label={`Message ${detail.seq}`}>
          <div className="row">
            <strong>
              Message {detail.seq} {detail.truncated ? '(cut down: too large to keep)' : ''}
            </strong>
            <button type="button" onClick={() => void showLogEntry(null)}>
              Hide
            </button>
          </div>
          <pre className="insp-source" tabIndex={0}>
            <code>{JSON.stringify(detail.message, null, 2)}</code>
          </pre>
        </div>
      ) : null}
    </section>
  );
}
