/**
 * Test support for the validation tests: setting file times, since listings check again every
 * folder with a file changed in the last two seconds (RACY_MS in ./library-job). Node only; no
 * test framework imports.
 */
import { lstat, lutimes, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** A time long before any test runs. */
export const LAST_YEAR = new Date(Date.UTC(2025, 0, 1));
/** A later time, for files "edited" after LAST_YEAR. */
export const LAST_MONTH = new Date(Date.UTC(2026, 9, 1));

/** Set the times of `path` (and everything under it, for a folder) to `when`, as for files edited a while ago. */
export async function backdate(path: string, when: Date): Promise<void> {
  await lutimes(path, when, when);
  if (!(await lstat(path)).isDirectory()) return;
  for (const e of await readdir(path, { withFileTypes: true, recursive: true }))
    await lutimes(join(e.parentPath, e.name), when, when);
}
