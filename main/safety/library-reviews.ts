/**
 * The library list's badges: every library skill reviewed, and reviewed again only when its
 * files changed (paths, sizes, times), so listing a large library twice reads each file once.
 */
import { createHash } from 'node:crypto';
import type { SafetyBadge, SafetyReviewResult } from '../../shared/safety';
import { mapLimit } from '../platform/concurrency';
import { readSkillFolder, type SkillFolder } from '../skill-folder';
import { readAcceptances, type AcceptanceRecord } from './acceptances';
import { reviewInputOfFolder } from './read-skill';
import { applyAcceptance, reviewRead } from './service';

/** What the walk says of a folder: enough to tell that nothing changed. */
function fingerprintOf(folder: SkillFolder): string {
  const h = createHash('sha256');
  for (const e of folder.entries)
    h.update(`${e.path}\0${e.kind}\0${e.size}\0${e.mtimeMs ?? 0}\0${e.link?.text ?? ''}\n`);
  return h.digest('hex');
}

/** Reviews of library skills, kept while their files stay the same. */
export class LibraryReviews {
  private readonly memo = new Map<string, { fingerprint: string; reviewed: SafetyReviewResult }>();
  /**
   * Reviews under way, by folder and fingerprint. Why: the library's badges, the Agents view's
   * and the agent view ask at once for the same folders; one review answers them all.
   */
  private readonly running = new Map<string, Promise<SafetyReviewResult>>();

  constructor(private readonly dataDir: string) {}

  /** The review of one folder (from the memo when its files did not change), acceptances applied now. */
  async review(dir: string): Promise<SafetyReviewResult> {
    return this.reviewWith(dir, await readAcceptances(this.dataDir));
  }

  /**
   * The review of one folder with the acceptances given. Why one walk: the fingerprint and the
   * review come from the same listing of the folder, so a review is never kept under the
   * fingerprint of an earlier state, and the folder is not walked twice.
   */
  private async reviewWith(
    dir: string,
    records: readonly AcceptanceRecord[],
  ): Promise<SafetyReviewResult> {
    const folder = await readSkillFolder(dir);
    const fingerprint = fingerprintOf(folder);
    let known = this.memo.get(dir);
    if (!known || known.fingerprint !== fingerprint) {
      const key = `${dir}\0${fingerprint}`;
      let review = this.running.get(key);
      if (!review) {
        // Why no acceptances here: the memo keeps the bare review; acceptances change apart from files.
        review = reviewInputOfFolder(folder)
          .then((read) => reviewRead(read, []))
          .finally(() => this.running.delete(key));
        this.running.set(key, review);
      }
      known = { fingerprint, reviewed: await review };
      this.memo.set(dir, known);
    }
    return applyAcceptance(known.reviewed, records);
  }

  /** Badges for the given skill folders (two at a time: reading is the cost). */
  async badges(dirs: readonly string[]): Promise<SafetyBadge[]> {
    // Why read once: every badge applies the same "Trust anyway" decisions.
    const records = await readAcceptances(this.dataDir);
    const out = await mapLimit([...new Set(dirs)], 2, async (dir): Promise<SafetyBadge | null> => {
      try {
        const r = await this.reviewWith(dir, records);
        return {
          path: dir,
          verdict: r.report.verdict,
          headline: r.report.headline,
          findings: r.report.findings.length,
          accepted: r.accepted !== undefined,
        };
      } catch {
        return null;
      }
    });
    return out.filter((b): b is SafetyBadge => b !== null);
  }

  /** Forget a folder's review (after a trust decision, so the next badge reflects it at once). */
  forget(dir: string): void {
    this.memo.delete(dir);
  }
}
