import { useState } from 'react';
import { PROFILES } from '../../../shared/validation';
import { PROFILE_IDS, type ProfileId } from '../../../shared/validation/types';
import { useLibraryStore } from '../state/library-store';

/** Short names for the targets, in the words users know them by. */
const LABELS: Record<ProfileId, string> = {
  agentskills: 'Agent Skills',
  'claude-upload': 'claude.ai upload',
  'claude-code': 'Claude Code',
  'agentskills-mcp': 'agentskills-mcp',
  'x-personal-mcp': 'x-personal-mcp',
  'universal-2.1': 'Universal 2.1',
  'mcp-serve': 'Skillbench server',
};

/** Which readers' rules the editor and the list show (several at once). */
export function TargetSelector() {
  const profiles = useLibraryStore((s) => s.profiles);
  const setProfiles = useLibraryStore((s) => s.setProfiles);
  const [open, setOpen] = useState(false);

  function toggle(profile: ProfileId) {
    const next = profiles.includes(profile)
      ? profiles.filter((p) => p !== profile)
      : [...profiles, profile];
    if (next.length > 0) void setProfiles(PROFILE_IDS.filter((p) => next.includes(p)));
  }

  return (
    <div className="target-selector">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="target-options"
        onClick={() => setOpen(!open)}
      >
        Check for: {profiles.map((p) => LABELS[p]).join(', ')}
      </button>
      {open ? (
        <fieldset id="target-options" className="target-options">
          <legend>Show the rules of</legend>
          {PROFILE_IDS.map((p) => (
            <label key={p} title={PROFILES[p].title}>
              <input
                type="checkbox"
                checked={profiles.includes(p)}
                onChange={() => toggle(p)}
                disabled={profiles.length === 1 && profiles.includes(p)}
              />
              {LABELS[p]}
            </label>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}

/** The label of a profile for messages. */
export function profileLabel(profile: ProfileId): string {
  return LABELS[profile];
}
