import { useEffect, useRef, useState } from 'react';
import { AGENTS, alsoLoadedBy } from '../../../../shared/agents/agents';
import type { InstallCheck, InstallReport, ScopeRef } from '../../../../shared/agents/types';
import type { SkillSummary } from '../../../../shared/ipc/contract';
import type { TrustRequest } from '../../../../shared/safety/types';
import { SafetyBadge } from '../../ui/SafetyReport';
import { TrustDialog } from '../../ui/TrustDialog';
import { useProjectPicker } from './ProjectPicker';
import { useAgentsStore } from './stores';

/** The last choice of "Where": a project folder not listed yet, asked for. */
const ANOTHER_PROJECT = '\u0000another-project';

/** The folder of a SKILL.md path. */
const dirOf = (path: string): string =>
  path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')));

/** A skill discovered on a remote server (the Inspector tab), installed only once verified. */
export interface RemoteSkillChoice {
  /** The inspector's skill key. */
  key: string;
  name: string;
  server: string;
}

/**
 * Install skills into agents: pick skills (library skills, or the one skill from a server the
 * Inspector tab hands over), agents and where (your user folder or a project), link or copy;
 * each skill is checked for each agent's reader first and the verdict shown. A name already
 * there asks: rename, replace (old copy to the trash) or cancel.
 */
export function InstallDialog({
  skills = [],
  initial = null,
  remote,
  onClose,
}: {
  skills?: SkillSummary[];
  /** The skill open in the editor, chosen at the start. */
  initial?: string | null;
  /** Install this skill from its server instead of library skills. */
  remote?: RemoteSkillChoice;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { overview, load, check, install, checkRemote, installRemote, busy } = useAgentsStore();
  const installable = skills.filter((s) => s.linked === undefined || s.linked.state === 'followed');
  const sharedNames = new Set(
    installable
      .filter((s, i) => installable.findIndex((o) => o.name === s.name) !== i)
      .map((s) => s.name),
  );
  const [chosen, setChosen] = useState<string[]>(
    remote ? [remote.key] : initial ? [dirOf(initial)] : [],
  );
  const [refused, setRefused] = useState<string | null>(null);
  const [agents, setAgents] = useState<string[]>([]);
  const [where, setWhere] = useState<string>('global');
  const [mode, setMode] = useState<'auto' | 'link' | 'copy'>('auto');
  const [checks, setChecks] = useState<InstallCheck[] | null>(null);
  const [report, setReport] = useState<InstallReport | null>(null);
  // Why kept: "Trust anyway" goes with every later call (a name conflict asks again after it).
  const [trust, setTrust] = useState<TrustRequest | undefined>(undefined);
  const [trusting, setTrusting] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
    if (!overview) void load();
  }, [overview, load]);

  const detected = (overview?.agents ?? []).filter((a) => a.detected);
  // Why offered too: an agent not set up yet on this computer (no folder of its own) still loads
  // what is installed for it once it runs, as `skillbench install --agent` allows.
  const others = AGENTS.filter((a) => !detected.some((d) => d.id === a.id)).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const othersChosen = others.filter((a) => agents.includes(a.id)).length;
  // One way to offer an agent, found or not: an agent without a user folder only for projects.
  const agentChoice = (a: {
    id: string;
    name: string;
    followsLinks: boolean;
    globalDir: string | null;
  }) => {
    const noUserFolder = where === 'global' && a.globalDir === null;
    return (
      <label key={a.id} className="check">
        <input
          type="checkbox"
          checked={agents.includes(a.id)}
          disabled={noUserFolder}
          onChange={() => {
            setAgents(toggle(agents, a.id));
            setChecks(null);
            setRefused(null);
            setReport(null);
          }}
        />
        {a.name}
        {noUserFolder
          ? ' (project folders only)'
          : a.followsLinks
            ? ''
            : ' (copies: it does not load linked folders)'}
      </label>
    );
  };
  const chooseWhere = (value: string) => {
    setWhere(value);
    // An agent without a user folder cannot take a global install: not chosen silently.
    if (value === 'global')
      setAgents(agents.filter((id) => AGENTS.find((a) => a.id === id)?.globalDir !== null));
    setChecks(null);
    setReport(null);
  };
  const projects = useProjectPicker(chooseWhere);
  const scope: ScopeRef = where === 'global' ? { kind: 'global' } : { kind: 'project', dir: where };
  const toggle = (list: string[], value: string) =>
    list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
  const ready = chosen.length > 0 && agents.length > 0;
  // Said before anything is written: agents not ticked that will load these skills too.
  const shared = alsoLoadedBy(detected, agents, scope.kind, mode);

  async function run(onConflict: 'ask' | 'rename' | 'replace', trusted = trust) {
    const how = {
      agents,
      scope,
      ...(mode !== 'auto' ? { mode } : {}),
      onConflict,
      ...(trusted ? { trust: trusted } : {}),
    };
    const r = remote
      ? await installRemote({ key: remote.key, ...how })
      : await install({ skills: chosen, ...how });
    if (r) setReport(r);
  }

  async function runCheck() {
    if (!remote) return setChecks(await check(chosen, agents));
    const r = await checkRemote(remote.key, agents);
    setChecks(r ? r.checks : null);
    setRefused(r?.refused ?? null);
  }

  const conflicts = report?.outcomes.filter((o) => o.status === 'conflict') ?? [];
  // Skills the safety review calls "Don't trust" (not accepted): installing them needs "Trust anyway".
  const untrusted = new Map(
    [...(report?.checks ?? []), ...(checks ?? [])]
      .filter((c) => c.safety?.verdict === 'danger' && !c.safety.accepted)
      .map((c) => [c.skill.split(/[\\/]/).pop() ?? c.skill, c.safety] as const),
  );
  const refusedForSafety =
    untrusted.size > 0 && (report?.outcomes.some((o) => o.status === 'refused') ?? false);
  return (
    <dialog
      ref={dialog}
      className="import-dialog install-dialog"
      aria-labelledby="install-title"
      onCancel={onClose}
    >
      <h2 id="install-title">Install into your agents</h2>
      <fieldset>
        <legend>Skills</legend>
        {remote ? (
          <p>
            <strong>{remote.name}</strong> from the server <strong>{remote.server}</strong>. Every
            file is read and verified again before anything is written; a skill that does not match
            the server&apos;s listing is not installed.
          </p>
        ) : null}
        {installable.map((s) => (
          <label key={s.path} className="check" title={s.relativeDir || s.name}>
            <input
              type="checkbox"
              checked={chosen.includes(dirOf(s.path))}
              onChange={() => {
                setChosen(toggle(chosen, dirOf(s.path)));
                setChecks(null);
                setReport(null);
              }}
            />
            {s.name}
            {/* Why the folder then: two skills with one name cannot be told apart otherwise. */}
            {sharedNames.has(s.name) ? <span className="muted"> ({s.relativeDir})</span> : null}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Agents</legend>
        {detected.length === 0 ? (
          <p className="muted">No agents were found on this computer.</p>
        ) : null}
        {detected.map(agentChoice)}
        <details className="more-agents">
          <summary>
            {detected.length === 0 ? 'Choose an agent' : 'More agents'} ({others.length} not found
            on this computer{othersChosen > 0 ? `, ${othersChosen} chosen` : ''})
          </summary>
          <div className="more-agents-list">{others.map(agentChoice)}</div>
        </details>
      </fieldset>
      <div className="row choices">
        <span className="choice">
          <label htmlFor="install-where">Where</label>
          <select
            id="install-where"
            value={where}
            title={where === 'global' ? 'Your user folder (every project)' : `Project ${where}`}
            onChange={(e) => {
              // Why not kept as the choice: the folder is asked for, and chosen once it is added.
              if (e.target.value === ANOTHER_PROJECT) projects.choose();
              else chooseWhere(e.target.value);
            }}
          >
            <option value="global">Your user folder (every project)</option>
            {(overview?.projects ?? []).map((p) => (
              <option key={p} value={p}>
                Project {p}
              </option>
            ))}
            <option value={ANOTHER_PROJECT}>Another project folder…</option>
          </select>
        </span>
        {projects.picker}
        <span className="choice">
          <label htmlFor="install-mode">How</label>
          <select
            id="install-mode"
            value={mode}
            onChange={(e) => setMode(e.target.value as 'auto' | 'link' | 'copy')}
          >
            <option value="auto">Link where the agent follows links, else copy</option>
            <option value="link">Link to one shared copy</option>
            <option value="copy">Copy into each agent</option>
          </select>
        </span>
      </div>
      {shared ? (
        <p className="muted" role="note" aria-label="Other agents that will load these skills">
          {shared.sentence}
        </p>
      ) : null}
      {refused ? (
        <p role="alert" className="banner error">
          {refused}
        </p>
      ) : null}
      {checks && checks.length > 0 ? (
        <table aria-label="Checks for each agent">
          <thead>
            <tr>
              <th scope="col">Skill</th>
              <th scope="col">Agent</th>
              <th scope="col">Verdict</th>
              <th scope="col">Safety review</th>
            </tr>
          </thead>
          <tbody>
            {checks.map((c) => (
              <tr key={`${c.skill}-${c.agent}`}>
                <td>{c.skill.split(/[\\/]/).pop()}</td>
                <td>{overview?.agents.find((a) => a.id === c.agent)?.name ?? c.agent}</td>
                <td>
                  {c.verdict === 'error'
                    ? `Would be rejected: ${c.problems.join(' ')}`
                    : c.notAsWritten
                      ? `Loads it, but not as written: ${c.problems.join(' ')}`
                      : c.verdict === 'warning'
                        ? `Valid, with warnings: ${c.problems.join(' ')}`
                        : 'Valid'}
                </td>
                <td>
                  {c.safety ? (
                    <>
                      <SafetyBadge verdict={c.safety.verdict} accepted={c.safety.accepted} />{' '}
                      {c.safety.summary}
                    </>
                  ) : (
                    'Not reviewed'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {report ? (
        <ul aria-label="Install result" className="plain">
          {report.outcomes.map((o, i) => (
            <li key={i} data-status={o.status}>
              {o.message}
            </li>
          ))}
          {report.lockNotes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      {refusedForSafety ? (
        <div className="row" role="group" aria-label="Refused by the safety review">
          <button type="button" className="danger" onClick={() => setTrusting(true)}>
            Trust anyway…
          </button>
        </div>
      ) : null}
      {trusting ? (
        <TrustDialog
          reviewed={{
            name: [...untrusted.keys()].join(', '),
            headline: "Don't trust",
            findings: [...untrusted.values()].reduce((n, s) => n + (s?.findings ?? 0), 0),
          }}
          doing="install it"
          onCancel={() => setTrusting(false)}
          onConfirm={(reason, days) => {
            setTrusting(false);
            setTrust({ reason, days });
            void run('ask', { reason, days });
          }}
        />
      ) : null}
      {conflicts.length > 0 ? (
        <div className="row" role="group" aria-label="A folder of that name exists">
          <button type="button" onClick={() => void run('rename')}>
            Rename
          </button>
          <button type="button" onClick={() => void run('replace')}>
            Replace (old copy to the trash)
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      ) : null}
      <div className="row end">
        <button type="button" disabled={!ready || busy} onClick={() => void runCheck()}>
          Check
        </button>
        <button
          type="button"
          className="primary"
          disabled={!ready || busy}
          onClick={() => void run('ask')}
        >
          Install
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
