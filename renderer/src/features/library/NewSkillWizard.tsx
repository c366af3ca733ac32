import { useEffect, useRef, useState } from 'react';
import { checkSkillName, suggestSkillName } from '../../../../shared/authoring/skill-name';
import { SKILL_TEMPLATES, type SkillTemplate } from '../../../../shared/authoring/templates';
import { templateTextIn } from '../../../../shared/skill/template-text';
import { useNoticesStore } from '../../app/state/stores';
import { useLibraryStore } from './stores';

/** Count characters as the limits do: code points, not UTF-16 units. */
function length(text: string): number {
  return [...text].length;
}

/** The new-skill wizard: name (checked as typed), description with guidance, template, folder. */
export function NewSkillWizard({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (path: string) => void;
}) {
  const roots = useLibraryStore((s) => s.roots);
  const createSkill = useLibraryStore((s) => s.createSkill);
  const [name, setName] = useState('');
  // Why per field: a field says what is wrong only once the user has typed in it (or pressed Create).
  const [touched, setTouched] = useState({ name: false, description: false });
  const [description, setDescription] = useState('');
  const [template, setTemplate] = useState<SkillTemplate['id']>('blank');
  const [root, setRoot] = useState(roots[0] ?? '');
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const nameProblem = checkSkillName(name);
  const descriptionLength = length(description.trim());
  const descriptionProblem =
    descriptionLength === 0
      ? 'Say what the skill does and when to use it.'
      : descriptionLength > 1024
        ? `The description has ${descriptionLength} characters; at most 1024 are allowed.`
        : templateTextIn(description) !== null
          ? 'That is still template text. Say what the skill does and when to use it.'
          : null;

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  async function create() {
    setTouched({ name: true, description: true });
    if (nameProblem || descriptionProblem || !root) return;
    const path = await createSkill({ root, name, description: description.trim(), template });
    if (path) {
      onCreated(path);
      onClose();
    } else {
      setError(useNoticesStore.getState().error?.message ?? 'The skill could not be created.');
    }
  }

  return (
    <dialog ref={dialog} className="wizard" aria-labelledby="wizard-title" onCancel={onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <h2 id="wizard-title">New skill</h2>
        {roots.length === 0 ? (
          <p role="alert">Open a library folder first: the new skill is created inside it.</p>
        ) : null}

        <label htmlFor="wizard-name">Name</label>
        <input
          id="wizard-name"
          value={name}
          autoFocus
          spellCheck={false}
          aria-describedby="wizard-name-help"
          aria-invalid={touched.name && nameProblem !== null}
          onChange={(e) => {
            setName(e.target.value);
            setTouched((t) => ({ ...t, name: true }));
          }}
          onBlur={() => {
            if (nameProblem && name !== '') setName(suggestSkillName(name) || name);
          }}
        />
        <p id="wizard-name-help" className={touched.name && nameProblem ? 'field-error' : 'help'}>
          {touched.name && nameProblem
            ? nameProblem
            : `Lowercase words joined by hyphens; it becomes the folder name. ${length(name)}/64`}
        </p>

        <label htmlFor="wizard-description">Description</label>
        <textarea
          id="wizard-description"
          rows={4}
          value={description}
          aria-describedby="wizard-description-help"
          aria-invalid={touched.description && descriptionProblem !== null}
          onChange={(e) => {
            setDescription(e.target.value);
            setTouched((t) => ({ ...t, description: true }));
          }}
        />
        <div id="wizard-description-help" className="help">
          <p>
            Agents decide from this text alone whether to load the skill. Say{' '}
            <strong>what it does</strong> and <strong>when to use it</strong>, with the words people
            actually type — for example: “Turns meeting notes into action items. Use when the user
            pastes notes or asks for next steps.”
          </p>
          <p className={touched.description && descriptionProblem ? 'field-error' : ''}>
            {touched.description && descriptionProblem
              ? descriptionProblem
              : `${descriptionLength}/1024`}
          </p>
        </div>

        <fieldset className="templates">
          <legend>Start from</legend>
          {SKILL_TEMPLATES.map((t) => (
            <label key={t.id}>
              <input
                type="radio"
                name="template"
                value={t.id}
                checked={template === t.id}
                onChange={() => setTemplate(t.id)}
              />
              <span>
                <strong>{t.title}</strong> — {t.help}
              </span>
            </label>
          ))}
        </fieldset>

        {roots.length > 1 ? (
          <>
            <label htmlFor="wizard-root">Create it in</label>
            <select id="wizard-root" value={root} onChange={(e) => setRoot(e.target.value)}>
              {roots.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </>
        ) : roots[0] ? (
          <p className="help">It will be created in {roots[0]}.</p>
        ) : null}

        {error ? (
          <p role="alert" className="field-error">
            {error}
          </p>
        ) : null}
        <div className="row end">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={roots.length === 0}>
            Create skill
          </button>
        </div>
      </form>
    </dialog>
  );
}
