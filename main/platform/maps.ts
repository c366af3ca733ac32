/** Whether two maps hold the same keys, each with values that `equal` says are the same. */
export function sameMaps<K, V>(
  a: ReadonlyMap<K, V>,
  b: ReadonlyMap<K, V>,
  equal: (x: V, y: V) => boolean,
): boolean {
  if (a.size !== b.size) return false;
  for (const [key, x] of a) {
    if (!b.has(key)) return false;
    if (!equal(x, b.get(key) as V)) return false;
  }
  return true;
}
