import { create } from 'zustand';
import type {
  ApiClient,
  ApiError,
  ChannelInput,
  ChannelOutput,
} from '../../../../shared/ipc/contract';
import type { ExportResult } from '../../../../shared/projection/types';

type Planned = ChannelOutput<'export.plan'>;
type ExportRequest = ChannelInput<'export.run'>;

/** What the export store needs from outside. */
export interface ExportDeps {
  api: ApiClient;
  /** An export wrote skills where the library may list them (a Claude Code install). */
  onLibraryChanged: () => void;
}

/** The export dialog: the plan it shows, the last result or error. */
export interface ExportState {
  planned: Planned | null;
  planning: boolean;
  exportResult: ExportResult | null;
  exportError: ApiError | null;
  plan: (request: ChannelInput<'export.plan'>) => Promise<void>;
  runExport: (request: ExportRequest) => Promise<void>;
  reveal: (path: string) => Promise<boolean>;
  /** Forget the dialog's state; answers still on their way are dropped. */
  resetExport: () => void;
}

/** Make an export store. */
export function createExportStore({ api, onLibraryChanged }: ExportDeps) {
  // Why sequences: a plan for the previous destination may answer after the current one; and
  // nothing asked for before the dialog closed may land in the next one.
  let plans = 0;
  let dialogs = 0;
  return create<ExportState>()((set) => ({
    planned: null,
    planning: false,
    exportResult: null,
    exportError: null,

    async plan(request) {
      const mine = ++plans;
      set({ planning: true, exportResult: null, exportError: null });
      const result = await api['export.plan'](request);
      if (mine !== plans) return;
      set({
        planning: false,
        planned: result.ok ? result.value : null,
        exportError: result.ok ? null : result.error,
      });
    },

    async runExport(request) {
      const dialog = dialogs;
      set({ exportError: null, exportResult: null });
      const result = await api['export.run'](request);
      if (dialog === dialogs)
        set(result.ok ? { exportResult: result.value } : { exportError: result.error });
      if (result.ok && result.value.status === 'written' && request.target === 'claude-code')
        onLibraryChanged();
    },

    async reveal(path) {
      const result = await api['export.reveal']({ path });
      return result.ok && result.value.shown;
    },

    resetExport() {
      plans += 1;
      dialogs += 1;
      set({ planned: null, planning: false, exportResult: null, exportError: null });
    },
  }));
}
