import { create } from 'zustand';
import type { ApiClient, ChannelOutput } from '../../../shared/ipc/contract';
import type { ProfileId } from '../../../shared/validation/types';
import type { EditorState } from '../features/editor/editor-store';
import type { LibraryState } from '../features/library/library-store';
import type { Notices } from './state/notices-store';
import type { SettingsState } from './state/settings-store';

type Info = ChannelOutput<'app.info'>;

/** What the app store needs: the API and the stores whose work it puts in order. */
export interface AppDeps {
  api: ApiClient;
  notices: Notices;
  settings: () => Pick<SettingsState, 'load' | 'setExtraProfiles' | 'lastOpenSkill'>;
  library: () => Pick<LibraryState, 'load' | 'refresh' | 'skills' | 'loadSuggestions'>;
  editor: () => Pick<EditorState, 'loadRecovered' | 'open' | 'revalidate'>;
}

/** The window as a whole: which shell it runs in, whether it has started, the selected targets. */
export interface AppState {
  info: Info | null;
  /** 'ready' once the first listing and the settings are in (whether or not they succeeded). */
  state: 'starting' | 'ready';
  /** Load everything the window shows at start, and reopen the last skill. */
  start: () => Promise<void>;
  /** Check for other targets: remember them, then check the open file and the list again. */
  setTargets: (profiles: ProfileId[]) => Promise<void>;
}

/** Make the app store. */
export function createAppStore({ api, notices, settings, library, editor }: AppDeps) {
  return create<AppState>()((set) => ({
    info: null,
    state: 'starting',

    async start() {
      // Why in parallel: the list is what the window waits for; settings must not delay it.
      const [info] = await Promise.all([api['app.info']({}), settings().load(), library().load()]);
      if (info.ok) set({ info: info.value });
      else notices.showError(info.error);
      set({ state: 'ready' });
      await editor().loadRecovered();
      const last = settings().lastOpenSkill;
      if (last && library().skills.some((s) => s.path === last)) await editor().open(last);
      await library().loadSuggestions();
    },

    async setTargets(profiles) {
      await settings().setExtraProfiles(profiles);
      editor().revalidate();
      await library().refresh();
    },
  }));
}
