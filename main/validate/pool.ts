/**
 * Run `fn` over `items` with at most `concurrency` calls in flight; results keep the input order.
 * Why bounded: thousands of simultaneous fs calls only queue in libuv's small thread pool and
 * can exhaust file descriptors (EMFILE) on large libraries.
 */
export async function mapPool<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const width = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}
