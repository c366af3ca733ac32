import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../platform/atomic-write';

const draftSchema = z.object({
  path: z.string(),
  text: z.string(),
  /** The file version the draft started from (null for a file not on disk yet). */
  baseVersion: z.string().nullable(),
  savedAt: z.string(),
});

/** An unsaved editor buffer kept on disk so a renderer crash loses nothing. */
export type Draft = z.infer<typeof draftSchema>;

/** Unsaved buffers in `<userData>/drafts`, one atomic JSON file per edited path. */
export class DraftStore {
  constructor(private readonly dir: string) {}

  private fileFor(path: string): string {
    return join(this.dir, `${createHash('sha256').update(path).digest('hex').slice(0, 32)}.json`);
  }

  /** Keep the current buffer of `path`. */
  async put(path: string, text: string, baseVersion: string | null): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const draft: Draft = { path, text, baseVersion, savedAt: new Date().toISOString() };
    await writeFileAtomic(this.fileFor(path), JSON.stringify(draft));
  }

  /** Forget the buffer of `path` (it was saved or discarded). */
  async discard(path: string): Promise<void> {
    await rm(this.fileFor(path), { force: true });
  }

  /** Every kept buffer; damaged files are skipped. */
  async list(): Promise<Draft[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const drafts: Draft[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      try {
        const parsed = draftSchema.safeParse(
          JSON.parse(await readFile(join(this.dir, name), 'utf8')),
        );
        if (parsed.success) drafts.push(parsed.data);
      } catch {
        // Why: a half-written or foreign file must not block recovery of the others.
      }
    }
    return drafts.sort((a, b) => a.path.localeCompare(b.path));
  }
}
