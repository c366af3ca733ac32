import { ListChecks } from 'lucide-react';
import { useCallback, useRef, useState } from 'react';
import { PROFILES } from '../../../shared/validation';
import { PROFILE_IDS, type ProfileId } from '../../../shared/validation/types';
import { profileLabel } from '../ui/profile-labels';
import { useDismiss } from '../ui/use-dismiss';
import { useSettingsStore } from './state/stores';
import { useAppStore } from './stores';

/**
 * Which readers' rules the editor and the list show: always each skill's own format
 * (shared/validation/choose-profiles.ts), and the targets chosen here on top.
 */
export function TargetSelector() {
  const profiles = useSettingsStore((s) => s.extraProfiles);
  const setTargets = useAppStore((s) => s.setTargets);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const toggleButton = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(box, open, close, toggleButton);

  function toggle(profile: ProfileId) {
    const next = profiles.includes(profile)
      ? profiles.filter((p) => p !== profile)
      : [...profiles, profile];
    void setTargets(PROFILE_IDS.filter((p) => next.includes(p)));
  }

  return (
    <div className="target-selector" ref={box}>
      <button
        ref={toggleButton}
        type="button"
        aria-expanded={open}
        aria-controls="target-options"
        onClick={() => setOpen(!open)}
      >
        <ListChecks size={16} aria-hidden />
        Check for: {['own format', ...profiles.map(profileLabel)].join(' + ')}
      </button>
      {open ? (
        <fieldset id="target-options" className="target-options">
          <legend>Each skill is checked for its own format. Also check for</legend>
          {PROFILE_IDS.map((p) => (
            <label key={p} title={PROFILES[p].title}>
              <input type="checkbox" checked={profiles.includes(p)} onChange={() => toggle(p)} />
              {profileLabel(p)}
            </label>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}
