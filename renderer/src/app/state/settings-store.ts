import { create } from 'zustand';
import type { ApiClient } from '../../../../shared/ipc/contract';
import type { ProfileId } from '../../../../shared/validation/types';
import type { Notices } from './notices-store';

/** What the settings store needs from outside. */
export interface SettingsDeps {
  api: ApiClient;
  notices: Notices;
}

/**
 * Remembered settings: the extra targets (profiles) the editor and the list check for on top of
 * each skill's own format, the last open skill.
 */
export interface SettingsState {
  extraProfiles: ProfileId[];
  lastOpenSkill: string | null;
  /** Tab moves the focus out of the text editor (the default) instead of typing a tab. */
  tabMovesFocus: boolean;
  /** Read the remembered settings. */
  load: () => Promise<void>;
  /** Choose the extra targets (none: each skill's own format only); returns whether they were remembered. */
  setExtraProfiles: (profiles: ProfileId[]) => Promise<boolean>;
  /** Remember the SKILL.md to reopen at the next start. */
  rememberOpenSkill: (path: string) => void;
  /** Choose what Tab does in the text editor (remembered). */
  setTabMovesFocus: (on: boolean) => void;
}

/** Make a settings store. */
export function createSettingsStore({ api, notices }: SettingsDeps) {
  // Why a counter: a choice the user made while the settings were still loading must not be undone by them.
  let choices = 0;
  return create<SettingsState>()((set) => ({
    extraProfiles: [],
    lastOpenSkill: null,
    tabMovesFocus: true,

    async load() {
      const before = choices;
      const result = await api['settings.get']({});
      if (!result.ok) return;
      set({
        lastOpenSkill: result.value.lastOpenSkill,
        tabMovesFocus: result.value.tabMovesFocus ?? true,
        ...(choices === before ? { extraProfiles: result.value.extraProfiles } : {}),
      });
    },

    async setExtraProfiles(profiles) {
      choices += 1;
      set({ extraProfiles: profiles });
      const result = await api['settings.update']({ extraProfiles: profiles });
      if (!result.ok) notices.showError(result.error);
      return result.ok;
    },

    rememberOpenSkill(path) {
      set({ lastOpenSkill: path });
      // Why not awaited: losing this only means the next start opens no skill.
      void api['settings.update']({ lastOpenSkill: path });
    },

    setTabMovesFocus(on) {
      set({ tabMovesFocus: on });
      // Why not awaited: a failed write only means the next start uses the default again.
      void api['settings.update']({ tabMovesFocus: on });
    },
  }));
}
