import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SkillSummary } from '../../../../shared/ipc/contract';
import { SafetyBadge } from '../../ui/SafetyReport';
import { visibleSkills } from './library-store';
import { useLibraryStore } from './stores';

/** Height of one row in pixels; the list is virtualised on it. */
const ROW_HEIGHT = 66;
const OVERSCAN = 8;

function StatusBadge({ skill }: { skill: SkillSummary }) {
  if (skill.pending) {
    return (
      <span
        className="badge pending"
        aria-label="Being checked"
        title="Skillbench is still checking this skill."
      >
        …
      </span>
    );
  }
  const { error, warning } = skill.counts;
  if (error > 0)
    return (
      <span className="badge error" aria-label={`${error} ${error === 1 ? 'error' : 'errors'}`}>
        {error}
      </span>
    );
  if (warning > 0)
    return (
      <span
        className="badge warning"
        aria-label={`${warning} ${warning === 1 ? 'warning' : 'warnings'}`}
      >
        {warning}
      </span>
    );
  return (
    <span className="badge ok" aria-label="No problems">
      ✓
    </span>
  );
}

/** The folder of a skill's SKILL.md path. */
function dirOf(path: string): string {
  return path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')));
}

/** "· installed in Claude Code, Codex" for a skill's SKILL.md path, or ''. */
function installedLabel(
  installedIn: Readonly<Record<string, readonly string[]>>,
  path: string,
): string {
  const agents = installedIn[dirOf(path)];
  return agents && agents.length > 0 ? ` · installed in ${agents.join(', ')}` : '';
}

/** The safety review's badge for a row; nothing while a skill shows no known risk. */
function SafetyRowBadge({ skill }: { skill: SkillSummary }) {
  const badge = useLibraryStore(
    (s) =>
      s.safety[dirOf(skill.path)] ?? (skill.linked ? s.safety[skill.linked.target] : undefined),
  );
  if (!badge || (badge.verdict === 'clear' && !badge.accepted)) return null;
  const title = badge.accepted
    ? `You chose to trust this version (${badge.findings} finding${badge.findings === 1 ? '' : 's'}).`
    : `Safety review: ${badge.headline} (${badge.findings} finding${badge.findings === 1 ? '' : 's'}). Open the skill to see them.`;
  return <SafetyBadge verdict={badge.verdict} accepted={badge.accepted} title={title} />;
}

/**
 * The skills of the library, filtered and sorted. Virtualised: only the rows in view (plus a
 * few) are in the DOM, so 5,000 skills scroll smoothly.
 */
export function SkillList({
  openPath,
  onOpen,
  installedIn = {},
}: {
  /** The skill open in the editor, marked in the list. */
  openPath: string | null;
  onOpen: (path: string) => void;
  /** Per skill folder, the agents it is installed in (from the Agents view). */
  installedIn?: Readonly<Record<string, readonly string[]>>;
}) {
  const skills = useLibraryStore((s) => s.skills);
  const filter = useLibraryStore((s) => s.filter);
  const shown = useMemo(() => visibleSkills(skills, filter), [skills, filter]);
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(shown.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const current = shown.findIndex((s) => s.path === openPath);
    const next = Math.min(
      shown.length - 1,
      Math.max(0, current + (event.key === 'ArrowDown' ? 1 : -1)),
    );
    const skill = shown[next];
    if (!skill) return;
    event.preventDefault();
    onOpen(skill.path);
    const top = next * ROW_HEIGHT;
    const el = viewport.current;
    if (el && (top < el.scrollTop || top + ROW_HEIGHT > el.scrollTop + el.clientHeight))
      el.scrollTop = top - el.clientHeight / 2;
  }

  if (skills.length === 0) {
    return (
      <p className="muted empty-hint">
        Open a folder to see its skills. Every folder with a <code>SKILL.md</code> inside it is
        listed.
      </p>
    );
  }
  return (
    <>
      <p className="list-count" aria-live="polite">
        {shown.length === skills.length
          ? `${skills.length} skills`
          : `${shown.length} of ${skills.length} skills`}
      </p>
      <div
        className="skill-viewport"
        ref={(el) => {
          viewport.current = el;
          if (el && el.clientHeight > 0 && el.clientHeight !== height) setHeight(el.clientHeight);
        }}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        onKeyDown={onKeyDown}
        data-testid="skill-viewport"
      >
        <ul
          className="skill-list"
          aria-label="Skills"
          style={{ height: shown.length * ROW_HEIGHT }}
        >
          {shown.slice(first, last).map((skill, i) => (
            <li
              key={skill.path}
              style={{ top: (first + i) * ROW_HEIGHT, height: ROW_HEIGHT }}
              aria-setsize={shown.length}
              aria-posinset={first + i + 1}
            >
              <button
                type="button"
                className={skill.path === openPath ? 'skill-item selected' : 'skill-item'}
                aria-current={skill.path === openPath ? 'true' : undefined}
                onClick={() => onOpen(skill.path)}
                title={skill.path}
              >
                <span className="skill-name">{skill.name}</span>
                <StatusBadge skill={skill} />
                <SafetyRowBadge skill={skill} />
                <span className="skill-description">{skill.description || 'No description'}</span>
                <span className="skill-path">
                  {skill.relativeDir || '.'}
                  {skill.linked ? ` · linked to ${skill.linked.target}` : ''}
                  {installedLabel(installedIn, skill.path)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
