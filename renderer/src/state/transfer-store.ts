import { create } from 'zustand';
import type { ApiError, ChannelInput, ChannelOutput } from '../../../shared/ipc/contract';
import type {
  ExportResult,
  ImportPreview,
  ImportResult,
  TargetId,
} from '../../../shared/projection/types';
import { fileToBase64 } from '../format';
import { api } from '../platform/api';
import { useLibraryStore } from './library-store';

type Planned = ChannelOutput<'export.plan'>;
type ExportRequest = ChannelInput<'export.run'>;

/** Export and import: the plan shown in the export dialog, the last result, the import preview. */
export interface TransferState {
  planned: Planned | null;
  planning: boolean;
  exportResult: ExportResult | null;
  exportError: ApiError | null;
  importSource: string | null;
  importPreview: ImportPreview | null;
  importResult: ImportResult | null;
  importError: ApiError | null;
  plan: (request: ChannelInput<'export.plan'>) => Promise<void>;
  runExport: (request: ExportRequest) => Promise<void>;
  reveal: (path: string) => Promise<boolean>;
  resetExport: () => void;
  uploadForImport: (file: File) => Promise<void>;
  previewImport: (source: string, pick?: string) => Promise<void>;
  runImport: (
    into: string,
    options?: { pick?: string; onConflict?: 'rename' | 'replace' },
  ) => Promise<void>;
  resetImport: () => void;
}

/** Largest dropped archive sent to main (the import's own default limit is 16 MiB unpacked). */
const MAX_UPLOAD_BYTES = 24 * 1024 * 1024;

/** The export/import store. */
export const useTransferStore = create<TransferState>((set, get) => ({
  planned: null,
  planning: false,
  exportResult: null,
  exportError: null,
  importSource: null,
  importPreview: null,
  importResult: null,
  importError: null,

  async plan(request) {
    set({ planning: true, exportResult: null, exportError: null });
    const result = await api['export.plan'](request);
    set({
      planning: false,
      planned: result.ok ? result.value : null,
      exportError: result.ok ? null : result.error,
    });
  },

  async runExport(request) {
    set({ exportError: null, exportResult: null });
    const result = await api['export.run'](request);
    if (!result.ok) {
      set({ exportError: result.error });
      return;
    }
    set({ exportResult: result.value });
    if (result.value.status === 'written' && request.target === 'claude-code')
      void useLibraryStore.getState().refresh();
  },

  async reveal(path) {
    const result = await api['export.reveal']({ path });
    return result.ok && result.value.shown;
  },

  resetExport() {
    set({ planned: null, exportResult: null, exportError: null });
  },

  async uploadForImport(file) {
    set({ importPreview: null, importResult: null, importError: null, importSource: null });
    if (file.size > MAX_UPLOAD_BYTES) {
      set({
        importError: {
          code: 'too-large',
          message: `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; skills larger than 24 MB are not imported by dropping. Use Import… with its path instead.`,
        },
      });
      return;
    }
    const uploaded = await api['import.upload']({
      name: file.name,
      base64: await fileToBase64(file),
    });
    if (!uploaded.ok) {
      set({ importError: uploaded.error });
      return;
    }
    await get().previewImport(uploaded.value.source);
  },

  async previewImport(source, pick) {
    set({ importSource: source, importResult: null, importError: null });
    const result = await api['import.preview']({ source, pick });
    set(
      result.ok
        ? { importPreview: result.value }
        : { importError: result.error, importPreview: null },
    );
  },

  async runImport(into, options = {}) {
    const source = get().importSource;
    if (!source) return;
    set({ importError: null });
    const result = await api['import.run']({ source, into, ...options });
    if (!result.ok) {
      set({ importError: result.error });
      return;
    }
    set({ importResult: result.value });
    if (result.value.status === 'imported') await useLibraryStore.getState().refresh();
  },

  resetImport() {
    set({ importSource: null, importPreview: null, importResult: null, importError: null });
  },
}));

/** The target ids in dialog order. */
export type { TargetId };
