import { ViewTabs } from '../../ui/ViewTabs';
import { count } from '../../../../shared/text/words';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import type {
  FileStatus,
  FileTreeNode,
  FileVerification,
  SaveResult,
} from '../../../../shared/inspector/types';
import { parseSkill } from '../../../../shared/skill';
import { PROFILE_IDS, type ProfileId } from '../../../../shared/validation/types';
import { useInspectorStore } from './stores';
import { savedWords } from './inspector-store';
import { InstallDialog } from '../agents/InstallDialog';
import { ExportDialog } from '../export/ExportDialog';
import { useLibraryStore } from '../library/stores';
import { profileLabel } from '../../ui/profile-labels';
import { SafetyReportView } from '../../ui/SafetyReport';
import { NameConflictDialog } from '../../ui/NameConflictDialog';
import { TrustDialog } from '../../ui/TrustDialog';
import { formatBytes } from '../../../../shared/text/bytes';
import { FileViewer } from './FileViewer';
import { problemLines } from './problem-lines';
import { LegacyBadge, StatusBadge } from './StatusBadge';

const MarkdownPreview = lazy(() =>
  import('../../ui/MarkdownPreview').then((m) => ({ default: m.MarkdownPreview })),
);

/** The Markdown body of a SKILL.md (without its frontmatter). */
function bodyOf(text: string): string {
  const parsed = parseSkill(text);
  return parsed.frontmatter && parsed.frontmatter.closer !== null ? parsed.body : text;
}

/** A frontmatter value as text for the table. */
function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The manifest's file tree with a status badge per file; files open on click (read on demand). */
function TreeNode({
  node,
  statuses,
  onOpen,
}: {
  node: FileTreeNode;
  statuses: Record<string, FileVerification>;
  onOpen: (uri: string, path: string) => void;
}) {
  if (node.kind === 'file') {
    const status: FileStatus = statuses[node.uri]?.status ?? node.status ?? 'pending';
    return (
      <li className="insp-tree-file" data-path={node.path} data-status={status}>
        <button
          type="button"
          onClick={() => onOpen(node.uri, node.path)}
          aria-label={`Open ${node.path} (${status === 'pending' ? 'not read yet' : status})`}
        >
          {node.name}
        </button>{' '}
        <StatusBadge status={status} />
        {node.size !== undefined ? <span className="muted"> {formatBytes(node.size)}</span> : null}
      </li>
    );
  }
  return (
    <li className="insp-tree-dir">
      <span aria-hidden="true">▾ </span>
      {node.name}/
      <ul>
        {node.children?.map((child) => (
          <TreeNode key={child.uri} node={child} statuses={statuses} onOpen={onOpen} />
        ))}
      </ul>
    </li>
  );
}

/** The live folder listing through `resources/directory/read`, one page at a time. */
function LiveFolder({ rootUri }: { rootUri: string }) {
  const directory = useInspectorStore((s) => s.directory);
  const listDirectory = useInspectorStore((s) => s.listDirectory);
  const openFileAt = useInspectorStore((s) => s.openFileAt);
  const skill = useInspectorStore((s) => s.view?.skill);
  if (!directory) {
    return (
      <button type="button" onClick={() => void listDirectory(rootUri)}>
        List the folder live from the server
      </button>
    );
  }
  const parent =
    directory.uri === rootUri ? null : directory.uri.slice(0, directory.uri.lastIndexOf('/'));
  return (
    <div
      className="insp-live"
      data-state={directory.state}
      aria-label="Live folder listing"
      role="group"
    >
      <p className="muted">
        Folder <code>{directory.uri}</code>
      </p>
      <ul className="insp-plain-list">
        {parent ? (
          <li>
            <button type="button" onClick={() => void listDirectory(parent)}>
              Up one folder
            </button>
          </li>
        ) : null}
        {directory.entries.map((e) =>
          e.mimeType === 'inode/directory' ? (
            <li key={e.uri}>
              <button
                type="button"
                onClick={() => void listDirectory(e.uri)}
                aria-label={`${e.name}/ (open folder)`}
              >
                {e.name}/
              </button>
            </li>
          ) : (
            <li key={e.uri}>
              <button
                type="button"
                onClick={() => void openFileAt(e.uri, e.path ?? e.name)}
                disabled={e.status === 'unlisted' || !skill}
                title={
                  e.status === 'unlisted'
                    ? 'Not in the skill’s manifest, so it is not read.'
                    : undefined
                }
              >
                {e.name}
              </button>{' '}
              {e.status ? <StatusBadge status={e.status} /> : null}
            </li>
          ),
        )}
      </ul>
      {directory.state === 'loading' ? <p role="status">Loading…</p> : null}
      {directory.nextCursor && directory.state === 'ready' ? (
        <button type="button" onClick={() => void listDirectory(directory.uri, true)}>
          Load more
        </button>
      ) : null}
    </div>
  );
}

/** The outcome of "Save to my library" or "Export for upload"; a safety refusal offers "Trust anyway…". */
function SaveOutcome({
  result,
  what,
  onTrust,
}: {
  result: SaveResult;
  what: 'save' | 'export';
  onTrust?: () => void;
}) {
  const [exporting, setExporting] = useState(false);
  if (result.ok) {
    return (
      <>
        <p role="status" className="insp-ok">
          {what === 'save'
            ? savedWords(result)
            : `A verified copy is ready for upload in ${result.folder}.`}{' '}
          {what === 'export' ? (
            <button type="button" onClick={() => setExporting(true)}>
              Choose where to upload it…
            </button>
          ) : null}
        </p>
        {exporting ? (
          <ExportDialog skillDir={result.folder} onClose={() => setExporting(false)} />
        ) : null}
      </>
    );
  }
  return (
    <div role="alert" className="insp-error">
      {result.message}
      {result.reason === 'safety' ? (
        <>
          {' '}
          Nothing was written.
          {onTrust ? (
            <div className="row">
              <button type="button" className="danger" onClick={onTrust}>
                Trust anyway…
              </button>
            </div>
          ) : null}
        </>
      ) : null}
      {result.failures && result.failures.length > 0 ? (
        <ul>
          {result.failures.map((f) => (
            <li key={f.uri}>
              <code>{f.uri}</code> — {f.status}
              {f.reasons.length > 0 ? `: ${f.reasons.join(' ')}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** "Save to my library" (pick a library root), "Install into agents…" and "Export for upload". */
function KeepIt() {
  const roots = useLibraryStore((s) => s.roots);
  const skill = useInspectorStore((s) => s.view?.skill);
  const [installing, setInstalling] = useState(false);
  const saving = useInspectorStore((s) => s.saving);
  const save = useInspectorStore((s) => s.save);
  const exported = useInspectorStore((s) => s.exported);
  const safety = useInspectorStore((s) => s.safety);
  const { saveToLibrary, exportForUpload, reviewSafety } = useInspectorStore.getState();
  const [root, setRoot] = useState('');
  const [trusting, setTrusting] = useState(false);
  // Why kept: "Trust anyway" goes with the name-conflict choice already made, so it is not asked twice.
  const [onConflict, setOnConflict] = useState<'rename' | 'replace' | undefined>(undefined);
  // Why by identity: "Cancel" in the name-conflict dialog closes it for this answer only.
  const [dismissed, setDismissed] = useState<SaveResult | null>(null);
  const key = skill?.key;
  useEffect(() => {
    setOnConflict(undefined);
    if (key) void useInspectorStore.getState().reviewSafety();
  }, [key, reviewSafety]);
  const conflict =
    save && !save.ok && save.reason === 'conflict' && save.suggestion !== undefined ? save : null;
  const choose = (choice: 'rename' | 'replace') => {
    setOnConflict(choice);
    void saveToLibrary(chosen, { onConflict: choice });
  };
  const id = useId();
  const chosen = roots.includes(root) ? root : (roots[0] ?? '');
  return (
    <section aria-label="Keep it" className="insp-block">
      <h4>Keep it</h4>
      {safety ? (
        <SafetyReportView reviewed={safety} heading="Before you keep it" level={5} />
      ) : (
        <p className="muted">Reviewing the skill's safety…</p>
      )}
      {roots.length === 0 ? (
        <p className="muted">Open a library folder first (Open folder…) to save skills into it.</p>
      ) : null}
      <div className="row insp-keep">
        <label htmlFor={`${id}-root`}>Library folder</label>
        <select
          id={`${id}-root`}
          value={chosen}
          onChange={(e) => setRoot(e.target.value)}
          disabled={roots.length === 0}
        >
          {roots.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="primary"
          disabled={saving || !chosen}
          onClick={() => {
            setOnConflict(undefined);
            void saveToLibrary(chosen);
          }}
        >
          Save to my library
        </button>
        <button type="button" disabled={saving || !skill} onClick={() => setInstalling(true)}>
          Install into agents…
        </button>
        <button type="button" disabled={saving} onClick={() => void exportForUpload()}>
          Export for upload
        </button>
      </div>
      {installing && skill ? (
        <InstallDialog
          remote={{ key: skill.key, name: skill.name, server: skill.server }}
          onClose={() => setInstalling(false)}
        />
      ) : null}
      {saving ? <p role="status">Checking every file before writing…</p> : null}
      {conflict && skill ? (
        conflict === dismissed ? (
          <p role="status">Not saved: nothing was changed.</p>
        ) : (
          <NameConflictDialog
            name={skill.name}
            suggestion={conflict.suggestion ?? ''}
            message={conflict.message}
            verb="save"
            onKeepBoth={() => choose('rename')}
            onReplace={() => choose('replace')}
            onCancel={() => setDismissed(conflict)}
          />
        )
      ) : save ? (
        <SaveOutcome result={save} what="save" onTrust={() => setTrusting(true)} />
      ) : null}
      {trusting && safety ? (
        <TrustDialog
          reviewed={safety}
          doing="save it to your library"
          onCancel={() => setTrusting(false)}
          onConfirm={(reason, days) => {
            setTrusting(false);
            void saveToLibrary(chosen, {
              trust: { reason, days },
              ...(onConflict ? { onConflict } : {}),
            });
          }}
        />
      ) : null}
      {exported ? <SaveOutcome result={exported} what="export" /> : null}
    </section>
  );
}

/** Counts of file statuses, in words. */
function verdictWords(files: FileVerification[]): string {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(f.status, (counts.get(f.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
}

/** The skill screen: frontmatter, SKILL.md rendered and as source, validation, file tree, live folder, file viewer, verify, refresh, keep. */
export function InspectorSkillView() {
  const view = useInspectorStore((s) => s.view);
  const viewState = useInspectorStore((s) => s.viewState);
  const profile = useInspectorStore((s) => s.profile);
  const statuses = useInspectorStore((s) => s.fileStatuses);
  const verification = useInspectorStore((s) => s.verification);
  const verifying = useInspectorStore((s) => s.verifying);
  const selectedKey = useInspectorStore((s) => s.selectedKey);
  const { setProfile, verifyAll, refresh, openFileAt, imageDataUrl } = useInspectorStore.getState();
  const [tab, setTab] = useState<'rendered' | 'source'>('rendered');
  const [allowRemote, setAllowRemote] = useState(false);
  const id = useId();

  useEffect(() => {
    setAllowRemote(false);
    setTab('rendered');
  }, [selectedKey]);

  if (!selectedKey)
    return (
      <section aria-label="Skill" className="insp-skill-view empty muted">
        Connect to a server and pick one of its skills.
      </section>
    );
  if (!view) {
    return (
      <section aria-label="Skill" className="insp-skill-view" data-state={viewState}>
        {viewState === 'loading' ? (
          <p role="status">Reading SKILL.md and checking it…</p>
        ) : (
          <p className="muted">This skill could not be opened.</p>
        )}
      </section>
    );
  }
  const { skill, skillMd, frontmatter, text, validation } = view;
  const skillMdStatus = statuses[skillMd.verification.uri]?.status ?? skillMd.verification.status;
  const diagnostics = validation?.diagnostics ?? [];
  const problems = problemLines(skill.problems, verification?.problems);

  return (
    <section
      aria-label="Skill"
      className="insp-skill-view"
      data-state={viewState}
      data-key={skill.key}
    >
      <header className="insp-skill-head">
        <h3>
          {skill.name} <LegacyBadge label={skill.label} />
        </h3>
        <p className="muted">
          on <strong>{skill.server}</strong> · <code>{skill.uri}</code>
        </p>
        <div className="row">
          <button type="button" onClick={() => void verifyAll()} disabled={verifying}>
            Verify all
          </button>
          <button
            type="button"
            onClick={() => void refresh()}
            disabled={skill.route !== 'extension'}
            title={
              skill.route !== 'extension'
                ? 'Only skills found through the Skills extension can be fetched again with skills/get.'
                : undefined
            }
          >
            Refresh
          </button>
          <span className="insp-summary">
            SKILL.md <StatusBadge status={skillMdStatus} />
          </span>
        </div>
        {verifying ? <p role="status">Verifying every file…</p> : null}
        {verification ? (
          <p
            role="status"
            className={verification.verdict === 'verified' ? 'insp-ok' : 'insp-warn'}
            data-verdict={verification.verdict}
          >
            {verification.verdict === 'verified'
              ? `Every file matches the listing (${count(verification.files.length, 'file')}).`
              : verification.verdict === 'failed'
                ? `Verification failed: ${verdictWords(verification.files)}.`
                : `These files cannot be verified (no digests from the server): ${verdictWords(verification.files)}.`}
          </p>
        ) : null}
        {problems.length > 0 ? (
          <ul className="insp-problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : null}
      </header>

      {skillMd.verification.status !== 'verified' && skillMd.verification.reasons.length > 0 ? (
        <div
          role={text === undefined ? 'alert' : 'status'}
          className={text === undefined ? 'insp-error' : 'insp-warn'}
        >
          {text === undefined
            ? 'SKILL.md failed verification, so it is not shown.'
            : 'SKILL.md could not be verified; it is shown for reading only.'}
          <ul>
            {skillMd.verification.reasons.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
          {skillMd.verification.frontmatterDiffs?.length ? (
            <table className="insp-table">
              <caption>Frontmatter differences between the listing and the file</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">In the listing</th>
                  <th scope="col">In SKILL.md</th>
                </tr>
              </thead>
              <tbody>
                {skillMd.verification.frontmatterDiffs.map((d) => (
                  <tr key={d.field}>
                    <td>
                      <code>{d.field}</code>
                    </td>
                    <td>{d.entry === undefined ? '—' : show(d.entry)}</td>
                    <td>{d.file === undefined ? '—' : show(d.file)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </div>
      ) : null}

      <div className="insp-skill-columns">
        <div className="insp-skill-main">
          {frontmatter ? (
            <table className="insp-table" aria-label="Frontmatter">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(frontmatter).map(([field, value]) => (
                  <tr key={field}>
                    <th scope="row">{field}</th>
                    <td>{show(value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}

          {text !== undefined ? (
            <section aria-label="SKILL.md" className="insp-block">
              <ViewTabs
                label="SKILL.md as"
                value={tab}
                options={[
                  { id: 'rendered', label: 'Rendered' },
                  { id: 'source', label: 'Source' },
                ]}
                onChange={setTab}
              />
              {tab === 'rendered' ? (
                <Suspense fallback={<p className="muted">Loading the preview…</p>}>
                  <div className="insp-preview">
                    <MarkdownPreview
                      markdown={bodyOf(text)}
                      allowRemote={allowRemote}
                      onAllowRemote={() => setAllowRemote(true)}
                      resolveImage={imageDataUrl}
                      onOpenLink={(path) => {
                        const listed = Array.isArray(skill.manifest)
                          ? skill.manifest.find((f) => f.path === path)
                          : undefined;
                        if (listed) void openFileAt(listed.uri, path);
                      }}
                    />
                  </div>
                </Suspense>
              ) : (
                <pre className="insp-source" tabIndex={0} aria-label="SKILL.md source">
                  <code>{text}</code>
                </pre>
              )}
            </section>
          ) : null}

          <section aria-label="Validation" className="insp-block">
            <div className="row middle">
              <h4>Validation</h4>
              <label htmlFor={`${id}-profile`}>Check for</label>
              <select
                id={`${id}-profile`}
                value={profile}
                onChange={(e) => void setProfile(e.target.value as ProfileId | 'own')}
              >
                <option value="own">Its own format</option>
                {PROFILE_IDS.map((p) => (
                  <option key={p} value={p}>
                    {profileLabel(p)}
                  </option>
                ))}
              </select>
            </div>
            {!validation ? (
              <p className="muted">Not validated: SKILL.md could not be used.</p>
            ) : diagnostics.length === 0 ? (
              <p className="insp-ok">
                No problems for{' '}
                {view.profile === 'own'
                  ? `its own format (${view.profiles.map(profileLabel).join(', ')})`
                  : profileLabel(view.profile)}
                .
              </p>
            ) : (
              <ul className="insp-diagnostics">
                {diagnostics.map((d, i) => (
                  <li key={i} data-severity={d.severity} data-rule={d.ruleId}>
                    <strong>{d.severity}</strong> {d.message}{' '}
                    <code className="muted">{d.ruleId}</code>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>

        <div className="insp-skill-side">
          <section aria-label="Files" className="insp-block">
            <h4>Files</h4>
            {skill.manifest === 'dynamic' ? (
              <p className="muted">
                This skill is generated by the server (“dynamic”): it has no fixed file list, so
                nothing can be verified.
              </p>
            ) : null}
            <ul className="insp-tree">
              {view.tree.children?.map((child) => (
                <TreeNode
                  key={child.uri}
                  node={child}
                  statuses={statuses}
                  onOpen={(uri, path) => void openFileAt(uri, path)}
                />
              ))}
            </ul>
            {view.directoryRead ? <LiveFolder rootUri={skill.rootUri} /> : null}
          </section>
          <FileViewer />
          <KeepIt />
        </div>
      </div>
    </section>
  );
}
