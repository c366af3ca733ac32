/**
 * Safety reviews kept between runs of the commands that review whole libraries (`catalog`,
 * `scan`), beside the listings in the user-data cache (see ListingCache.keep). Why: the review's
 * rules are most of what those commands spend on a large library, and a review is a pure
 * function of what it reads (every path, kind, size, link and byte, by its key), so a skill whose
 * files did not change gets the same report without running them again. Every file is still
 * read and hashed on every run; the "Trust anyway" decisions are applied afresh each time.
 */
import type { ListingCache } from '../../library/listing-cache';
import { keptReviewsFrom, settleReviewMemo, type ReviewMemo } from '../../safety/service';

/** One kind for both commands: the same folders reviewed by either give the same keys. */
const REVIEWS_KIND = 'safety-reviews';

/**
 * The reviews kept by the last run over the same folders (in the same order), and how to keep
 * this run's. None without a cache (a run from source: see buildCache) or without folders.
 */
export async function keptReviews(
  cache: ListingCache | undefined,
  roots: readonly string[],
): Promise<{ memo: ReviewMemo; save(): Promise<void> } | undefined> {
  if (!cache || roots.length === 0) return undefined;
  const key = JSON.stringify(roots);
  const loaded = await cache.loadKept(REVIEWS_KIND, key);
  const memo: ReviewMemo = {
    entries: keptReviewsFrom(loaded),
    used: new Set(),
    added: false,
  };
  return {
    memo,
    save: async () => {
      if (!settleReviewMemo(memo)) return;
      cache.keep(REVIEWS_KIND, key, memo.entries);
      await cache.close();
    },
  };
}
