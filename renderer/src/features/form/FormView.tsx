import { useEffect, useId, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { stringify } from 'yaml';
import {
  canEditFrontmatter,
  readFrontmatterFields,
  setFrontmatterField,
  setMetadataEntry,
} from '../../../../shared/authoring/frontmatter-edit';
import { applyEdits } from '../../../../shared/skill/text-edits';
import type { Diagnostic, ProfileId, QuickFix } from '../../../../shared/validation/types';
import {
  countCodePoints,
  diagnosticsFor,
  formFieldsFor,
  isTruthy,
  listToText,
  scalarText,
  textToList,
  unknownKeys,
} from './form-fields';
import type { FieldSpec } from './form-fields';
import './form-view.css';

/** Props of the frontmatter form. */
export interface FormViewProps {
  /** The whole SKILL.md. */
  text: string;
  /** Active profiles: their keys become fields. */
  profiles: ProfileId[];
  /** Diagnostics of `text`; those with a `field` pointer show under that field. */
  diagnostics: Diagnostic[];
  /** The new SKILL.md after a form edit. */
  onChange: (text: string) => void;
}

/** The parts of `text` the form needs, computed once per text. */
interface Snapshot {
  check: ReturnType<typeof canEditFrontmatter>;
  data: Record<string, unknown>;
}

/**
 * The one-click fixes of what keeps the frontmatter from reading cleanly (its YAML and its
 * `---` lines), offered where the form would be: the same fixes as the Problems panel's. Fixes
 * that rename the folder are left to the Problems panel.
 */
function blockingFixes(diagnostics: readonly Diagnostic[]): QuickFix[] {
  const byTitle = new Map<string, QuickFix>();
  for (const d of diagnostics) {
    if (!d.ruleId.startsWith('yaml/') && !d.ruleId.startsWith('frontmatter/')) continue;
    for (const f of d.fixes ?? [])
      if (f.fileOperations === undefined && f.edits.length > 0 && !byTitle.has(f.title))
        byTitle.set(f.title, f);
  }
  return [...byTitle.values()];
}

/** A form over the frontmatter: one labelled field per known key, edits written back through the yaml Document API. */
export function FormView({ text, profiles, diagnostics, onChange }: FormViewProps) {
  const baseId = useId();
  const snapshot = useMemo<Snapshot>(
    () => ({ check: canEditFrontmatter(text), data: readFrontmatterFields(text) }),
    [text],
  );
  const fields = useMemo(() => formFieldsFor(profiles), [profiles]);

  if (!snapshot.check.ok) {
    const fixes = blockingFixes(diagnostics);
    return (
      <div className="form-view" data-state="blocked">
        <div className="fv-blocked" role="status">
          <p className="fv-blocked-title">The form cannot show these fields right now.</p>
          <p>{snapshot.check.reason}</p>
          {fixes.length > 0 ? (
            <p className="fv-blocked-fixes">
              {fixes.map((fix, i) => (
                <button key={i} type="button" onClick={() => onChange(applyEdits(text, fix.edits))}>
                  {fix.title}
                </button>
              ))}
            </p>
          ) : null}
          <p className="fv-muted">
            {fixes.length > 0 ? 'Or switch' : 'Switch'} to the Text view to fix it; the form comes
            back as soon as the frontmatter reads cleanly.
          </p>
        </div>
      </div>
    );
  }

  const set = (key: string, value: unknown): void => {
    const next = setFrontmatterField(text, key, value);
    if (next !== text) onChange(next);
  };
  const setMeta = (key: string, value: string | undefined): void => {
    const next = setMetadataEntry(text, key, value);
    if (next !== text) onChange(next);
  };
  const extra = unknownKeys(fields, snapshot.data);
  const idFor = (key: string): string => `${baseId}-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;

  return (
    <form
      className="form-view"
      data-state="ready"
      aria-label="Frontmatter fields"
      onSubmit={(e) => e.preventDefault()}
    >
      {fields.map((field) => (
        <Field
          key={field.key}
          id={idFor(field.key)}
          field={field}
          value={snapshot.data[field.key]}
          present={Object.prototype.hasOwnProperty.call(snapshot.data, field.key)}
          diagnostics={diagnosticsFor(diagnostics, field.key)}
          onSet={(value) => set(field.key, value)}
          onSetMeta={setMeta}
        />
      ))}
      {extra.length > 0 ? (
        <fieldset className="fv-extra">
          <legend>Other fields in this file</legend>
          <p className="fv-help">
            The selected targets do not know these fields. Edit them in the Text view, or remove
            them here.
          </p>
          {extra.map((key) => (
            <ExtraField
              key={key}
              id={idFor(key)}
              name={key}
              value={snapshot.data[key]}
              diagnostics={diagnosticsFor(diagnostics, key)}
              onRemove={() => set(key, undefined)}
            />
          ))}
        </fieldset>
      ) : null}
    </form>
  );
}

interface FieldProps {
  id: string;
  field: FieldSpec;
  value: unknown;
  present: boolean;
  diagnostics: Diagnostic[];
  onSet: (value: unknown) => void;
  onSetMeta: (key: string, value: string | undefined) => void;
}

/** Messages under a field; `role="alert"` only for errors so warnings do not interrupt. */
function Messages({ id, diagnostics }: { id: string; diagnostics: Diagnostic[] }) {
  if (diagnostics.length === 0) return null;
  return (
    <div className="fv-messages" id={id}>
      {diagnostics.map((d, i) => (
        <p
          key={`${d.ruleId}-${i}`}
          className={`fv-message fv-${d.severity}`}
          role={d.severity === 'error' ? 'alert' : undefined}
        >
          <span className="fv-severity">
            {d.severity === 'error' ? 'Error' : d.severity === 'warning' ? 'Warning' : 'Note'}:
          </span>{' '}
          {d.message}
        </p>
      ))}
    </div>
  );
}

/** A field's frame: label, control, counter, help and messages, wired with aria-describedby. */
function FieldFrame({
  id,
  field,
  diagnostics,
  counter,
  children,
  action,
}: {
  id: string;
  field: FieldSpec;
  diagnostics: Diagnostic[];
  counter?: ReactNode;
  children: (describedBy: string, invalid: boolean) => ReactNode;
  action?: ReactNode;
}) {
  const helpId = `${id}-help`;
  const counterId = `${id}-count`;
  const messagesId = `${id}-messages`;
  const describedBy = [
    diagnostics.length > 0 ? messagesId : '',
    counter ? counterId : '',
    field.help ? helpId : '',
  ]
    .filter(Boolean)
    .join(' ');
  const invalid = diagnostics.some((d) => d.severity === 'error');
  const isGroup = field.kind === 'metadata' || field.kind === 'complex';
  return (
    <div
      className={`fv-field fv-kind-${field.kind}${invalid ? ' fv-invalid' : ''}`}
      data-field={field.key}
    >
      <div className="fv-label-row">
        {isGroup ? (
          <span className="fv-label" id={`${id}-label`}>
            {field.label} <code className="fv-key">{field.key}</code>
          </span>
        ) : (
          <label className="fv-label" htmlFor={id}>
            {field.label} <code className="fv-key">{field.key}</code>
            {field.required ? <span className="fv-required"> (required)</span> : null}
          </label>
        )}
        {counter ? (
          <span className="fv-counter" id={counterId}>
            {counter}
          </span>
        ) : null}
        {action}
      </div>
      {children(describedBy, invalid)}
      <Messages id={messagesId} diagnostics={diagnostics} />
      {field.help ? (
        <p className="fv-help" id={helpId}>
          {field.help}
        </p>
      ) : null}
    </div>
  );
}

/** A text kept locally while typing, re-synced when the file changes from outside. */
function useDraft(
  fromValue: string,
  same: (draft: string) => boolean,
): [string, (s: string) => void] {
  const [draft, setDraft] = useState(fromValue);
  useEffect(() => {
    if (!same(draft)) setDraft(fromValue);
    // Only an outside change of the value re-syncs (deliberately not on `draft`): the draft's
    // own edits are already in the file, and blank lines being typed must survive.
  }, [fromValue]);
  return [draft, setDraft];
}

/** One field, by kind. */
function Field(props: FieldProps) {
  const { id, field, value, present, diagnostics, onSet } = props;
  switch (field.kind) {
    case 'text':
    case 'textarea':
      return <TextField {...props} />;
    case 'select': {
      const current = scalarText(value);
      const options = field.options ?? [];
      return (
        <FieldFrame id={id} field={field} diagnostics={diagnostics}>
          {(describedBy, invalid) => (
            <select
              id={id}
              value={current}
              aria-describedby={describedBy || undefined}
              aria-invalid={invalid || undefined}
              onChange={(e) => onSet(e.target.value === '' ? undefined : e.target.value)}
            >
              <option value="">(not set)</option>
              {options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
              {current !== '' && !options.includes(current) ? (
                <option value={current}>{current} (not allowed)</option>
              ) : null}
            </select>
          )}
        </FieldFrame>
      );
    }
    case 'boolean':
      return (
        <FieldFrame
          id={id}
          field={field}
          diagnostics={diagnostics}
          action={
            present ? (
              <button
                type="button"
                className="fv-link-button"
                onClick={() => onSet(undefined)}
                aria-label={`Remove ${field.key} (use the default)`}
              >
                Use default
              </button>
            ) : null
          }
        >
          {(describedBy, invalid) => (
            <div className="fv-checkbox-row">
              <input
                id={id}
                type="checkbox"
                checked={isTruthy(value)}
                aria-describedby={describedBy || undefined}
                aria-invalid={invalid || undefined}
                onChange={(e) => onSet(e.target.checked)}
              />
              <span className="fv-muted">
                {present ? (isTruthy(value) ? 'true' : 'false') : 'not set (default)'}
              </span>
            </div>
          )}
        </FieldFrame>
      );
    case 'list':
      return <ListField {...props} />;
    case 'text-or-list':
      return Array.isArray(value) ? <ListField {...props} /> : <TextField {...props} />;
    case 'metadata':
      return <MetadataField {...props} />;
    case 'complex':
      return (
        <FieldFrame id={id} field={field} diagnostics={diagnostics}>
          {(describedBy) =>
            present ? (
              <pre
                className="fv-complex"
                id={id}
                tabIndex={0}
                aria-labelledby={`${id}-label`}
                aria-describedby={describedBy || undefined}
              >
                {stringify(value, { lineWidth: 0 }).trimEnd()}
              </pre>
            ) : (
              <p className="fv-muted" id={id}>
                Not set. This field has nested parts; add it in the Text view.
              </p>
            )
          }
        </FieldFrame>
      );
  }
}

/** A one-line or multi-line text field; empty removes an optional field. */
function TextField({ id, field, value, diagnostics, onSet }: FieldProps) {
  const current = scalarText(value);
  const limit = field.maxLength;
  const count = countCodePoints(current);
  const counter = limit ? (
    <span className={count > limit ? 'fv-over' : undefined}>
      {count}/{limit} characters
    </span>
  ) : undefined;
  const commit = (next: string): void => onSet(next === '' && !field.required ? undefined : next);
  return (
    <FieldFrame id={id} field={field} diagnostics={diagnostics} counter={counter}>
      {(describedBy, invalid) =>
        field.kind === 'textarea' ? (
          <textarea
            id={id}
            value={current}
            rows={field.key === 'description' ? 4 : 3}
            aria-describedby={describedBy || undefined}
            aria-invalid={invalid || undefined}
            aria-required={field.required || undefined}
            onChange={(e) => commit(e.target.value)}
          />
        ) : (
          <input
            id={id}
            type="text"
            value={current}
            spellCheck={false}
            aria-describedby={describedBy || undefined}
            aria-invalid={invalid || undefined}
            aria-required={field.required || undefined}
            onChange={(e) => commit(e.target.value)}
          />
        )
      }
    </FieldFrame>
  );
}

/** A list of strings, one per line; blank lines are kept while typing and dropped in the file. */
function ListField({ id, field, value, diagnostics, onSet }: FieldProps) {
  const fromValue = listToText(value);
  const [draft, setDraft] = useDraft(
    fromValue,
    (d) => textToList(d).join('\n') === textToList(fromValue).join('\n'),
  );
  return (
    <FieldFrame id={id} field={field} diagnostics={diagnostics}>
      {(describedBy, invalid) => (
        <>
          <textarea
            id={id}
            value={draft}
            rows={Math.min(8, Math.max(2, draft.split('\n').length + 1))}
            spellCheck={false}
            aria-describedby={[describedBy, `${id}-hint`].filter(Boolean).join(' ')}
            aria-invalid={invalid || undefined}
            onChange={(e) => {
              setDraft(e.target.value);
              const list = textToList(e.target.value);
              onSet(list.length > 0 ? list : undefined);
            }}
          />
          <p className="fv-hint" id={`${id}-hint`}>
            One entry per line.
          </p>
        </>
      )}
    </FieldFrame>
  );
}

/** The `metadata` mapping as a table of key/value rows with add and remove. */
function MetadataField({ id, field, value, diagnostics, onSetMeta, onSet }: FieldProps) {
  const entries =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>)
      : [];
  const notMapping =
    value !== undefined &&
    value !== null &&
    entries.length === 0 &&
    (typeof value !== 'object' || Array.isArray(value));
  const [newKey, setNewKey] = useState('');
  const [newValue, setNewValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = (): void => {
    const key = newKey.trim();
    if (key === '') {
      setProblem('Type a key for the new entry.');
      return;
    }
    if (entries.some(([k]) => k === key)) {
      setProblem(`There is already an entry "${key}". Change its value in the table.`);
      return;
    }
    setProblem(null);
    onSetMeta(key, newValue);
    setNewKey('');
    setNewValue('');
  };
  return (
    <FieldFrame id={id} field={field} diagnostics={diagnostics}>
      {(describedBy) => (
        <div
          role="group"
          aria-labelledby={`${id}-label`}
          aria-describedby={describedBy || undefined}
        >
          {notMapping ? (
            <p className="fv-muted">
              This field is not a list of entries. Adding an entry replaces it, or{' '}
              <button type="button" className="fv-link-button" onClick={() => onSet(undefined)}>
                remove it
              </button>
              .
            </p>
          ) : null}
          {entries.length > 0 ? (
            <table className="fv-meta-table">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Value</th>
                  <th scope="col">
                    <span className="fv-visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map(([k, v], i) => {
                  const rowId = `${id}-row-${i}`;
                  return (
                    <tr key={k}>
                      <th scope="row">
                        <code>{k}</code>
                      </th>
                      <td>
                        <label className="fv-visually-hidden" htmlFor={rowId}>
                          Value of {k}
                        </label>
                        <input
                          id={rowId}
                          type="text"
                          value={scalarText(v)}
                          spellCheck={false}
                          onChange={(e) => onSetMeta(k, e.target.value)}
                        />
                      </td>
                      <td>
                        <button
                          type="button"
                          onClick={() => onSetMeta(k, undefined)}
                          aria-label={`Remove ${k}`}
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          ) : notMapping ? null : (
            <p className="fv-muted">No entries yet.</p>
          )}
          <div className="fv-meta-add">
            <label htmlFor={`${id}-new-key`}>New key</label>
            <input
              id={`${id}-new-key`}
              type="text"
              value={newKey}
              spellCheck={false}
              aria-describedby={problem ? `${id}-add-problem` : undefined}
              onChange={(e) => setNewKey(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  add();
                }
              }}
            />
            <label htmlFor={`${id}-new-value`}>Value</label>
            <input
              id={`${id}-new-value`}
              type="text"
              value={newValue}
              spellCheck={false}
              onChange={(e) => setNewValue(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  add();
                }
              }}
            />
            <button type="button" onClick={add}>
              Add entry
            </button>
          </div>
          {problem ? (
            <p className="fv-message fv-error" id={`${id}-add-problem`} role="alert">
              {problem}
            </p>
          ) : null}
        </div>
      )}
    </FieldFrame>
  );
}

/** A field no active profile knows: its value, its messages and a Remove button. */
function ExtraField({
  id,
  name,
  value,
  diagnostics,
  onRemove,
}: {
  id: string;
  name: string;
  value: unknown;
  diagnostics: Diagnostic[];
  onRemove: () => void;
}) {
  const shown = typeof value === 'string' ? value : stringify(value, { lineWidth: 0 }).trimEnd();
  return (
    <div className="fv-field fv-extra-field" data-field={name}>
      <div className="fv-label-row">
        <span className="fv-label" id={`${id}-label`}>
          <code className="fv-key">{name}</code>
        </span>
        <button
          type="button"
          onClick={onRemove}
          aria-label={`Remove the field ${name}`}
          aria-describedby={diagnostics.length > 0 ? `${id}-messages` : undefined}
        >
          Remove
        </button>
      </div>
      <pre className="fv-complex" aria-labelledby={`${id}-label`}>
        {shown}
      </pre>
      <Messages id={`${id}-messages`} diagnostics={diagnostics} />
    </div>
  );
}
