import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import {
  readClientConfig,
  type ConfiguredServer,
} from '../../../../shared/inspector/client-config';
import type { ConnectionInput, TransportKind } from '../../../../shared/inspector/types';
import { useInspectorStore } from './stores';

interface Pair {
  name: string;
  value: string;
  secret: boolean;
}

/** Rows of name/value pairs (headers or environment variables), each of which may be marked secret. */
function PairRows({
  legend,
  rows,
  onChange,
  namePlaceholder,
}: {
  legend: string;
  rows: Pair[];
  onChange: (rows: Pair[]) => void;
  namePlaceholder: string;
}) {
  const id = useId();
  const update = (i: number, patch: Partial<Pair>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="insp-pairs">
      <legend>{legend}</legend>
      {rows.map((row, i) => (
        <div className="insp-pair" key={i}>
          <label htmlFor={`${id}-n${i}`} className="insp-visually-hidden">
            {legend} {i + 1} name
          </label>
          <input
            id={`${id}-n${i}`}
            value={row.name}
            placeholder={namePlaceholder}
            spellCheck={false}
            onChange={(e) => update(i, { name: e.target.value })}
          />
          <label htmlFor={`${id}-v${i}`} className="insp-visually-hidden">
            {legend} {i + 1} value
          </label>
          <input
            id={`${id}-v${i}`}
            value={row.value}
            placeholder="value"
            spellCheck={false}
            type={row.secret ? 'password' : 'text'}
            autoComplete="off"
            onChange={(e) => update(i, { value: e.target.value })}
          />
          <label className="insp-check">
            <input
              type="checkbox"
              checked={row.secret}
              onChange={(e) => update(i, { secret: e.target.checked })}
            />{' '}
            secret
          </label>
          <button
            type="button"
            aria-label={`Remove ${legend.toLowerCase()} ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        onClick={() => onChange([...rows, { name: '', value: '', secret: false }])}
      >
        Add {legend.toLowerCase().replace(/s$/, '')}
      </button>
    </fieldset>
  );
}

const KINDS: { kind: TransportKind; label: string; help: string }[] = [
  {
    kind: 'http',
    label: 'Streamable HTTP',
    help: 'The usual way to reach a server: an address such as https://example.com/mcp.',
  },
  {
    kind: 'sse',
    label: 'Legacy SSE',
    help: 'Older servers that use HTTP with Server-Sent Events (an address ending in /sse).',
  },
  {
    kind: 'stdio',
    label: 'Program on this computer (stdio)',
    help: 'Skillbench starts the program you name and talks to it directly.',
  },
];

/**
 * "Fill in from a client's setup": paste what a client's config file holds (Claude Desktop,
 * Cursor, VS Code, a .mcp.json) and pick one of its servers; the form's fields are filled in from
 * it, nothing is started. Read by shared/inspector/client-config.ts, as `inspect --config` reads it.
 */
function SetupPaste({ onPick }: { onPick: (server: ConfiguredServer) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [choices, setChoices] = useState<ConfiguredServer[]>([]);
  const [skipped, setSkipped] = useState<string[]>([]);
  const pick = (server: ConfiguredServer) => {
    onPick(server);
    setOpen(false);
    setText('');
    setChoices([]);
    setSkipped([]);
  };
  const read = () => {
    const reading = readClientConfig(text);
    setChoices([]);
    if (!reading.ok) {
      setProblem(reading.problem);
      return;
    }
    setProblem(null);
    setSkipped(reading.skipped);
    const [only] = reading.servers;
    if (reading.servers.length === 1 && only && reading.skipped.length === 0) pick(only);
    else setChoices(reading.servers);
  };
  return (
    <details className="insp-paste" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Fill in from a client’s setup…</summary>
      <label htmlFor={`${id}-setup`}>
        Paste a server’s setup from Claude Desktop, Cursor, VS Code, Codex, Gemini CLI or a
        .mcp.json
      </label>
      <textarea
        id={`${id}-setup`}
        rows={5}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={'{ "mcpServers": { "name": { "command": "…", "args": [] } } }'}
        spellCheck={false}
      />
      <div className="row">
        <button type="button" onClick={read} disabled={!text.trim()}>
          Fill in
        </button>
      </div>
      {problem ? (
        <p role="alert" className="error-text">
          {problem}
        </p>
      ) : null}
      {skipped.map((line) => (
        <p key={line} className="help insp-warn">
          Left out: {line}
        </p>
      ))}
      {choices.length > 0 ? (
        <fieldset className="insp-setup-choices">
          <legend>
            {choices.length === 1 ? 'The server it holds' : `It holds ${choices.length} servers`}
          </legend>
          {choices.map((server) => (
            <button type="button" key={server.name} onClick={() => pick(server)}>
              Use {server.name}{' '}
              <span className="muted">
                ({server.kind === 'stdio' ? server.command : server.url})
              </span>
            </button>
          ))}
        </fieldset>
      ) : null}
    </details>
  );
}

/** The form for a new connection: Streamable HTTP, legacy SSE or stdio, with headers, token and OAuth. */
export function ConnectionForm() {
  const connect = useInspectorStore((s) => s.connect);
  const saveConnection = useInspectorStore((s) => s.saveConnection);
  const secretsStored = useInspectorStore((s) => s.secretsStored);
  const [label, setLabel] = useState('server');
  const [kind, setKind] = useState<TransportKind>('http');
  const [url, setUrl] = useState('');
  const [headers, setHeaders] = useState<Pair[]>([]);
  const [token, setToken] = useState('');
  const [oauth, setOauth] = useState(true);
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [env, setEnv] = useState<Pair[]>([]);
  const [cwd, setCwd] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [filled, setFilled] = useState<string | null>(null);
  const id = useId();

  /** Fill the fields from one server of a client's setup (every field, so nothing is left over). */
  function fill(server: ConfiguredServer) {
    setLabel(server.name);
    setKind(server.kind);
    setUrl(server.url ?? '');
    setHeaders(server.headers.map((h) => ({ ...h, secret: h.secret === true })));
    setToken('');
    setCommand(server.command ?? '');
    setArgs(server.args.join('\n'));
    setEnv(server.env.map((e) => ({ ...e, secret: e.secret === true })));
    setCwd(server.cwd ?? '');
    setProblem(null);
    setFilled(
      `Filled in from “${server.name}”.${
        server.unfilled.length > 0
          ? ` Its ${server.unfilled.join(', ')} holds a variable (\${…}) that its client fills in: type the value in its place.`
          : ''
      }${
        server.tokenVariable !== undefined
          ? ` Its client reads the bearer token from the variable ${server.tokenVariable}: type the token in Bearer token.`
          : ''
      } Check the fields, then Connect.`,
    );
  }

  function input(): ConnectionInput | null {
    if (!label.trim())
      return fail(
        'Give the connection a name, so its skills can be told apart from other servers’ skills.',
      );
    if (kind === 'stdio') {
      if (!command.trim()) return fail('Type the program that starts the server.');
      return {
        label: label.trim(),
        kind,
        command: command.trim(),
        args: args
          .split('\n')
          .map((a) => a.trim())
          .filter(Boolean),
        env: env
          .filter((e) => e.name.trim())
          .map((e) => ({ name: e.name.trim(), value: e.value, secret: e.secret })),
        cwd: cwd.trim() || undefined,
      };
    }
    if (!/^https?:\/\/\S+$/i.test(url.trim()))
      return fail('Type the server address, starting with http:// or https://.');
    return {
      label: label.trim(),
      kind,
      url: url.trim(),
      headers: headers
        .filter((h) => h.name.trim())
        .map((h) => ({ name: h.name.trim(), value: h.value, secret: h.secret })),
      bearerToken: token || undefined,
      oauth,
    };
  }

  function fail(message: string): null {
    setProblem(message);
    return null;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = input();
    if (!value) return;
    setProblem(null);
    void connect(value, value.label);
  }

  return (
    <form className="insp-form" aria-label="New connection" onSubmit={submit}>
      <h3>Connect to a skill server</h3>
      <SetupPaste onPick={fill} />
      {filled ? (
        <p role="status" className="help">
          {filled}
        </p>
      ) : null}
      <label htmlFor={`${id}-label`}>Connection name</label>
      <input
        id={`${id}-label`}
        value={label}
        onChange={(e) => setLabel(e.target.value)}
        spellCheck={false}
      />
      <fieldset className="insp-kinds">
        <legend>How to reach it</legend>
        {KINDS.map((k) => (
          <label key={k.kind} title={k.help}>
            <input
              type="radio"
              name={`${id}-kind`}
              value={k.kind}
              checked={kind === k.kind}
              onChange={() => setKind(k.kind)}
            />{' '}
            {k.label}
          </label>
        ))}
      </fieldset>
      {kind === 'stdio' ? (
        <>
          <label htmlFor={`${id}-command`}>Program</label>
          <input
            id={`${id}-command`}
            value={command}
            onChange={(e) => setCommand(e.target.value)}
            placeholder="npx"
            spellCheck={false}
          />
          <label htmlFor={`${id}-args`}>Arguments (one per line)</label>
          <textarea
            id={`${id}-args`}
            rows={3}
            value={args}
            onChange={(e) => setArgs(e.target.value)}
            spellCheck={false}
          />
          <PairRows
            legend="Environment variables"
            rows={env}
            onChange={setEnv}
            namePlaceholder="NAME"
          />
          <label htmlFor={`${id}-cwd`}>Working folder (optional)</label>
          <input
            id={`${id}-cwd`}
            value={cwd}
            onChange={(e) => setCwd(e.target.value)}
            spellCheck={false}
          />
        </>
      ) : (
        <>
          <label htmlFor={`${id}-url`}>Server address</label>
          <input
            id={`${id}-url`}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/mcp"
            spellCheck={false}
            inputMode="url"
          />
          <label htmlFor={`${id}-token`}>Bearer token (optional)</label>
          <input
            id={`${id}-token`}
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            spellCheck={false}
          />
          <PairRows
            legend="Headers"
            rows={headers}
            onChange={setHeaders}
            namePlaceholder="Header-Name"
          />
          <label className="insp-check">
            <input type="checkbox" checked={oauth} onChange={(e) => setOauth(e.target.checked)} />{' '}
            Sign in with OAuth when the server asks for it
          </label>
        </>
      )}
      {problem ? (
        <p role="alert" className="error-text">
          {problem}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="primary">
          Connect
        </button>
        <button
          type="button"
          onClick={() => {
            const value = input();
            if (value) {
              setProblem(null);
              void saveConnection(value);
            }
          }}
        >
          Save connection
        </button>
      </div>
      {!secretsStored ? (
        <p className="help muted">
          Tokens and secret values can only be saved in the desktop app, where the system keychain
          protects them. Here they are used for this connection only.
        </p>
      ) : null}
    </form>
  );
}
