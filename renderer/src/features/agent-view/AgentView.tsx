import { ViewTabs } from '../../ui/ViewTabs';
import { useEffect, useId, useState } from 'react';
import { CopyButton } from '../../ui/CopyButton';
import type { CatalogSource, Metrics, ScoredSkill } from '../../../../shared/agent-view';
import { grouped } from '../../../../shared/text/words';
import type { AgentListView } from '../../../../shared/ipc/contract';
import { useAgentViewStore } from './stores';
import './agent-view.css';

function sourceText(s: CatalogSource): string {
  return s.kind === 'library' ? `Folder ${s.root}` : `Server “${s.server}”`;
}

function tokens(n: number): string {
  return `about ${grouped(n)} token${n === 1 ? '' : 's'}`;
}

function bytes(n: number): string {
  return `${grouped(n)} bytes`;
}

/** An agent's own list of the skills on disk, as it writes it, then the skills not in it with why. */
function AgentList({ agent, list }: { agent: string; list: AgentListView }) {
  return (
    <>
      {list.section === '' ? (
        <p className="muted">No skill here that {agent} would list.</p>
      ) : (
        <pre className="agent-xml" tabIndex={0} aria-label={`${agent}'s skill list`}>
          <code>{list.section}</code>
        </pre>
      )}
      {list.left.length > 0 ? (
        <>
          <h4>Not in {agent}’s list</h4>
          <ul className="agent-problems" aria-label={`Not in ${agent}'s list`}>
            {list.left.map((l) => (
              <li key={l.location}>
                <code>{l.location}</code>: {l.why}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

/** The block, its footprint against the budget, each skill's share and the name collisions. */
function CatalogSection() {
  const catalog = useAgentViewStore((s) => s.catalog);
  const setBudget = useAgentViewStore((s) => s.setBudget);
  const [budget, setBudgetText] = useState('');
  const [listed, setListed] = useState<'block' | 'claude-code' | 'codex' | 'gemini-cli'>('block');
  const budgetId = useId();
  if (!catalog) return null;
  const f = catalog.footprint;
  const shown =
    listed === 'block'
      ? catalog.xml
      : listed === 'claude-code'
        ? catalog.claudeCode
        : listed === 'codex'
          ? catalog.codex.section
          : catalog.gemini.section;
  return (
    <section className="agent-catalog" aria-label="Catalog">
      <div className="row between">
        <h3>The list of skills in the model’s instructions</h3>
        <CopyButton text={shown} label="Copy the skills list" />
      </div>
      <ViewTabs
        label="As the host writes it"
        value={listed}
        options={[
          { id: 'block', label: '<available_skills>' },
          { id: 'claude-code', label: 'Claude Code' },
          { id: 'codex', label: 'Codex' },
          { id: 'gemini-cli', label: 'Gemini CLI' },
        ]}
        onChange={setListed}
      />
      <p className="help">
        {listed === 'block'
          ? 'Every request carries this block. The agent reads a skill’s instructions only when it picks that skill.'
          : listed === 'claude-code'
            ? 'What Claude Code puts in its system prompt were these folders its skills folder: each folder, its name beside it, and the description with when_to_use on one line, cut past 1,536 characters. A skill without a description shows its first line. Checked against Claude Code 2.1.332.'
            : listed === 'codex'
              ? 'What Codex lists were these folders its skills folders: each skill’s name and description on one line, cut past 1,024 characters, with where its SKILL.md is. Codex lists a skill the Agent Skills spec would refuse for its name, and skips some the spec lets pass (below). Checked against Codex 0.171.0.'
              : 'What Gemini CLI puts in its system prompt were these folders its skills folders: each skill’s name, description and SKILL.md, not escaped and never cut, after its own skills. It lists a folder’s skills in the order its file search finds them (here: by folder), a name of any form, one skill per name, and skips some the spec lets pass (below). Checked against Gemini CLI 0.61.0.'}
      </p>
      {listed === 'block' ? (
        <pre className="agent-xml" tabIndex={0} aria-label="The available_skills block">
          <code>{catalog.xml}</code>
        </pre>
      ) : listed === 'claude-code' ? (
        catalog.claudeCode === '' ? (
          <p className="muted">
            No skill in a folder here: Claude Code’s list is built from the skills in its folders.
          </p>
        ) : (
          <pre className="agent-xml" tabIndex={0} aria-label="Claude Code's skill list">
            <code>{catalog.claudeCode}</code>
          </pre>
        )
      ) : listed === 'codex' ? (
        <AgentList agent="Codex" list={catalog.codex} />
      ) : (
        <AgentList agent="Gemini CLI" list={catalog.gemini} />
      )}
      {catalog.problems.length > 0 ? (
        <ul className="agent-problems" aria-label="Problems reading the library">
          {catalog.problems.map((p) => (
            <li key={p.path}>{p.message}</li>
          ))}
        </ul>
      ) : null}

      <h3>Context footprint</h3>
      <p data-testid="footprint-total">
        Always in context: {bytes(f.block.bytes)}, {tokens(f.block.tokens)} of your budget of{' '}
        {grouped(catalog.budget.limit)} tokens.{' '}
        {catalog.budget.over ? (
          <strong className="over">Over budget: shorten descriptions or remove skills.</strong>
        ) : (
          <span>Within budget.</span>
        )}
      </p>
      <meter
        min={0}
        max={catalog.budget.limit}
        value={Math.min(catalog.budget.used, catalog.budget.limit)}
        low={catalog.budget.limit * 0.8}
        high={catalog.budget.limit * 0.99}
        optimum={0}
        aria-label="Budget used by the skills list"
      />
      <p className="help">
        Loaded when picked: {bytes(f.bodies.bytes)}, {tokens(f.bodies.tokens)} of instructions in
        all
        {f.bodiesUnknown > 0
          ? ` (${f.bodiesUnknown} skill${f.bodiesUnknown === 1 ? '' : 's'} from servers not counted: their instructions are read only when picked)`
          : ''}
        .
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const n = Number(budget);
          if (Number.isInteger(n) && n >= 100) void setBudget(n);
        }}
      >
        <label htmlFor={budgetId}>Budget (tokens)</label>
        <input
          id={budgetId}
          type="number"
          min={100}
          step={100}
          value={budget}
          placeholder={String(catalog.budget.limit)}
          onChange={(e) => setBudgetText(e.target.value)}
        />
        <button type="submit" disabled={!(Number(budget) >= 100)}>
          Set budget
        </button>
      </form>
      <table className="agent-table agent-footprint" aria-label="Footprint per skill">
        <thead>
          <tr>
            <th scope="col">Skill</th>
            <th scope="col">From</th>
            <th scope="col">Always in context</th>
            <th scope="col">Loaded when picked</th>
          </tr>
        </thead>
        <tbody>
          {catalog.skills.map((s) => (
            <tr key={s.location}>
              <th scope="row">
                {s.name}
                <EntryNotes s={s} />
              </th>
              <td className="agent-from">{sourceText(s.source)}</td>
              <td>
                {bytes(s.footprint.entry.bytes)}, {tokens(s.footprint.entry.tokens)}
                <br />
                <span className="muted">
                  name and description: {tokens(s.footprint.metadata.tokens)}
                </span>
              </td>
              <td>
                {s.footprint.body
                  ? `${bytes(s.footprint.body.bytes)}, ${tokens(s.footprint.body.tokens)}`
                  : 'read from the server when picked'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>Same names</h3>
      {catalog.collisions.length === 0 ? (
        <p className="muted">No two skills share a name.</p>
      ) : (
        <ul className="agent-collisions" aria-label="Same names">
          {catalog.collisions.map((c) => (
            <li key={c.name}>
              <strong>{c.name}</strong>:{' '}
              {catalog.userOnly.some((u) => u.location === c.winner.location)
                ? 'only the user can start the copy at'
                : 'the agent sees the copy at'}{' '}
              <code>{c.winner.location}</code> ({sourceText(c.winner.source)}).
              <ul>
                {c.hidden.map((h) => (
                  <li key={h.location}>
                    Left out: <code>{h.location}</code>. {h.why}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}

      {catalog.userOnly.length > 0 && (
        <>
          <h3>Only the user starts</h3>
          <ul className="agent-collisions" aria-label="Only the user starts">
            {catalog.userOnly.map((u) => (
              <li key={u.location}>
                <strong>{u.name}</strong> (<code>{u.location}</code>): {u.why}
                <EntryNotes s={u} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * Where a host or `skillbench serve` shows a listed skill otherwise than the block: strict hosts
 * skip it, serve holds it back, or Claude Code's list cuts its description.
 */
function EntryNotes({ s }: { s: { notServed?: string; heldBack?: string; listingCut?: string } }) {
  return (
    <>
      {s.listingCut !== undefined ? (
        <span className="agent-not-served" role="note">
          Cut in Claude Code&apos;s skill list: {s.listingCut}
        </span>
      ) : null}
      {s.notServed !== undefined ? (
        <span className="agent-not-served" role="note">
          Hosts that follow the Agent Skills specification skip it, and the Server tab does not
          serve it: {s.notServed}
        </span>
      ) : null}
      {s.heldBack !== undefined ? (
        <span className="agent-not-served" role="note">
          Agents that read the folder show it to the model, but the Server tab holds it back:{' '}
          {s.heldBack}
        </span>
      ) : null}
    </>
  );
}

function SkillResult({ s, rank }: { s: ScoredSkill; rank?: number }) {
  return (
    <li className="agent-result" data-skill={s.name}>
      <div className="row">
        <strong>
          {rank !== undefined ? `${rank}. ` : ''}
          {s.name}
        </strong>
        <span className="muted">
          score {s.score}
          {s.priority !== undefined ? `, priority ${String(s.priority)}` : ''}
        </span>
      </div>
      {s.reasons.length > 0 ? (
        <ul className="reasons">
          {s.reasons.map((r) => (
            <li key={`${r.kind}-${r.trigger}`}>{r.text}</li>
          ))}
        </ul>
      ) : null}
      {s.order ? <p className="order">{s.order.text}</p> : null}
      {s.why ? <p className="muted">{s.why}</p> : null}
      {s.ignored?.map((i) => (
        <p key={i} className="hint">
          Not read: {i}
        </p>
      ))}
      {s.hint ? <p className="hint">{s.hint.text}</p> : null}
    </li>
  );
}

/** The trigger tester: a prompt, attached file names and host intents → what is picked and why. */
function TesterSection() {
  const tester = useAgentViewStore((s) => s.tester);
  const selection = useAgentViewStore((s) => s.selection);
  const setTester = useAgentViewStore((s) => s.setTester);
  const ids = { prompt: useId(), files: useId(), intents: useId(), threshold: useId() };
  return (
    <section className="agent-tester" aria-label="Trigger tester">
      <h3>Will it be picked?</h3>
      <p className="help">
        Type what a user might ask. Skills are picked by the Universal 2.1 rules: a skill named in
        the prompt (such as /pdf-forms) is always picked; others score 3 points per matching file
        type, 2 per word or phrase they mention, 1 per intent, and are picked at the threshold.
      </p>
      <label htmlFor={ids.prompt}>Prompt</label>
      <textarea
        id={ids.prompt}
        rows={3}
        value={tester.prompt}
        onChange={(e) => setTester({ prompt: e.target.value })}
      />
      <div className="agent-inputs">
        <div>
          <label htmlFor={ids.files}>Attached file names</label>
          <input
            id={ids.files}
            value={tester.files}
            placeholder="report.pdf, hours.xlsx"
            onChange={(e) => setTester({ files: e.target.value })}
          />
        </div>
        <div>
          <label htmlFor={ids.intents}>Intents the host detected</label>
          <input
            id={ids.intents}
            value={tester.intents}
            placeholder="fill-form"
            onChange={(e) => setTester({ intents: e.target.value })}
          />
        </div>
        <div>
          <label htmlFor={ids.threshold}>Threshold</label>
          <input
            id={ids.threshold}
            type="number"
            value={tester.threshold}
            placeholder="3"
            onChange={(e) => setTester({ threshold: e.target.value })}
          />
        </div>
      </div>
      {selection ? (
        <div className="agent-results" aria-live="polite">
          <h4>
            Picked ({selection.selected.length}) at threshold {selection.threshold}
          </h4>
          {selection.selected.length === 0 ? <p className="muted">No skill is picked.</p> : null}
          <ol aria-label="Picked skills">
            {selection.selected.map((s, i) => (
              <SkillResult key={s.name} s={s} rank={i + 1} />
            ))}
          </ol>
          <h4>Not picked ({selection.considered.length})</h4>
          <ul aria-label="Skills not picked">
            {selection.considered.map((s) => (
              <SkillResult key={s.name} s={s} />
            ))}
          </ul>
        </div>
      ) : (
        <p className="muted">Type a prompt or a file name to see which skills are picked.</p>
      )}
    </section>
  );
}

function percent(m: Metrics, which: 'precision' | 'recall'): string {
  const v = m[which];
  return v === null ? '–' : `${Math.round(v * 100)}%`;
}

/** Run every skill's example prompts (evals/triggers.json) and show precision, recall and stolen prompts. */
function EvalsSection() {
  const evals = useAgentViewStore((s) => s.evals);
  const running = useAgentViewStore((s) => s.evalsRunning);
  const runEvals = useAgentViewStore((s) => s.runEvals);
  return (
    <section className="agent-evals" aria-label="Trigger examples">
      <div className="row between">
        <h3>Example prompts</h3>
        <button type="button" onClick={() => void runEvals()} disabled={running}>
          {running ? 'Running…' : 'Run the examples'}
        </button>
      </div>
      <p className="help">
        Keep prompts that should and should not pick a skill in its evals/triggers.json. That folder
        is never exported or served.
      </p>
      {evals ? (
        <>
          <p data-testid="evals-library">
            Whole library: precision {percent(evals.library, 'precision')}, recall{' '}
            {percent(evals.library, 'recall')} (threshold {evals.threshold}).
          </p>
          <table className="agent-table agent-eval-results" aria-label="Results per skill">
            <thead>
              <tr>
                <th scope="col">Skill</th>
                <th scope="col">Precision</th>
                <th scope="col">Recall</th>
                <th scope="col">What went wrong</th>
              </tr>
            </thead>
            <tbody>
              {evals.skills.map((s) => (
                <tr key={s.name} data-skill={s.name}>
                  <th scope="row">{s.name}</th>
                  <td>{percent(s.metrics, 'precision')}</td>
                  <td>{percent(s.metrics, 'recall')}</td>
                  <td>
                    <ul>
                      {s.error ? <li>{s.error}</li> : null}
                      {s.cases
                        .filter((c) => !c.passed)
                        .map((c) => (
                          <li key={`${c.expected}-${c.prompt}`}>
                            {c.expected === 'select' ? 'Not picked for' : 'Wrongly picked for'} “
                            {c.prompt}”
                            {c.stolenBy.length > 0
                              ? ` (picked instead: ${c.stolenBy.join(', ')})`
                              : ''}
                          </li>
                        ))}
                      {s.took.map((t) => (
                        <li key={`took-${t.from}-${t.prompt}`}>
                          Took “{t.prompt}” from {t.from}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {evals.withoutEvals.length > 0 ? (
            <p className="muted">No examples yet: {evals.withoutEvals.join(', ')}.</p>
          ) : null}
          {evals.notRun.map((n) => (
            <p key={n.file ?? n.name} className="muted">
              Not run: the examples of {n.name}. {n.why}
            </p>
          ))}
        </>
      ) : null}
    </section>
  );
}

/** "What the agent sees": the skills list in the model's instructions, the tester and the examples. */
export function AgentView() {
  const catalog = useAgentViewStore((s) => s.catalog);
  const loading = useAgentViewStore((s) => s.loading);
  const load = useAgentViewStore((s) => s.load);

  useEffect(() => {
    // Later changes arrive through the app's one event listener; this loads what is there now.
    void load();
  }, [load]);

  return (
    <section
      className="agent-view"
      aria-label="What the agent sees"
      data-state={catalog ? 'ready' : 'loading'}
    >
      <header className="row between">
        <div>
          <h2>What the agent sees</h2>
          <p className="help">
            Your library folders and the servers connected in the Inspector, merged the way an agent
            merges them: a skill on disk wins over a server’s skill with the same name.
          </p>
        </div>
        <button type="button" onClick={() => void load()} disabled={loading}>
          {loading ? 'Reading…' : 'Read again'}
        </button>
      </header>
      {catalog ? (
        <div className="agent-columns">
          <CatalogSection />
          <div>
            <TesterSection />
            <EvalsSection />
          </div>
        </div>
      ) : (
        <p className="muted">Reading your skills…</p>
      )}
    </section>
  );
}
