import { useLibraryStore } from '../state/library-store';

/** The skills found in the open library. */
export function SkillList() {
  const skills = useLibraryStore((s) => s.skills);
  const openPath = useLibraryStore((s) => s.openPath);
  const root = useLibraryStore((s) => s.root);
  const openSkill = useLibraryStore((s) => s.openSkill);

  if (!root) {
    return (
      <p className="muted empty-hint">
        Open a folder to see its skills. Every folder with a <code>SKILL.md</code> inside it is listed.
      </p>
    );
  }
  return (
    <ul className="skill-list" aria-label="Skills">
      {skills.map((skill) => (
        <li key={skill.path}>
          <button
            type="button"
            className={skill.path === openPath ? 'skill-item selected' : 'skill-item'}
            aria-current={skill.path === openPath ? 'true' : undefined}
            onClick={() => void openSkill(skill.path)}
          >
            <span className="skill-name">{skill.name}</span>
            <span className="skill-description">{skill.description || 'No description'}</span>
            <span className="skill-path">{skill.relativeDir || '.'}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
