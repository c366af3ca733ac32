import type { Result } from '../../../shared/ipc/contract';

/** Base64 of a file's bytes, for channels that carry files (the browser shell cannot pass paths). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  // Why chunks: String.fromCharCode with a huge argument list overflows the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Base64 of a dropped file, or a plain error when the browser cannot read it (moved, deleted, no access). */
export async function readDroppedFile(file: File): Promise<Result<string>> {
  try {
    return { ok: true, value: await fileToBase64(file) };
  } catch (error) {
    return {
      ok: false,
      error: {
        code: 'io',
        message: `${file.name} could not be read. It may have been moved or deleted; drop it again.`,
        detail: error instanceof Error ? error.message : String(error),
      },
    };
  }
}

/**
 * Where a skill written into the library went, in words: "Saved as pdf-tools-2 (your library
 * already had pdf-tools).", "Replaced pdf-tools; the old copy is in the trash (…).", "Saved pdf-tools."
 */
export function keptWords(
  done: string,
  kept: { name: string; renamedFrom?: string; trashedTo?: string },
): string {
  if (kept.renamedFrom !== undefined)
    return `${done} as ${kept.name} (your library already had ${kept.renamedFrom}).`;
  if (kept.trashedTo !== undefined)
    return `Replaced ${kept.name}; the old copy is in the trash (${kept.trashedTo}).`;
  return `${done} ${kept.name}.`;
}
