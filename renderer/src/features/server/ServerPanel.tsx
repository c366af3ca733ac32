import { count } from '../../../../shared/text/words';
import type { AddToClientOutcome, McpClientId } from '../../../../shared/ipc/contract';
import { useEffect, useState } from 'react';
import { CopyButton } from '../../ui/CopyButton';
import { useServerStore } from './stores';

/** What stands for the access token wherever it is hidden. */
const TOKEN_MASK = '••••••••••••';

/** What "Add to …" did, in a sentence. */
function outcomeSentence(o: AddToClientOutcome): string {
  switch (o.status) {
    case 'added':
    case 'replaced':
      return `${o.status === 'added' ? 'Added to' : 'Replaced the “skillbench” server in'} ${o.path}. Restart ${o.client} to use it.${o.previous ? ' The file as it was is in Skillbench’s trash.' : ''}`;
    case 'already':
      return `${o.client} already has this setup (${o.path}).`;
    case 'conflict':
      return `${o.path} already has a server named “${o.name}” with another setup.`;
    case 'refused':
      return o.message;
  }
}

/** "Add to Claude Desktop": writes the setup into the client's own file, asking before it replaces. */
function AddToClient({
  client,
  label,
  path,
}: {
  client: McpClientId;
  label: string;
  path: string;
}) {
  const addToClient = useServerStore((s) => s.addToClient);
  const [outcome, setOutcome] = useState<AddToClientOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (replace: boolean) => {
    setBusy(true);
    setOutcome((await addToClient(client, replace)) ?? null);
    setBusy(false);
  };
  return (
    <div className="snippet-add">
      <button
        type="button"
        disabled={busy}
        title={`Writes this setup into ${path}`}
        onClick={() => void run(false)}
      >
        Add to {label}
      </button>
      {outcome ? (
        <p
          className={`help snippet-outcome${outcome.status === 'refused' ? ' error-text' : ''}`}
          role={outcome.status === 'refused' ? 'alert' : 'status'}
        >
          {outcomeSentence(outcome)}{' '}
          {outcome.status === 'conflict' ? (
            <button type="button" disabled={busy} onClick={() => void run(true)}>
              Replace it
            </button>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The embedded MCP skills server: start/stop, address, token, client setup, served skills, live
 * log. `onOpenSkill` opens a skill folder that is not served in the editor, to fix it there.
 */
export function ServerPanel({ onOpenSkill }: { onOpenSkill?: (dir: string) => void }) {
  const panel = useServerStore((s) => s.panel);
  const busy = useServerStore((s) => s.busy);
  const { load, start, stop, regenerateToken } = useServerStore.getState();
  const [showToken, setShowToken] = useState(false);

  useEffect(() => {
    // Live updates arrive through the app's one event listener; this loads what is there now.
    void load();
  }, [load]);

  if (!panel)
    return <section className="server-panel" aria-label="Skills server" data-state="loading" />;
  const { status, catalog, requests, clientSetup } = panel;
  const running = status.state === 'running';

  return (
    <section className="server-panel" aria-label="Skills server" data-state={status.state}>
      <header className="server-head">
        <h2>Skills server</h2>
        <p>
          Serves your library to any MCP client (Claude Desktop, Claude Code, Cursor, VS Code) with
          the Skills extension, on this computer only (127.0.0.1).
        </p>
        <div className="row">
          {running ? (
            <button type="button" onClick={() => void stop()} disabled={busy}>
              Stop server
            </button>
          ) : (
            <button
              type="button"
              className="primary"
              onClick={() => void start()}
              disabled={busy || status.roots.length === 0}
            >
              Start server
            </button>
          )}
          <span role="status" className="server-state">
            {status.state === 'running'
              ? `Running at ${status.url ?? ''} · ${
                  status.sessions > 0
                    ? `${status.sessions} ${status.sessions === 1 ? 'client' : 'clients'} connected`
                    : requests.length > 0
                      ? `no client connected now (${requests.length} ${requests.length === 1 ? 'request' : 'requests'} served)`
                      : 'waiting for a client'
                }`
              : status.state === 'failed'
                ? `Could not start: ${status.error ?? 'unknown reason'}`
                : status.roots.length === 0
                  ? 'Open a library folder first.'
                  : 'Stopped'}
          </span>
        </div>
        {running && status.token ? (
          <div className="row token-row">
            <label htmlFor="server-token">Access token</label>
            <input
              id="server-token"
              readOnly
              value={showToken ? status.token : TOKEN_MASK}
              spellCheck={false}
            />
            <button type="button" onClick={() => setShowToken(!showToken)} aria-pressed={showToken}>
              {showToken ? 'Hide' : 'Show'}
            </button>
            <CopyButton text={status.token} label="Copy the access token" />
            <button type="button" onClick={() => void regenerateToken()} disabled={busy}>
              New token
            </button>
          </div>
        ) : null}
        {!panel.tokenStored ? (
          <p className="help">
            The token is not stored in this browser window; it changes when Skillbench restarts.
          </p>
        ) : null}
      </header>

      <div className="server-columns">
        <section aria-label="Client setup" className="client-setup">
          <h3>Connect a client</h3>
          {status.roots.length === 0 ? (
            <p className="help">
              Open a library folder first: each setup names the folders it serves.
            </p>
          ) : clientSetup.some((s) => s.transport === 'stdio') ? null : (
            <p className="help">
              A client cannot start this copy of Skillbench by itself, so only the setups over HTTP
              are offered{running ? '.' : ': start the server to see them.'}
            </p>
          )}
          {(status.roots.length === 0 ? [] : clientSetup).map((snippet) => (
            <div key={snippet.id} className="snippet">
              <div className="row">
                <strong>
                  {snippet.client} (
                  {snippet.transport === 'stdio' ? 'started by the client' : 'over HTTP'})
                </strong>
                <CopyButton
                  text={snippet.text}
                  label={`Copy the setup for ${snippet.client} (${snippet.transport})`}
                />
              </div>
              <p className="help">{snippet.where}</p>
              {snippet.addTo ? (
                <AddToClient
                  client={snippet.addTo.client}
                  label={snippet.client}
                  path={snippet.addTo.path}
                />
              ) : null}
              <pre>
                <code>
                  {/* Why: the token is shown only where the user asked to see it (Show, above); Copy copies it. */}
                  {status.token && !showToken
                    ? snippet.text.split(status.token).join(TOKEN_MASK)
                    : snippet.text}
                </code>
              </pre>
            </div>
          ))}
        </section>

        <section aria-label="Served skills" className="served">
          <h3>Served skills {catalog ? `(${catalog.served.length})` : ''}</h3>
          {!catalog ? <p className="muted">Start the server to build the catalog.</p> : null}
          <ul>
            {catalog?.served.map((s) => (
              <li key={s.uri}>
                <code>{s.skillPath}</code> <span className="muted">{count(s.files, 'file')}</span>
              </li>
            ))}
          </ul>
          {catalog && catalog.excluded.length > 0 ? (
            <>
              <h3>Not served ({catalog.excluded.length})</h3>
              <ul className="excluded">
                {catalog.excluded.map((e) => (
                  <li key={e.dir}>
                    <code>{e.relativeDir || e.dir}</code>
                    {onOpenSkill ? (
                      <>
                        {' '}
                        <button
                          type="button"
                          className="link-button"
                          onClick={() => onOpenSkill(e.dir)}
                          aria-label={`Open ${e.relativeDir || e.dir} in the editor`}
                        >
                          Open in the editor
                        </button>
                      </>
                    ) : null}
                    <ul>
                      {e.reasons.map((r) => (
                        <li key={r}>{r}</li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
      </div>

      <section aria-label="Request log" className="request-log">
        <h3>Requests</h3>
        <table>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Method</th>
              <th scope="col">URI</th>
              <th scope="col">Status</th>
              <th scope="col">ms</th>
            </tr>
          </thead>
          <tbody>
            {[...requests]
              .reverse()
              .slice(0, 100)
              .map((r, i) => (
                <tr key={`${r.time}-${i}`} className={r.status === 'ok' ? '' : 'failed'}>
                  <td>{new Date(r.time).toLocaleTimeString()}</td>
                  <td>{r.method}</td>
                  <td>{r.uri ?? ''}</td>
                  <td title={r.message}>{r.status}</td>
                  <td>{Math.round(r.ms)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}
