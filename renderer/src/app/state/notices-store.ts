import { create } from 'zustand';
import type { ApiError } from '../../../../shared/ipc/contract';

/** What every store may tell the user: the last problem, and a short confirmation. */
export interface Notices {
  /** Show a problem in plain words (null clears it). */
  showError: (error: ApiError | null) => void;
  /** Show a short confirmation such as "Saved" (null clears it). */
  showNotice: (notice: string | null) => void;
}

/** The window's messages: one error banner and one status line, shared by every feature. */
export interface NoticesState extends Notices {
  error: ApiError | null;
  notice: string | null;
}

/** Make a notices store. */
export function createNoticesStore() {
  return create<NoticesState>()((set) => ({
    error: null,
    notice: null,
    showError(error) {
      set({ error });
    },
    showNotice(notice) {
      set({ notice });
    },
  }));
}
