import { create } from 'zustand';
import type { ApiClient, ChannelOutput, Result } from '../../../../shared/ipc/contract';
import type { Notices } from '../../app/state/notices-store';
import { readDroppedFile } from '../../ui/format';

type Entry = ChannelOutput<'skill.files'>['entries'][number];
type Preview = ChannelOutput<'file.preview'>;

/** What the files store needs from outside. */
export interface FilesDeps {
  api: ApiClient;
  notices: Notices;
  /** After a file of the skill was created, renamed, removed, restored or added. */
  onChanged?: () => void;
}

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

/** Make a files store; its actions are the only callers of the file channels. */
export function createFilesStore({ api, notices, onChanged }: FilesDeps) {
  return create<FilesState>()((set, get) => {
    /** Show a failed result's message, or reload the tree after a change. */
    async function settle<T>(result: Result<T>): Promise<T | null> {
      if (!result.ok) {
        notices.showError(result.error);
        return null;
      }
      notices.showError(null);
      const dir = get().skillDir;
      if (dir) await get().load(dir);
      onChanged?.();
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
        else notices.showError(result.error);
      },

      async showPreview(path) {
        const skillDir = dir();
        const result = await api['file.preview']({ skillDir, path });
        // Why: another skill opened meanwhile; its tree must not show this one's file.
        if (get().skillDir !== skillDir) return;
        if (result.ok) set({ preview: result.value });
        else notices.showError(result.error);
      },

      clearPreview() {
        set({ preview: null });
      },

      async create(path, kind) {
        return (await settle(await api['file.create']({ skillDir: dir(), path, kind }))) !== null;
      },

      async rename(from, to) {
        return (
          (await settle(await api['file.rename']({ skillDir: dir(), from, to })))?.path ?? null
        );
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
        const skillDir = dir();
        const read = await readDroppedFile(file);
        if (!read.ok) {
          notices.showError(read.error);
          return false;
        }
        return (
          (await settle(await api['file.import']({ skillDir, path, base64: read.value }))) !== null
        );
      },

      async imageDataUrl(relativePath) {
        const result = await api['file.preview']({ skillDir: dir(), path: relativePath });
        return result.ok && result.value.dataUrl ? result.value.dataUrl : null;
      },
    };
  });
}
