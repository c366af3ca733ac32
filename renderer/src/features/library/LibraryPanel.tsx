import { useRef, useState } from 'react';
import { PROFILES } from '../../../../shared/validation';
import { PROFILE_IDS } from '../../../../shared/validation/types';
import type { ListFilter } from './library-store';
import { FoldersMenu } from './FoldersMenu';
import { SkillList, type SkillListHandle } from './SkillList';
import { useLibraryStore } from './stores';

/** The description budget of the whole library: every description an agent sees at once. */
function BudgetMeter() {
  const budget = useLibraryStore((s) => s.budget);
  if (!budget || budget.shares.length === 0) return null;
  const ratio = Math.min(1, budget.total / budget.limit);
  const top = [...budget.shares].sort((a, b) => b.characters - a.characters).slice(0, 3);
  return (
    <div className={budget.over ? 'budget over' : 'budget'}>
      <label htmlFor="budget-meter">
        Descriptions: {budget.total.toLocaleString()} / {budget.limit.toLocaleString()} characters
      </label>
      <meter
        id="budget-meter"
        min={0}
        max={budget.limit}
        value={Math.min(budget.total, budget.limit)}
        high={budget.limit * 0.85}
        optimum={0}
      >
        {Math.round(ratio * 100)}%
      </meter>
      {budget.over ? (
        <p className="budget-warning">
          Over budget: agents may leave skills out of their list. Longest:{' '}
          {top.map((s) => `${s.name} (${Math.round(s.share * 100)}%)`).join(', ')}.
        </p>
      ) : null}
    </div>
  );
}

/** Search, filters, sort, the list, and the budget meter. */
export function LibraryPanel({
  openPath,
  onOpen,
  onDropArchive,
  onBeforeRemove,
  installedIn,
}: {
  /** Called before a folder leaves the list. */
  onBeforeRemove?: (root: string) => Promise<void>;
  /** Per skill folder, the agents it is installed in. */
  installedIn?: Readonly<Record<string, readonly string[]>>;
  /** The skill open in the editor, marked in the list. */
  openPath: string | null;
  onOpen: (path: string) => void;
  /** A file was dropped on the list: an archive to import. */
  onDropArchive: (file: File) => void;
}) {
  const filter = useLibraryStore((s) => s.filter);
  const roots = useLibraryStore((s) => s.roots);
  const findings = useLibraryStore((s) => s.findings);
  const setFilter = useLibraryStore((s) => s.setFilter);
  const search = useRef<HTMLInputElement>(null);
  const list = useRef<SkillListHandle>(null);
  const [dropping, setDropping] = useState(false);

  return (
    <aside
      className={dropping ? 'sidebar dropping' : 'sidebar'}
      aria-label="Library"
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDropping(false);
        const file = e.dataTransfer.files[0];
        if (!file) return;
        onDropArchive(file);
      }}
    >
      <div className="list-controls">
        <FoldersMenu {...(onBeforeRemove ? { onBeforeRemove } : {})} />
        <input
          ref={search}
          id="skill-search"
          type="search"
          placeholder="Search skills (Ctrl+K)"
          aria-label="Search skills"
          value={filter.query}
          onChange={(e) => setFilter({ query: e.target.value })}
          onKeyDown={(e) => {
            // Why: from the search, ArrowDown reaches the results and Enter opens the first one.
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              list.current?.focusFirst();
            } else if (e.key === 'Enter' && list.current?.openFirst()) e.preventDefault();
          }}
        />
        <div className="filters">
          <select
            aria-label="Filter by status"
            value={filter.status}
            onChange={(e) => setFilter({ status: e.target.value as ListFilter['status'] })}
          >
            <option value="all">All</option>
            <option value="errors">With errors</option>
            <option value="warnings">Warnings only</option>
            <option value="clean">No problems</option>
          </select>
          <select
            aria-label="Filter by format"
            value={filter.profile}
            onChange={(e) => setFilter({ profile: e.target.value as ListFilter['profile'] })}
          >
            <option value="all">Any format</option>
            {PROFILE_IDS.filter((p) => p !== 'mcp-serve' && p !== 'claude-upload').map((p) => (
              <option key={p} value={p}>
                {PROFILES[p].title}
              </option>
            ))}
          </select>
          {roots.length > 1 ? (
            <select
              aria-label="Filter by folder"
              value={filter.root}
              onChange={(e) => setFilter({ root: e.target.value })}
            >
              <option value="all">All folders</option>
              {roots.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          ) : null}
          <select
            aria-label="Sort by"
            value={filter.sort}
            onChange={(e) => setFilter({ sort: e.target.value as ListFilter['sort'] })}
          >
            <option value="name">Name</option>
            <option value="path">Folder</option>
            <option value="status">Problems first</option>
          </select>
        </div>
      </div>
      <SkillList
        handle={list}
        openPath={openPath}
        onOpen={onOpen}
        {...(installedIn ? { installedIn } : {})}
      />
      {findings.length > 0 ? (
        <ul className="library-findings" aria-label="Library problems">
          {findings.map((f, i) => (
            <li key={`${f.ruleId}-${i}`} className={f.severity}>
              {f.message}
            </li>
          ))}
        </ul>
      ) : null}
      <BudgetMeter />
    </aside>
  );
}
