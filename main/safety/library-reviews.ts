/**
 * The library list's badges: every library skill reviewed, and reviewed again only when its
 * files changed (paths, sizes, times), so listing a large library twice reads each file once.
 */
import { createHash } from 'node:crypto';
import type { SafetyBadge, SafetyReviewResult } from '../../shared/safety';
import { mapLimit } from '../platform/concurrency';
import { readSkillFolder } from '../skill-folder';
import { readAcceptances } from './acceptances';
import { applyAcceptance, reviewSkillFolder } from './service';

/** Reviews of library skills, kept while their files stay the same. */
export class LibraryReviews {
  private readonly memo = new Map<string, { fingerprint: string; reviewed: SafetyReviewResult }>();
  /**
   * Reviews under way, by folder and fingerprint. Why: the library's badges, the Agents view's
   * and the agent view ask at once for the same folders; one review answers them all.
   */
  private readonly running = new Map<string, Promise<SafetyReviewResult>>();

  constructor(private readonly dataDir: string) {}

  /** What the walk says of a folder: enough to tell that nothing changed. */
  private async fingerprint(dir: string): Promise<string> {
    const folder = await readSkillFolder(dir);
    const h = createHash('sha256');
    for (const e of folder.entries)
      h.update(`${e.path}\0${e.kind}\0${e.size}\0${e.mtimeMs ?? 0}\0${e.link?.text ?? ''}\n`);
    return h.digest('hex');
  }

  /** The review of one folder (from the memo when its files did not change), acceptances applied now. */
  async review(dir: string): Promise<SafetyReviewResult> {
    const fingerprint = await this.fingerprint(dir);
    let known = this.memo.get(dir);
    if (!known || known.fingerprint !== fingerprint) {
      const key = `${dir}\0${fingerprint}`;
      let review = this.running.get(key);
      if (!review) {
        // Why without the data folder: the memo keeps the bare review; acceptances change apart from files.
        review = reviewSkillFolder(dir).finally(() => this.running.delete(key));
        this.running.set(key, review);
      }
      known = { fingerprint, reviewed: await review };
      this.memo.set(dir, known);
    }
    return applyAcceptance(known.reviewed, await readAcceptances(this.dataDir));
  }

  /** Badges for the given skill folders (two at a time: reading is the cost). */
  async badges(dirs: readonly string[]): Promise<SafetyBadge[]> {
    const out = await mapLimit([...new Set(dirs)], 2, async (dir): Promise<SafetyBadge | null> => {
      try {
        const r = await this.review(dir);
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
