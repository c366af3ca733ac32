import { create } from 'zustand';
import { formatBytes } from '../../../../shared/text/bytes';
import type { ApiClient, ApiError } from '../../../../shared/ipc/contract';
import type { ImportPreview, ImportResult } from '../../../../shared/projection/types';
import type { TrustRequest } from '../../../../shared/safety/types';
import { readDroppedFile } from '../../ui/format';

/** What the import store needs from outside. */
export interface ImportDeps {
  api: ApiClient;
  /** A skill was written into the library. */
  onLibraryChanged: () => Promise<void>;
}

/** The import dialog: the checked source, its preview, the result or error. */
export interface ImportState {
  importSource: string | null;
  importPreview: ImportPreview | null;
  importResult: ImportResult | null;
  importError: ApiError | null;
  /** Send a dropped archive to main, then preview it. */
  uploadForImport: (file: File) => Promise<void>;
  previewImport: (source: string, pick?: string) => Promise<void>;
  runImport: (
    into: string,
    options?: { pick?: string; onConflict?: 'rename' | 'replace'; trust?: TrustRequest },
  ) => Promise<void>;
  /** Forget the dialog's state; answers still on their way are dropped. */
  resetImport: () => void;
}

/** Largest dropped archive sent to main (the import's own default limit is 16 MiB unpacked). */
export const MAX_UPLOAD_BYTES = 24 * 1024 * 1024;

/** Make an import store. */
export function createImportStore({ api, onLibraryChanged }: ImportDeps) {
  // Why a sequence: an answer asked for before the dialog closed must not fill the next one.
  let dialogs = 0;
  return create<ImportState>()((set, get) => ({
    importSource: null,
    importPreview: null,
    importResult: null,
    importError: null,

    async uploadForImport(file) {
      const dialog = dialogs;
      set({ importPreview: null, importResult: null, importError: null, importSource: null });
      if (file.size > MAX_UPLOAD_BYTES) {
        set({
          importError: {
            code: 'too-large',
            message: `${file.name} is ${formatBytes(file.size)}; skills larger than ${formatBytes(MAX_UPLOAD_BYTES)} are not imported by dropping. Use Import… with its path instead.`,
          },
        });
        return;
      }
      const read = await readDroppedFile(file);
      const uploaded = read.ok
        ? await api['import.upload']({ name: file.name, base64: read.value })
        : read;
      if (dialog !== dialogs) return;
      if (!uploaded.ok) {
        set({ importError: uploaded.error });
        return;
      }
      await get().previewImport(uploaded.value.source);
    },

    async previewImport(source, pick) {
      const dialog = dialogs;
      set({ importSource: source, importResult: null, importError: null });
      const result = await api['import.preview']({ source, pick });
      if (dialog !== dialogs) return;
      set(
        result.ok
          ? { importPreview: result.value }
          : { importError: result.error, importPreview: null },
      );
    },

    async runImport(into, options = {}) {
      const source = get().importSource;
      if (!source) return;
      const dialog = dialogs;
      set({ importError: null });
      const result = await api['import.run']({ source, into, ...options });
      if (dialog === dialogs)
        set(result.ok ? { importResult: result.value } : { importError: result.error });
      if (result.ok && result.value.status === 'imported') await onLibraryChanged();
    },

    resetImport() {
      dialogs += 1;
      set({ importSource: null, importPreview: null, importResult: null, importError: null });
    },
  }));
}
