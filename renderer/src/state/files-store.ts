import { create } from 'zustand';
import type { ChannelOutput } from '../../../shared/ipc/contract';
import { fileToBase64 } from '../format';
import { api } from '../platform/api';
import { useLibraryStore } from './library-store';

type Entry = ChannelOutput<'skill.files'>['entries'][number];
type Preview = ChannelOutput<'file.preview'>;

/** The open skill's files: the tree, the previewed file, and the last delete (for undo). */
export interface FilesState {
  skillDir: string | null;
  entries: Entry[];
  preview: Preview | null;
  undo: { token: string; path: string } | null;
  load: (skillDir: string) => Promise<void>;
  showPreview: (path: string) => Promise<void>;
  clearPreview: () => void;
  create: (path: string, kind: 'file' | 'directory') => Promise<boolean>;
  rename: (from: string, to: string) => Promise<string | null>;
  remove: (path: string) => Promise<boolean>;
  restore: () => Promise<boolean>;
  importFile: (path: string, file: File) => Promise<boolean>;
  /** An image of the skill as a data URL, for the Markdown preview (null when missing or not an image). */
  imageDataUrl: (relativePath: string) => Promise<string | null>;
}

/** The files store; its actions are the only callers of the file channels. */
export const useFilesStore = create<FilesState>((set, get) => {
  /** Show a failed result's message, or reload the tree after a change. */
  async function settle<T>(
    result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } },
  ): Promise<T | null> {
    if (!result.ok) {
      useLibraryStore.getState().showError(result.error);
      return null;
    }
    useLibraryStore.getState().showError(null);
    const dir = get().skillDir;
    if (dir) await get().load(dir);
    return result.value;
  }
  const dir = () => get().skillDir ?? '';

  return {
    skillDir: null,
    entries: [],
    preview: null,
    undo: null,

    async load(skillDir) {
      if (skillDir !== get().skillDir) set({ skillDir, preview: null, undo: null, entries: [] });
      const result = await api['skill.files']({ skillDir });
      if (get().skillDir !== skillDir) return;
      if (result.ok) set({ entries: result.value.entries });
      else useLibraryStore.getState().showError(result.error);
    },

    async showPreview(path) {
      const result = await api['file.preview']({ skillDir: dir(), path });
      if (result.ok) set({ preview: result.value });
      else useLibraryStore.getState().showError(result.error);
    },

    clearPreview() {
      set({ preview: null });
    },

    async create(path, kind) {
      return (await settle(await api['file.create']({ skillDir: dir(), path, kind }))) !== null;
    },

    async rename(from, to) {
      return (await settle(await api['file.rename']({ skillDir: dir(), from, to })))?.path ?? null;
    },

    async remove(path) {
      const value = await settle(await api['file.delete']({ skillDir: dir(), path }));
      if (value) set({ undo: { token: value.undoToken, path } });
      return value !== null;
    },

    async restore() {
      const undo = get().undo;
      if (!undo) return false;
      const value = await settle(await api['file.restore']({ undoToken: undo.token }));
      if (value) set({ undo: null });
      return value !== null;
    },

    async importFile(path, file) {
      return (
        (await settle(
          await api['file.import']({ skillDir: dir(), path, base64: await fileToBase64(file) }),
        )) !== null
      );
    },

    async imageDataUrl(relativePath) {
      const result = await api['file.preview']({ skillDir: dir(), path: relativePath });
      return result.ok && result.value.dataUrl ? result.value.dataUrl : null;
    },
  };
});
