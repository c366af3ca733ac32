import { useId, useState } from 'react';
import type {
  DiscoveryResult,
  DiscoveryRoute,
  DiscoveryStep,
  InspectedSkill,
} from '../../../../shared/inspector/types';
import { useInspectorStore } from './stores';
import { LegacyBadge } from './StatusBadge';

/** Each discovery route in plain words. */
const ROUTES: Record<DiscoveryStep['route'], string> = {
  extension: 'the Skills extension (skills/list)',
  'index-april-2026': 'skill://index.json (April 2026 draft)',
  'index-june-2026': 'skill://index.json (June 2026 schema)',
  'fastmcp-manifest': 'FastMCP _manifest resources',
  'resources-list': 'resources whose address ends in /SKILL.md',
  'resources-list-scan': 'the server’s resource list',
  'resource-template': 'resource templates',
};

/** What happened at a step, in plain words. */
const OUTCOMES: Record<DiscoveryStep['outcome'], string> = {
  used: 'used',
  empty: 'found nothing',
  'not-offered': 'not offered',
  failed: 'failed',
  skipped: 'skipped',
};

/** The sentence for the route taken. */
function routeSentence(route: DiscoveryRoute | undefined, count: number): string {
  if (!route)
    return 'No skills were found. A listing that finds nothing does not prove the server has none; try a template below if it offers one.';
  return `Found ${count} ${count === 1 ? 'skill' : 'skills'} through ${ROUTES[route]}.`;
}

/** One skill in the list: name, path, description, labels, and its same-named twins. */
function SkillRow({
  skill,
  selected,
  onOpen,
}: {
  skill: InspectedSkill;
  selected: boolean;
  onOpen: () => void;
}) {
  return (
    <li>
      <button
        type="button"
        className={`insp-skill${selected ? ' selected' : ''}`}
        aria-current={selected ? 'true' : undefined}
        onClick={onOpen}
        data-key={skill.key}
      >
        <span className="insp-skill-name">{skill.name}</span> <LegacyBadge label={skill.label} />
        <span className="insp-skill-path">{skill.skillPath ?? skill.uri}</span>
        {skill.description ? <span className="insp-skill-desc">{skill.description}</span> : null}
      </button>
    </li>
  );
}

/** Skills that share a name, shown side by side with their server and path so none shadows another. */
function SameNameGroups({ skills }: { skills: InspectedSkill[] }) {
  const groups = new Map<string, InspectedSkill[]>();
  for (const s of skills)
    if (s.sameNameAs.length > 0) groups.set(s.name, [...(groups.get(s.name) ?? []), s]);
  if (groups.size === 0) return null;
  return (
    <section aria-label="Skills with the same name" className="insp-block">
      <h3>Same name, different skills</h3>
      {[...groups].map(([name, twins]) => (
        <div key={name} className="insp-twins" role="group" aria-label={`Skills named ${name}`}>
          {twins.map((s) => (
            <div key={s.key} className="insp-twin">
              <strong>{s.name}</strong>
              <span>
                on <em>{s.server}</em>
              </span>
              <code>{s.uri}</code>
              {s.description ? <span className="muted">{s.description}</span> : null}
            </div>
          ))}
        </div>
      ))}
    </section>
  );
}

/** A server's discovery: the route taken, the steps tried, problems, and templates to fill in. */
function ServerDiscovery({ result }: { result: DiscoveryResult }) {
  const discover = useInspectorStore((s) => s.discover);
  const [uri, setUri] = useState('');
  const id = useId();
  return (
    <div className="insp-route">
      <p role="status">{routeSentence(result.route, result.skills.length)}</p>
      {result.partial ? (
        <p className="insp-warn">The listing stopped early at a safety limit, so it is partial.</p>
      ) : null}
      <details>
        <summary>Steps tried ({result.steps.length})</summary>
        <ol>
          {result.steps.map((step, i) => (
            <li key={i} data-outcome={step.outcome}>
              {ROUTES[step.route]}: <strong>{OUTCOMES[step.outcome]}</strong> — {step.detail}
              {step.pages !== undefined
                ? ` (${step.pages} ${step.pages === 1 ? 'page' : 'pages'})`
                : ''}
            </li>
          ))}
        </ol>
      </details>
      {result.problems.length > 0 ? (
        <ul className="insp-problems">
          {result.problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      ) : null}
      {result.templates.length > 0 ? (
        <form
          className="insp-template"
          onSubmit={(e) => {
            e.preventDefault();
            if (uri.trim()) void discover(result.server, [uri.trim()]);
          }}
        >
          <p className="muted">
            The server offers templates: {result.templates.map((t) => t.uriTemplate).join(', ')}
          </p>
          <label htmlFor={`${id}-uri`}>SKILL.md address to try</label>
          <div className="row">
            <input
              id={`${id}-uri`}
              value={uri}
              onChange={(e) => setUri(e.target.value)}
              placeholder={result.templates[0]?.uriTemplate}
              spellCheck={false}
            />
            <button type="submit">Try</button>
          </div>
        </form>
      ) : null}
    </div>
  );
}

/** Discovery results and skills, grouped by server. */
export function DiscoveryPanel() {
  const skills = useInspectorStore((s) => s.skills);
  const discoveries = useInspectorStore((s) => s.discoveries);
  const statuses = useInspectorStore((s) => s.statuses);
  const selectedKey = useInspectorStore((s) => s.selectedKey);
  const selectSkill = useInspectorStore((s) => s.selectSkill);
  const servers = [
    ...new Set([...Object.keys(discoveries), ...skills.map((s) => s.server)]),
  ].filter((label) => statuses[label]);
  if (servers.length === 0) return null;
  return (
    <>
      {servers.map((server) => {
        const mine = skills.filter((s) => s.server === server);
        const result = discoveries[server];
        return (
          <section key={server} aria-label={`Skills on ${server}`} className="insp-block">
            <h3>Skills on {server}</h3>
            {result ? <ServerDiscovery result={result} /> : null}
            <ul className="insp-skill-list">
              {mine.map((s) => (
                <SkillRow
                  key={s.key}
                  skill={s}
                  selected={s.key === selectedKey}
                  onOpen={() => void selectSkill(s.key)}
                />
              ))}
            </ul>
          </section>
        );
      })}
      <SameNameGroups skills={skills} />
    </>
  );
}
