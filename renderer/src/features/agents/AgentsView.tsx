import { readerNote } from '../../../../shared/agent-view/readers';
import { useEffect, useState } from 'react';
import {
  hasConflictMarkers,
  type DiffLine,
  type FileChange,
  type FileConflict,
  type FileResolution,
} from '../../../../shared/agents/merge';
import { listed } from '../../../../shared/text/words';
import {
  displayAgentPath,
  sameScope,
  unlistedFolderSentence,
} from '../../../../shared/agents/agents';
import type {
  AgentReport,
  InstalledSkill,
  OutdatedEntry,
  ScopeRef,
} from '../../../../shared/agents/types';
import { profileLabelOf } from '../../ui/profile-labels';
import { SafetyRowBadge } from '../../ui/SafetyReport';
import { TrustDialog } from '../../ui/TrustDialog';
import { useProjectPicker } from './ProjectPicker';
import type { UpdateTarget } from './agents-store';
import { useAgentsStore } from './stores';

/** Plain words for each state (docs/agents.md). */
export const STATE_LABELS: Record<InstalledSkill['state'], string> = {
  'linked-library': 'Linked to a library skill',
  linked: 'Linked to the shared copy',
  'copy-unchanged': 'Copy, unchanged',
  'copy-changed': 'Copy, changed since install',
  'other-tool': 'Installed by another tool',
  unmanaged: 'Added by hand',
  'broken-link': 'Broken link',
  'refused-link': 'Link not followed',
};

function scopeLabel(scope: ScopeRef): string {
  return scope.kind === 'global' ? 'Your user folder (every project)' : `Project ${scope.dir}`;
}

function SkillRow({
  agent,
  skill,
  removable,
}: {
  agent: AgentReport;
  skill: InstalledSkill;
  /** False in a folder the agent also reads, or below a group: Skillbench did not put it there. */
  removable: boolean;
}) {
  const uninstall = useAgentsStore((s) => s.uninstall);
  const safety = useAgentsStore((s) => (skill.realDir ? s.safety[skill.realDir] : undefined));
  const state =
    skill.state === 'linked' && skill.changed
      ? `${STATE_LABELS.linked}, changed since install`
      : STATE_LABELS[skill.state];
  const bad = skill.state === 'broken-link' || skill.state === 'refused-link';
  // Why one look for both: an edited shared copy is as much "changed since install" as a copy.
  const changed = skill.state === 'copy-changed' || (skill.state === 'linked' && skill.changed);
  return (
    <tr data-state={skill.state}>
      <th scope="row">{skill.name}</th>
      <td>
        <span className={`badge ${bad ? 'error' : changed ? 'warning' : ''}`}>{state}</span>
        {skill.note ? <div className="muted">{skill.note}</div> : null}
        {skill.collision ? (
          <div className={skill.collision.loaded ? 'muted' : 'warning-text'}>
            {skill.collision.loaded
              ? `${agent.name} loads this one; it has the same name as ${skill.collision.others.join(', ')}.`
              : `${agent.name} does not load this one: another skill has the same name (${skill.collision.others.join(', ')}).`}{' '}
            {skill.collision.rule}
          </div>
        ) : null}
        {skill.turnedOff ? <div className="warning-text">{skill.turnedOff}</div> : null}
      </td>
      <td>{skill.source ?? (skill.linkTarget ? `Link to ${skill.linkTarget}` : '—')}</td>
      <td>
        {skill.verdict === 'error' ? (
          <span className="badge error" title={skill.problems.join('\n')}>
            Not valid for {agent.name}: {skill.problems[0] ?? 'errors'}
          </span>
        ) : skill.verdict === 'unknown' ? (
          '—'
        ) : skill.notAsWritten ? (
          <span className="badge warning" title={skill.problems.join('\n')}>
            {agent.name} loads it, not as written: {skill.problems[0] ?? ''}
          </span>
        ) : (
          <span
            className={`badge ${skill.verdict === 'warning' && skill.problems.length > 0 ? 'warning' : ''}`}
            title={skill.problems.join('\n')}
          >
            {skill.verdict !== 'warning'
              ? 'Valid'
              : skill.problems[0] === undefined
                ? 'Valid, with warnings'
                : `Valid, with warnings: ${skill.problems[0]}`}
          </span>
        )}{' '}
        <SafetyRowBadge
          badge={safety}
          where={`${agent.name} loads it as it is. To read the findings, open its folder with Open folder… in the Library.`}
        />
      </td>
      <td>
        {removable ? (
          <button
            type="button"
            onClick={() => void uninstall(skill.folder, [agent.id], skill.scope)}
            aria-label={`Remove ${skill.name} from ${agent.name} (${scopeLabel(skill.scope)})`}
          >
            Remove
          </button>
        ) : (
          <span className="muted">Not installed by Skillbench</span>
        )}
      </td>
    </tr>
  );
}

function AgentSection({ agent }: { agent: AgentReport }) {
  const folders = agent.folders.filter((f) => f.exists || f.skills.length > 0);
  return (
    <section className="agent-card" aria-labelledby={`agent-${agent.id}`}>
      <h3 id={`agent-${agent.id}`}>
        {agent.name} <span className="muted">({agent.id})</span>
      </h3>
      <p className="muted">
        {agent.detected ? 'Found on this computer.' : 'Not found on this computer.'}{' '}
        {agent.followsLinks
          ? 'Loads linked skill folders.'
          : 'Does not load linked skill folders: installs are copies.'}{' '}
        Its skills are checked by the {profileLabelOf(agent.profile)} rules
        {readerNote(agent.id) ? ` ${readerNote(agent.id)}` : ''}.
        {agent.features.length > 0
          ? ` Besides name and description, it acts on: ${agent.features.join(', ')}.`
          : ''}
      </p>
      {folders.length === 0 ? <p className="muted">No skills folder yet.</p> : null}
      {folders.map((f) => (
        <div key={f.path} className="agent-folder">
          <h4>
            {scopeLabel(f.scope)} <code>{f.path}</code>
          </h4>
          {f.alsoRead ? (
            <p className="muted">
              {agent.name} also loads the skills in this folder. Skillbench lists them but installs
              into{' '}
              {f.scope.kind === 'global' && agent.globalDir !== null
                ? displayAgentPath(agent.globalDir)
                : agent.projectDir}
              .
            </p>
          ) : null}
          {f.scope.kind === 'project' && agent.projectNote ? (
            <p className="muted">{agent.projectNote}</p>
          ) : null}
          {f.problem ? (
            <p role="note" className="banner error">
              {f.problem}
            </p>
          ) : f.skills.length === 0 ? (
            <p className="muted">No skills here.</p>
          ) : (
            <table aria-label={`${agent.name} skills in ${scopeLabel(f.scope)}`}>
              <thead>
                <tr>
                  <th scope="col">Skill</th>
                  <th scope="col">State</th>
                  <th scope="col">Source</th>
                  <th scope="col">For this agent</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {f.skills.map((s) => (
                  <SkillRow
                    key={s.path}
                    agent={agent}
                    skill={s}
                    removable={f.alsoRead !== true && !s.folder.includes('/')}
                  />
                ))}
              </tbody>
            </table>
          )}
        </div>
      ))}
    </section>
  );
}

/** The two choices of a conflict that is not merged by lines, in plain words. */
const CHOICES: Record<Exclude<FileConflict['kind'], 'text'>, [string, string]> = {
  binary: ['Keep mine', 'Take theirs'],
  'removed-at-source': ['Keep mine', 'Remove it'],
  'removed-by-you': ['Leave it removed', 'Take theirs'],
};

/** Settle a merge file by file: edit each merged text, pick a side for the others; then apply. */
function MergeConflicts({
  target,
  conflicts,
}: {
  target: UpdateTarget;
  conflicts: FileConflict[];
}) {
  const name = target.name;
  const update = useAgentsStore((s) => s.update);
  const [answers, setAnswers] = useState<Record<string, FileResolution>>({});
  const settle = (answer: FileResolution) => setAnswers((a) => ({ ...a, [answer.path]: answer }));
  const open = conflicts.filter((c) => {
    const a = answers[c.path];
    if (c.kind === 'text') return hasConflictMarkers(a?.text ?? c.merged ?? '');
    return a?.keep === undefined;
  });
  return (
    <div role="group" aria-label={`Settle the merge of ${name}`} className="merge-conflicts">
      {conflicts.map((c) => {
        const id = `merge-${name}-${c.path}`;
        if (c.kind === 'text')
          return (
            <div key={c.path}>
              <p>{c.message}</p>
              <label htmlFor={id}>{c.path} merged (settle the marked lines)</label>
              <textarea
                id={id}
                rows={12}
                value={answers[c.path]?.text ?? c.merged ?? ''}
                onChange={(e) => settle({ path: c.path, text: e.target.value })}
              />
            </div>
          );
        const [mine, theirs] = CHOICES[c.kind];
        return (
          <fieldset key={c.path}>
            <legend>{c.message}</legend>
            {(['mine', 'theirs'] as const).map((side) => (
              <label key={side} className="check">
                <input
                  type="radio"
                  name={id}
                  checked={answers[c.path]?.keep === side}
                  onChange={() => settle({ path: c.path, keep: side })}
                />
                {side === 'mine' ? mine : theirs} ({c.path})
              </label>
            ))}
          </fieldset>
        );
      })}
      <button
        type="button"
        disabled={open.length > 0}
        onClick={() =>
          void update(target, 'merge', {
            name,
            files: conflicts.map(
              (c) =>
                answers[c.path] ??
                (c.kind === 'text' ? { path: c.path, text: c.merged ?? '' } : { path: c.path }),
            ),
          })
        }
      >
        Apply merge
      </button>
      {open.length > 0 ? (
        <p className="muted">
          Still to settle: {open.map((c) => c.path).join(', ')}. Nothing is written until then.
        </p>
      ) : null}
    </div>
  );
}

/** One side's changes: SKILL.md's changed lines, coloured, then the other files by path. */
function Changes({
  title,
  label,
  diff,
  files,
}: {
  title?: string;
  label: string;
  diff: readonly DiffLine[];
  files: readonly FileChange[];
}) {
  const lines = diff.filter((d) => d.kind !== 'same');
  const others = files.filter((f) => f.path !== 'SKILL.md');
  return (
    <div className="update-side">
      {title ? <h4>{title}</h4> : null}
      {lines.length > 0 ? (
        <pre className="diff" aria-label={label}>
          {lines.map((d, i) => (
            <span key={i} className={d.kind === 'added' ? 'diff-added' : 'diff-removed'}>
              {`${d.kind === 'added' ? '+' : '-'} ${d.text.replace(/\r?\n$/, '')}`}
            </span>
          ))}
        </pre>
      ) : null}
      {others.length > 0 ? (
        <ul aria-label={`Files: ${label}`} className="plain">
          {others.map((f) => (
            <li key={f.path}>
              {f.change}: <code>{f.path}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {lines.length === 0 && others.length === 0 ? <p className="muted">Nothing.</p> : null}
    </div>
  );
}

/** The choices that write: the source's version, or a merge when the installed version is known. */
function TakeOrMerge({ entry }: { entry: OutdatedEntry }) {
  const update = useAgentsStore((s) => s.update);
  return (
    <>
      <button type="button" onClick={() => void update(entry, 'take-theirs')}>
        Take theirs
      </button>
      {entry.canMerge ? (
        <button type="button" onClick={() => void update(entry, 'merge')}>
          Merge
        </button>
      ) : null}
    </>
  );
}

function UpdateEntry({ entry }: { entry: OutdatedEntry }) {
  const update = useAgentsStore((s) => s.update);
  // Why the scope too: the same name installed globally and in a project is two entries.
  const outcome = useAgentsStore((s) =>
    s.outcomes.find((o) => o.name === entry.name && sameScope(o.scope, entry.scope)),
  );
  const trustUpdate = useAgentsStore((s) => s.trustUpdate);
  const [trusting, setTrusting] = useState(false);
  const changes = entry.yourEdits ? (
    <>
      <Changes
        title="Changed at the source since you installed it"
        label={`Changes at the source of ${entry.name}`}
        diff={entry.diff ?? []}
        files={entry.fileChanges ?? []}
      />
      <Changes
        title="Your edits since install"
        label={`Your edits to ${entry.name}`}
        diff={entry.yourEdits.diff}
        files={entry.yourEdits.files}
      />
    </>
  ) : entry.diff || entry.fileChanges ? (
    <Changes
      label={`Changes to ${entry.name}`}
      diff={entry.diff ?? []}
      files={entry.fileChanges ?? []}
    />
  ) : null;
  return (
    <li className="update-entry" aria-label={`Update ${entry.name}`}>
      <strong>{entry.name}</strong> <span className="muted">({scopeLabel(entry.scope)})</span>
      <p>{entry.message}</p>
      {entry.kept ? (
        <>
          <details>
            <summary>The changes you kept your copy over</summary>
            {changes}
          </details>
          <div className="row">
            <TakeOrMerge entry={entry} />
          </div>
        </>
      ) : (
        changes
      )}
      {entry.status === 'outdated' ? (
        entry.locallyEdited ? (
          <>
            <div className="row">
              <span>You edited this copy since install. Choose:</span>
              <button type="button" onClick={() => void update(entry, 'keep-local')}>
                Keep mine
              </button>
              <TakeOrMerge entry={entry} />
            </div>
            {entry.canMerge && entry.mergeAsks ? (
              <p className="muted">
                {entry.mergeAsks.length === 0
                  ? 'Merge keeps both your edits and the source’s changes: nothing to settle.'
                  : `Merge will ask about ${listed(entry.mergeAsks)}: you and the source changed the same part (or one removed what the other changed). Nothing is written until you settle ${entry.mergeAsks.length === 1 ? 'it' : 'them'}.`}
              </p>
            ) : null}
          </>
        ) : (
          <button type="button" className="primary" onClick={() => void update(entry)}>
            Update
          </button>
        )
      ) : null}
      {outcome ? <p role="status">{outcome.message}</p> : null}
      {outcome?.status === 'refused' && outcome.safety ? (
        <div className="row">
          <button type="button" className="danger" onClick={() => setTrusting(true)}>
            Trust anyway…
          </button>
        </div>
      ) : null}
      {trusting && outcome?.safety ? (
        <TrustDialog
          reviewed={{ name: entry.name, ...outcome.safety }}
          doing="update it"
          onCancel={() => setTrusting(false)}
          onConfirm={(reason, days) => {
            setTrusting(false);
            void trustUpdate({ reason, days });
          }}
        />
      ) : null}
      {outcome?.status === 'conflicts' && outcome.conflicts ? (
        <MergeConflicts
          key={outcome.conflicts.map((c) => c.path).join('\n')}
          target={entry}
          conflicts={outcome.conflicts}
        />
      ) : null}
    </li>
  );
}

/** The Agents view: every agent found here, its folders and the skills it loads; updates. */
export function AgentsView() {
  const {
    overview,
    outdated,
    busy,
    lastRemoval,
    load,
    addProject,
    removeProject,
    loadOutdated,
    undoRemoval,
  } = useAgentsStore();
  const [project, setProject] = useState('');
  const projects = useProjectPicker(() => setProject(''), project.trim());
  useEffect(() => {
    void load();
  }, [load]);
  const shown = overview?.agents ?? [];
  return (
    <section className="agents-view" aria-labelledby="agents-title">
      <h2 id="agents-title">Agents</h2>
      <p className="muted">
        The agents found on this computer and every skill each will load, from your user folder and
        the project folders you add.
      </p>
      {lastRemoval ? (
        <p className="row">
          <span>{lastRemoval.name} was moved to the trash.</span>
          <button type="button" onClick={() => void undoRemoval()}>
            Undo
          </button>
        </p>
      ) : null}
      {overview?.lockProblems.map((p) => (
        <p key={p.message} role="note" className="banner error">
          {p.message}
        </p>
      ))}
      {overview?.unlisted.map((f) => (
        <p key={f.path} role="note" className="banner">
          {unlistedFolderSentence(f)}
        </p>
      ))}
      <form
        className="row middle"
        onSubmit={(e) => {
          e.preventDefault();
          // Why only when added: after a refusal the path stays, so a typo can be mended.
          if (project.trim())
            void addProject(project.trim()).then((added) => added && setProject(''));
        }}
      >
        <label htmlFor="agents-project">Project folder</label>
        <input
          id="agents-project"
          value={project}
          onChange={(e) => setProject(e.target.value)}
          spellCheck={false}
        />
        <button type="button" onClick={projects.choose}>
          Choose…
        </button>
        <button type="submit">Add project</button>
      </form>
      {projects.picker}
      {overview && overview.projects.length > 0 ? (
        <ul aria-label="Project folders">
          {overview.projects.map((p) => (
            <li key={p}>
              {p}{' '}
              <button
                type="button"
                onClick={() => void removeProject(p)}
                aria-label={`Stop listing ${p}`}
              >
                Stop listing
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <section aria-labelledby="updates-title" className="agent-card">
        <h3 id="updates-title">Updates</h3>
        <button type="button" onClick={() => void loadOutdated()} disabled={busy}>
          Check for updates
        </button>
        {outdated ? (
          outdated.length === 0 ? (
            <p>No installed skill records a source to compare with.</p>
          ) : (
            <ul className="plain">
              {outdated.map((e) => (
                <UpdateEntry
                  key={`${e.name}-${e.scope.kind === 'project' ? e.scope.dir : ''}`}
                  entry={e}
                />
              ))}
            </ul>
          )
        ) : null}
      </section>
      {overview === null ? (
        <p aria-busy="true">Looking for agents…</p>
      ) : shown.length === 0 ? (
        <p>No agents were found on this computer.</p>
      ) : (
        shown.map((a) => <AgentSection key={a.id} agent={a} />)
      )}
    </section>
  );
}
