import { count } from '../../../../shared/text/words';
import { formatBytes } from '../../../../shared/text/bytes';
import { useEffect, useRef, useState } from 'react';
import type { TrustRequest } from '../../../../shared/safety/types';
import type { ImportResult } from '../../../../shared/projection/types';
import { keptWords } from '../../ui/format';
import { NameConflictDialog } from '../../ui/NameConflictDialog';
import { SafetyReportView } from '../../ui/SafetyReport';
import { TrustDialog } from '../../ui/TrustDialog';
import { useImportStore } from './stores';

/**
 * Import a skill: from a dropped archive or a typed path, preview its files and
 * problems, pick the library folder, then import. Refusals say why and write nothing; a name
 * already in the library asks: rename, replace (old copy to the trash) or cancel.
 */
export function ImportDialog({
  roots,
  onClose,
}: {
  /** The library folders a skill may be imported into. */
  roots: string[];
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const {
    importSource,
    importPreview,
    importResult,
    importError,
    previewImport,
    runImport,
    resetImport,
  } = useImportStore();
  const [path, setPath] = useState('');
  const [into, setInto] = useState(roots[0] ?? '');
  const [pick, setPick] = useState<string | undefined>(undefined);
  // Why kept: "Trust anyway" goes with every later call (a name conflict asks again after it).
  const [trust, setTrust] = useState<TrustRequest | undefined>(undefined);
  const [trusting, setTrusting] = useState(false);
  // Why by identity: "Cancel" in the name-conflict dialog closes it for this answer only.
  const [dismissed, setDismissed] = useState<ImportResult | null>(null);
  const run = (options: { onConflict?: 'rename' | 'replace'; trust?: TrustRequest } = {}) => {
    const t = options.trust ?? trust;
    void runImport(into, { pick, ...options, ...(t ? { trust: t } : {}) });
  };

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  // Why on close, not on unmount: a dropped archive starts uploading as the dialog mounts, and a
  // development-mode remount must not drop it.
  function close() {
    resetImport();
    onClose();
  }

  const skills = importPreview?.status === 'ok' ? importPreview.skills : [];
  const chosen = skills.length === 1 ? skills[0] : skills.find((s) => s.root === pick);

  return (
    <dialog ref={dialog} className="import-dialog" aria-labelledby="import-title" onCancel={close}>
      <h2 id="import-title">Import a skill</h2>
      {!importSource ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void previewImport(path.trim());
          }}
        >
          <label htmlFor="import-path">
            A .zip, .skill, .tar.gz file, a skill folder or a SKILL.md
          </label>
          <div className="row">
            <input
              id="import-path"
              value={path}
              onChange={(e) => setPath(e.target.value)}
              spellCheck={false}
            />
            <button type="submit" disabled={path.trim() === ''}>
              Check it
            </button>
          </div>
          <p className="help">You can also drop an archive onto the skill list.</p>
        </form>
      ) : null}

      {importError ? (
        <p role="alert" className="field-error">
          {importError.message}
        </p>
      ) : null}

      {importPreview?.status === 'refused' ? (
        <div role="alert" className="refusal">
          <p>
            <strong>Not imported:</strong> {importPreview.refusal.message}
          </p>
          <p className="help">{importPreview.refusal.detail}</p>
          <p className="help">Nothing was written.</p>
        </div>
      ) : null}

      {importPreview?.status === 'ok' ? (
        <section aria-label="Import preview">
          {skills.length > 1 ? (
            <fieldset>
              <legend>This archive holds {skills.length} skills. Pick one:</legend>
              {skills.map((s) => (
                <label key={s.root}>
                  <input
                    type="radio"
                    name="import-pick"
                    checked={pick === s.root}
                    onChange={() => setPick(s.root)}
                  />{' '}
                  {s.name} <span className="muted">({s.root || '.'})</span>
                </label>
              ))}
            </fieldset>
          ) : null}
          {chosen ? (
            <>
              <h3>
                {chosen.name}: {count(chosen.files.length, 'file')}, {formatBytes(chosen.bytes)}
              </h3>
              {chosen.nameNote ? <p className="help">{chosen.nameNote}</p> : null}
              <ul className="import-files">
                {chosen.files.map((f) => (
                  <li key={f.path}>
                    <code>{f.path}</code>
                  </li>
                ))}
              </ul>
              {chosen.safety ? (
                <SafetyReportView reviewed={chosen.safety} heading="Before you import" level={4} />
              ) : null}
              {chosen.diagnostics.filter((d) => d.severity !== 'info').length > 0 ? (
                <ul className="import-problems" aria-label="Problems in this skill">
                  {chosen.diagnostics
                    .filter((d) => d.severity !== 'info')
                    .map((d, i) => (
                      <li key={`${d.ruleId}-${i}`} className={d.severity}>
                        {d.severity}: {d.message}
                      </li>
                    ))}
                </ul>
              ) : (
                <p className="help">No problems found.</p>
              )}
              <label htmlFor="import-into">Import into</label>
              <select id="import-into" value={into} onChange={(e) => setInto(e.target.value)}>
                {roots.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </>
          ) : null}
        </section>
      ) : null}

      {importResult ? (
        <section role="status" aria-label="Import result">
          {importResult.status === 'imported' ? (
            <p>
              {keptWords('Imported', importResult)} It is in <code>{importResult.dir}</code>.
            </p>
          ) : importResult.status === 'conflict' ? (
            importResult === dismissed ? (
              <p>Not imported: nothing was changed.</p>
            ) : (
              <NameConflictDialog
                name={importResult.name}
                suggestion={importResult.suggestion}
                message={importResult.message}
                verb="import"
                identical={importResult.identical}
                onKeepBoth={() => run({ onConflict: 'rename' })}
                onReplace={() => run({ onConflict: 'replace' })}
                onCancel={() => setDismissed(importResult)}
              />
            )
          ) : importResult.status === 'unsafe' ? (
            <div role="alert" className="refusal">
              <p>
                <strong>Not imported:</strong> {importResult.message}
              </p>
              <p className="help">Nothing was written.</p>
              <div className="row">
                <button type="button" className="danger" onClick={() => setTrusting(true)}>
                  Trust anyway…
                </button>
              </div>
              {trusting ? (
                <TrustDialog
                  reviewed={importResult.safety}
                  doing="import it"
                  onCancel={() => setTrusting(false)}
                  onConfirm={(reason, days) => {
                    setTrusting(false);
                    setTrust({ reason, days });
                    run({ trust: { reason, days } });
                  }}
                />
              ) : null}
            </div>
          ) : importResult.status === 'refused' ? (
            <p role="alert">Not imported: {importResult.refusal.message}</p>
          ) : (
            <p>{importResult.message}</p>
          )}
        </section>
      ) : null}

      <div className="row end">
        <button type="button" onClick={close}>
          {importResult?.status === 'imported' ? 'Done' : 'Cancel'}
        </button>
        {importPreview?.status === 'ok' && importResult?.status !== 'imported' ? (
          <button
            type="button"
            className="primary"
            disabled={!chosen || !into}
            onClick={() => run()}
          >
            Import
          </button>
        ) : null}
      </div>
    </dialog>
  );
}
