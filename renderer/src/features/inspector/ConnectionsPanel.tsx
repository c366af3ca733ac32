import type { ConnectionStatus, SavedConnection } from '../../../../shared/inspector/types';
import { useInspectorStore } from './stores';

/** Plain words for a connection's state. */
function stateWords(status: ConnectionStatus, busy: string | undefined): string {
  if (busy) return busy;
  switch (status.state) {
    case 'connecting':
      return 'Connecting…';
    case 'authorizing':
      return 'Waiting for you to sign in in your browser…';
    case 'connected':
      return `Connected${status.serverInfo ? ` to ${status.serverInfo.name} ${status.serverInfo.version}` : ''}${status.skillsExtension ? ' · Skills extension' : ' · no Skills extension'}${status.directoryRead ? ' · folder listing' : ''}`;
    case 'failed':
      return 'Not connected';
    case 'disconnected':
      return 'Disconnected';
  }
}

/** What a saved connection holds, with secrets shown only as "saved". */
function savedSummary(c: SavedConnection): string {
  const parts = [c.kind === 'stdio' ? [c.command ?? '', ...c.args].join(' ') : (c.url ?? '')];
  if (c.hasBearerToken) parts.push('token: saved');
  for (const h of c.headers)
    parts.push(`${h.name}: ${h.secret ? (h.hasSecret ? 'saved' : 'missing') : (h.value ?? '')}`);
  for (const e of c.env)
    parts.push(`${e.name}=${e.secret ? (e.hasSecret ? 'saved' : 'missing') : (e.value ?? '')}`);
  if (c.oauth) parts.push(c.hasOAuthTokens ? 'OAuth: signed in' : 'OAuth when asked');
  return parts.join(' · ');
}

/** Saved connections and live ones: connect, reconnect, cancel, disconnect, with status and plain errors. */
export function ConnectionsPanel() {
  const saved = useInspectorStore((s) => s.connections);
  const statuses = useInspectorStore((s) => s.statuses);
  const busy = useInspectorStore((s) => s.busy);
  const errors = useInspectorStore((s) => s.connectionErrors);
  const { connect, reconnect, cancel, disconnect, removeConnection, discover } =
    useInspectorStore.getState();
  const live = Object.values(statuses);

  return (
    <>
      {saved.length > 0 ? (
        <section aria-label="Saved connections" className="insp-block">
          <h3>Saved connections</h3>
          <ul className="insp-plain-list">
            {saved.map((c) => (
              <li key={c.id} className="insp-saved">
                <strong>{c.label}</strong> <span className="muted">{savedSummary(c)}</span>
                <div className="row">
                  <button
                    type="button"
                    onClick={() => void connect({ savedId: c.id }, c.label)}
                    aria-label={`Connect to ${c.label}`}
                  >
                    Connect
                  </button>
                  <button
                    type="button"
                    onClick={() => void removeConnection(c.id)}
                    aria-label={`Delete the saved connection ${c.label}`}
                  >
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {live.length > 0 ? (
        <section aria-label="Connections" className="insp-block">
          <h3>Connections</h3>
          <ul className="insp-plain-list">
            {live.map((status) => {
              const working = busy[status.label];
              const pending =
                status.state === 'connecting' ||
                status.state === 'authorizing' ||
                working !== undefined;
              const error = errors[status.label];
              return (
                <li
                  key={status.label}
                  className="insp-connection"
                  data-state={pending ? 'busy' : status.state}
                  data-label={status.label}
                >
                  <div>
                    <strong>{status.label}</strong> <code className="muted">{status.target}</code>
                  </div>
                  <div role="status" className="insp-state">
                    {stateWords(status, working)}
                  </div>
                  {error ? (
                    <div role="alert" className="insp-error">
                      {error.message}
                      {error.detail ? (
                        <details>
                          <summary>Details</summary>
                          <code>{error.detail}</code>
                        </details>
                      ) : null}
                    </div>
                  ) : null}
                  <div className="row">
                    {pending ? (
                      <button
                        type="button"
                        onClick={() => void cancel(status.label)}
                        aria-label={`Cancel what ${status.label} is doing`}
                      >
                        Cancel
                      </button>
                    ) : (
                      <>
                        <button
                          type="button"
                          onClick={() => void reconnect(status.label)}
                          aria-label={`Reconnect ${status.label}`}
                        >
                          Reconnect
                        </button>
                        {status.state === 'connected' ? (
                          <button
                            type="button"
                            onClick={() => void discover(status.label)}
                            aria-label={`Discover again on ${status.label}`}
                          >
                            Discover again
                          </button>
                        ) : null}
                      </>
                    )}
                    <button
                      type="button"
                      onClick={() => void disconnect(status.label)}
                      aria-label={`Disconnect ${status.label}`}
                    >
                      Disconnect
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </>
  );
}
