import type { TextEdit } from '../../../../shared/validation/types';

/** What the mounted editor offers the stores: edits that land in Monaco's undo history. */
export interface EditorBridge {
  /** Apply edits (offsets into the store's text); returns false when they could not be applied in place. */
  applyEdits(edits: readonly TextEdit[]): boolean;
  /** Put the cursor on a place in the text. */
  reveal(offset: number): void;
}

let active: EditorBridge | null = null;

/** Register the mounted editor (null when it unmounts). */
export function setEditorBridge(bridge: EditorBridge | null): void {
  active = bridge;
}

/** The mounted editor, if any. */
export function editorBridge(): EditorBridge | null {
  return active;
}

/** The BOM is not part of Monaco's text; the store keeps it so the file's bytes survive. */
export const BOM = '\uFEFF';
