import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

let location: string | null = null;

/** Record the folder of the entry bundle (out/main); chunks live in a sub-folder, so they cannot use their own URL. */
export function setBundleDir(dir: string): void {
  location = dir;
}

/** The folder of the CLI bundle (out/main), or of this module when run from source (tests). */
export function bundleDir(): string {
  return location ?? dirname(fileURLToPath(import.meta.url));
}
