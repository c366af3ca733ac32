import { count } from '../../../../shared/text/words';
import { useEffect, useRef, useState } from 'react';
import { TARGETS } from '../../../../shared/projection';
import type { ProjectionChange, TargetId } from '../../../../shared/projection/types';
import type { TrustRequest } from '../../../../shared/safety/types';
import { formatBytes } from '../../../../shared/text/bytes';
import { SafetyReportView } from '../../ui/SafetyReport';
import { TrustDialog } from '../../ui/TrustDialog';
import { CopyButton } from '../../ui/CopyButton';
import { shellKind } from '../../platform/api';
import { useExportStore } from './stores';

/**
 * The export dialog: pick a destination, see the SKILL.md it will receive as a
 * diff, every file with whether and why it is included, the destination's own checks, then export.
 */
export function ExportDialog({ skillDir, onClose }: { skillDir: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [target, setTarget] = useState<TargetId>('claude-ai');
  const [keep, setKeep] = useState<string[]>([]);
  const [project, setProject] = useState(false);
  const [out, setOut] = useState('');
  const [sha256File, setSha256File] = useState(false);
  const [force, setForce] = useState(false);
  const [trusting, setTrusting] = useState(false);
  const [scope, setScope] = useState<'user' | 'project'>('user');
  const [projectDir, setProjectDir] = useState('');
  const { planned, planning, exportResult, exportError, plan, runExport, reveal, resetExport } =
    useExportStore();
  const definition = TARGETS.find((t) => t.id === target);
  const isArchive = definition?.output !== 'folder';
  const claudeCode =
    scope === 'project' && projectDir
      ? { scope: 'project' as const, project: projectDir }
      : { scope: 'user' as const };

  useEffect(() => {
    dialog.current?.showModal();
    return () => resetExport();
  }, [resetExport]);

  useEffect(() => {
    void plan({
      skillDir,
      target,
      keep,
      project: project || undefined,
      claudeCode: target === 'claude-code' ? claudeCode : undefined,
    });
  }, [skillDir, target, keep, project, scope, projectDir, plan]);

  useEffect(() => {
    if (planned && target !== 'claude-code') setOut(planned.defaultOut);
  }, [planned?.defaultOut, target, planned]);

  const p = planned?.plan;
  const errors = p?.issues.filter((i) => i.severity === 'error') ?? [];
  const warnings = p?.issues.filter((i) => i.severity === 'warning').length ?? 0;
  const canExport = p !== undefined && (!p.blocked || (p.canOverride && force));
  const safetyBlocked = p?.issues.some((i) => i.ruleId === 'package/safety-dont-trust') ?? false;

  function request(overwrite = false, trust?: TrustRequest) {
    return {
      skillDir,
      target,
      keep,
      project: project || undefined,
      out: target === 'claude-code' ? undefined : out || undefined,
      sha256File: isArchive ? sha256File : undefined,
      claudeCode: target === 'claude-code' ? claudeCode : undefined,
      force: force || undefined,
      overwrite: overwrite || undefined,
      ...(trust ? { trust } : {}),
    };
  }

  return (
    <dialog
      ref={dialog}
      className="export-dialog"
      aria-labelledby="export-title"
      onCancel={onClose}
      data-state={planning ? 'planning' : 'ready'}
    >
      <h2 id="export-title">Export {p?.skillName ?? ''}</h2>
      <div className="export-grid">
        <fieldset className="targets">
          <legend>Destination</legend>
          {TARGETS.map((t) => (
            <label key={t.id}>
              <input
                type="radio"
                name="export-target"
                checked={target === t.id}
                onChange={() => setTarget(t.id)}
              />
              <span>
                <strong>{t.label}</strong>
                <br />
                <span className="help">{t.description}</span>
              </span>
            </label>
          ))}
        </fieldset>

        <div className="export-details">
          {exportError ? (
            <p role="alert" className="field-error">
              {exportError.message}
              {exportError.code === 'exists' ? (
                <>
                  {' '}
                  <button type="button" onClick={() => void runExport(request(true))}>
                    Replace it
                  </button>
                </>
              ) : null}
            </p>
          ) : null}
          {p ? (
            <>
              <section aria-label="Checks" className="export-checks">
                <h3>
                  {p.issues.some((i) => i.ruleId === 'package/safety-dont-trust')
                    ? 'Skillbench holds this skill back: the safety review says not to trust it'
                    : p.issues.some((i) => i.ruleId === 'package/destination-link')
                      ? 'Skillbench does not write there: see below'
                      : p.blocked
                        ? `${definition?.label ?? ''} will refuse this skill`
                        : warnings > 0
                          ? `Checks passed, with ${warnings} warning${warnings === 1 ? '' : 's'}`
                          : 'Checks passed'}
                </h3>
                {p.issues.length === 0 ? (
                  <p className="help">Nothing the destination would reject.</p>
                ) : null}
                <ul>
                  {p.issues.map((issue, i) => (
                    <li
                      key={`${issue.ruleId}-${i}`}
                      className={issue.severity}
                      data-rule={issue.ruleId}
                    >
                      <span className={`severity ${issue.severity}`}>{issue.severity}</span>{' '}
                      {issue.message}
                      {issue.destinationWording ? (
                        <span className="destination-wording">
                          {' '}
                          The destination says: “{issue.destinationWording}”
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
                {p.blocked && p.canOverride ? (
                  <label>
                    <input
                      type="checkbox"
                      checked={force}
                      onChange={(e) => setForce(e.target.checked)}
                    />{' '}
                    Copy it anyway ({errors.length} {errors.length === 1 ? 'error' : 'errors'})
                  </label>
                ) : null}
              </section>

              {p.safety ? (
                <SafetyReportView
                  reviewed={p.safety}
                  heading="Before you export"
                  actions={
                    safetyBlocked ? (
                      <button type="button" className="danger" onClick={() => setTrusting(true)}>
                        Trust anyway…
                      </button>
                    ) : undefined
                  }
                />
              ) : null}
              {trusting && p.safety ? (
                <TrustDialog
                  reviewed={p.safety}
                  doing="export it"
                  onCancel={() => setTrusting(false)}
                  onConfirm={(reason, days) => {
                    setTrusting(false);
                    void runExport(request(false, { reason, days }));
                  }}
                />
              ) : null}
              <section aria-label="SKILL.md changes" className="projection">
                <h3>SKILL.md as the destination receives it</h3>
                {p.projection.changes.filter((c) => c.action !== 'kept').length === 0 &&
                p.projection.normalisations.length === 0 ? (
                  <p className="help">Unchanged.</p>
                ) : (
                  <ul>
                    {groupChanges(p.projection.changes).map((g) => (
                      <li key={g.keys.join(' ')} data-action={g.action}>
                        {g.keys.map((key, i) => (
                          <span key={key}>
                            {i > 0 ? ', ' : ''}
                            <code>{key}</code>
                          </span>
                        ))}
                        : {g.why}
                      </li>
                    ))}
                    {p.projection.normalisations.map((n) => (
                      <li key={n.kind}>{n.why}</li>
                    ))}
                  </ul>
                )}
                <pre className="diff" aria-label="Difference from your SKILL.md">
                  {planned.diff.map((line, i) => (
                    <span key={i} className={`diff-${line.kind}`}>
                      {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
                      {line.text}
                      {'\n'}
                    </span>
                  ))}
                </pre>
                {isArchive && target.startsWith('archive') ? (
                  <label>
                    <input
                      type="checkbox"
                      checked={project}
                      onChange={(e) => setProject(e.target.checked)}
                    />{' '}
                    Keep only the six standard fields (as for an upload)
                  </label>
                ) : null}
              </section>

              <section aria-label="Files" className="export-files">
                <h3>
                  Files: {p.totals.files} included, {formatBytes(p.totals.bytes)}
                  {definition?.limits.maxFiles ? ` (limit ${definition.limits.maxFiles} files` : ''}
                  {definition?.limits.maxBytes
                    ? `, ${formatBytes(definition.limits.maxBytes)})`
                    : definition?.limits.maxFiles
                      ? ')'
                      : ''}
                </h3>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">File</th>
                      <th scope="col">Size</th>
                      <th scope="col">Included</th>
                      <th scope="col">Why</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.entries
                      .filter((e) => e.kind !== 'directory')
                      .map((e) => (
                        <tr
                          key={`${e.source ?? ''}→${e.output}`}
                          className={e.included ? '' : 'excluded'}
                        >
                          <td>
                            <code>{e.output || e.source}</code>
                          </td>
                          <td>{formatBytes(e.size)}</td>
                          <td>{e.included ? 'yes' : 'no'}</td>
                          <td>
                            {e.reason ?? ''}
                            {e.keepable && e.source ? (
                              <label className="keep">
                                <input
                                  type="checkbox"
                                  checked={keep.includes(e.source)}
                                  onChange={(ev) =>
                                    setKeep(
                                      ev.target.checked
                                        ? [...keep, e.source as string]
                                        : keep.filter((k) => k !== e.source),
                                    )
                                  }
                                />{' '}
                                Keep it
                              </label>
                            ) : null}
                          </td>
                        </tr>
                      ))}
                  </tbody>
                </table>
                {p.apiFiles ? (
                  <p className="help">
                    Claude API multipart upload: {p.apiFiles.length} files[] entries.
                  </p>
                ) : null}
              </section>
            </>
          ) : planning ? (
            <p className="muted">Checking…</p>
          ) : null}

          <section aria-label="Destination path" className="export-out">
            {target === 'claude-code' ? (
              <fieldset>
                <legend>Install into</legend>
                <label>
                  <input
                    type="radio"
                    name="cc-scope"
                    checked={scope === 'user'}
                    onChange={() => setScope('user')}
                  />{' '}
                  My skills (~/.claude/skills)
                </label>
                <label>
                  <input
                    type="radio"
                    name="cc-scope"
                    checked={scope === 'project'}
                    onChange={() => setScope('project')}
                  />{' '}
                  A project&apos;s .claude/skills
                </label>
                {scope === 'project' ? (
                  <>
                    <label htmlFor="export-project">Project folder</label>
                    <input
                      id="export-project"
                      value={projectDir}
                      onChange={(e) => setProjectDir(e.target.value)}
                      spellCheck={false}
                    />
                  </>
                ) : null}
              </fieldset>
            ) : (
              <>
                <label htmlFor="export-out">{isArchive ? 'Save as' : 'Copy into folder'}</label>
                <input
                  id="export-out"
                  value={out}
                  onChange={(e) => setOut(e.target.value)}
                  spellCheck={false}
                />
                {shellKind === 'browser' ? (
                  <p className="help">
                    A path on the computer running Skillbench: the file is written there, not
                    downloaded by this browser.
                  </p>
                ) : null}
                {isArchive ? (
                  <label>
                    <input
                      type="checkbox"
                      checked={sha256File}
                      onChange={(e) => setSha256File(e.target.checked)}
                    />{' '}
                    Also write a .sha256 file
                  </label>
                ) : null}
              </>
            )}
          </section>
        </div>
      </div>
      <div className="export-footer">
        {exportResult ? (
          <section role="status" aria-label="Export result" className="export-result">
            {exportResult.status === 'written' ? (
              <>
                <p>
                  Written ({exportResult.files} {exportResult.files === 1 ? 'file' : 'files'},{' '}
                  {formatBytes(exportResult.bytes)})
                  {shellKind === 'browser'
                    ? ' on the computer running Skillbench, not downloaded by this browser. It is at:'
                    : '. It is at:'}
                </p>
                <p className="copy-line">
                  <code>{exportResult.path}</code>
                  <CopyButton text={exportResult.path} label="Copy where the file is" />
                </p>
                {exportResult.sha256 ? (
                  <p>
                    SHA-256: <code>{exportResult.sha256}</code>
                  </p>
                ) : null}
                {shellKind === 'electron' ? (
                  <button type="button" onClick={() => void reveal(exportResult.path)}>
                    Show in folder
                  </button>
                ) : null}
              </>
            ) : exportResult.status === 'blocked' ? (
              <p>Not exported: fix the errors above first.</p>
            ) : exportResult.status === 'archive-exists' ? (
              <p>
                <code>{exportResult.path}</code> already exists; nothing was written.
              </p>
            ) : (
              <>
                <p>
                  <code>{exportResult.path}</code> already exists. Replacing it changes{' '}
                  {count(exportResult.diff.changed.length, 'file')}, adds{' '}
                  {exportResult.diff.added.length} and removes {exportResult.diff.removed.length};
                  the old copy goes to Skillbench&apos;s trash.
                </p>
                <ul className="folder-diff">
                  {exportResult.diff.added.map((f) => (
                    <li key={`a${f}`}>+ {f}</li>
                  ))}
                  {exportResult.diff.changed.map((f) => (
                    <li key={`c${f}`}>~ {f}</li>
                  ))}
                  {exportResult.diff.removed.map((f) => (
                    <li key={`r${f}`}>- {f}</li>
                  ))}
                </ul>
                <button type="button" onClick={() => void runExport(request(true))}>
                  Replace the existing copy
                </button>
              </>
            )}
          </section>
        ) : null}
        <div className="row end">
          <button type="button" onClick={onClose}>
            Close
          </button>
          <button
            type="button"
            className="primary"
            disabled={!canExport || planning}
            onClick={() => void runExport(request())}
          >
            Export
          </button>
        </div>
      </div>
    </dialog>
  );
}

/** Changes to SKILL.md grouped by what happened and why, so one explanation covers every key it applies to. */
function groupChanges(
  changes: readonly ProjectionChange[],
): { action: ProjectionChange['action']; why: string; keys: string[] }[] {
  const groups = new Map<
    string,
    { action: ProjectionChange['action']; why: string; keys: string[] }
  >();
  for (const c of changes) {
    if (c.action === 'kept') continue;
    const id = `${c.action}\u0000${c.why}`;
    const group = groups.get(id) ?? { action: c.action, why: c.why, keys: [] };
    group.keys.push(c.key);
    groups.set(id, group);
  }
  return [...groups.values()];
}
