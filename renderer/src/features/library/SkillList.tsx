import {
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type Ref,
} from 'react';
import type { SkillSummary } from '../../../../shared/ipc/contract';
import { SafetyRowBadge } from '../../ui/SafetyReport';
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

/** What the search field may do with the list. */
export interface SkillListHandle {
  /** Move the focus to the first skill shown. */
  focusFirst: () => void;
  /** Open the first skill shown; false when none is. */
  openFirst: () => boolean;
}

/** The safety review's badge for a row; nothing while a skill shows no known risk. */
function SkillSafetyBadge({ skill }: { skill: SkillSummary }) {
  const badge = useLibraryStore(
    (s) =>
      s.safety[dirOf(skill.path)] ?? (skill.linked ? s.safety[skill.linked.target] : undefined),
  );
  return <SafetyRowBadge badge={badge} where="Open the skill to see them." />;
}

/**
 * The skills of the library, filtered and sorted. Virtualised: only the rows in view (plus a
 * few) are in the DOM, so 5,000 skills scroll smoothly. One Tab stop: the arrow keys, Home and
 * End move between skills (a roving tabindex), Enter opens one.
 */
export function SkillList({
  openPath,
  onOpen,
  installedIn = {},
  handle,
}: {
  handle?: Ref<SkillListHandle>;
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
  // The row that holds the list's one Tab stop: the one last moved to, else the open skill, else the first.
  const [cursor, setCursor] = useState<string | null>(null);
  const focusCursor = useRef(false);
  const active = useMemo(() => {
    for (const wanted of [cursor, openPath]) {
      const index = wanted === null ? -1 : shown.findIndex((s) => s.path === wanted);
      if (index >= 0) return index;
    }
    return 0;
  }, [shown, cursor, openPath]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(shown.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  // Why: the Tab stop must exist even when its row is scrolled out of the rendered window.
  const rows = shown.slice(first, last).map((skill, i) => ({ skill, index: first + i }));
  const activeSkill = shown[active];
  if (activeSkill && (active < first || active >= last))
    rows.push({ skill: activeSkill, index: active });

  function moveTo(index: number) {
    const skill = shown[index];
    if (!skill) return;
    focusCursor.current = true;
    setCursor(skill.path);
    const top = index * ROW_HEIGHT;
    const el = viewport.current;
    if (el && (top < el.scrollTop || top + ROW_HEIGHT > el.scrollTop + el.clientHeight))
      el.scrollTop = top - el.clientHeight / 2;
  }

  useEffect(() => {
    if (!focusCursor.current) return;
    focusCursor.current = false;
    viewport.current?.querySelector<HTMLButtonElement>(`button[data-index="${active}"]`)?.focus();
  }, [active, cursor]);

  useImperativeHandle(
    handle,
    () => ({
      focusFirst: () => moveTo(0),
      openFirst: () => {
        const skill = shown[0];
        if (skill) onOpen(skill.path);
        return skill !== undefined;
      },
    }),
    [shown, onOpen],
  );

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT));
    const steps: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      Home: 0,
      End: shown.length - 1,
      PageDown: active + page,
      PageUp: active - page,
    };
    const next = steps[event.key];
    if (next === undefined || shown.length === 0) return;
    event.preventDefault();
    moveTo(Math.min(shown.length - 1, Math.max(0, next)));
  }

  if (skills.length === 0) {
    return (
      <p className="muted empty-hint">
        No skills here yet. Every folder with a <code>SKILL.md</code> inside it is listed; make one
        with New skill.
      </p>
    );
  }
  return (
    <>
      <p className="list-count" aria-live="polite">
        {shown.length === skills.length
          ? `${skills.length} ${skills.length === 1 ? 'skill' : 'skills'}`
          : `${shown.length} of ${skills.length} ${skills.length === 1 ? 'skill' : 'skills'}`}
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
          {rows.map(({ skill, index }) => (
            <li
              key={skill.path}
              style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}
              aria-setsize={shown.length}
              aria-posinset={index + 1}
            >
              <button
                type="button"
                tabIndex={index === active ? 0 : -1}
                data-index={index}
                onFocus={() => setCursor(skill.path)}
                className={skill.path === openPath ? 'skill-item selected' : 'skill-item'}
                aria-current={skill.path === openPath ? 'true' : undefined}
                onClick={() => onOpen(skill.path)}
                title={skill.path}
              >
                <span className="skill-name">{skill.name}</span>
                <StatusBadge skill={skill} />
                <SkillSafetyBadge skill={skill} />
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
