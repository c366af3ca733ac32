import { grouped } from './words';

/**
 * A byte count in words, the one way Skillbench says a size: the CLI, the window, the server's
 * messages and every limit. Decimal units (1 KB = 1,000 bytes), as the destinations state their
 * limits (claude.ai: 30 MB) and as file managers show sizes; one decimal under 100, none above,
 * no ".0". A limit set in binary units reads as what it is in bytes: 16 MiB is "16.8 MB".
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1000) {
    const n = Number.isFinite(bytes) ? Math.max(0, Math.round(bytes)) : 0;
    return n === 1 ? '1 byte' : `${n} bytes`;
  }
  const units = ['KB', 'MB', 'GB', 'TB'] as const;
  let value = bytes / 1000;
  let unit = 0;
  // Why by the rounded figure: 999,960 bytes is "1 MB", not "1000 KB".
  while (unit < units.length - 1 && rounded(value) >= 1000) {
    value /= 1000;
    unit += 1;
  }
  return `${rounded(value)} ${units[unit]}`;
}

function rounded(value: number): number {
  return value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
}

/**
 * A size and the limit it is held against, each in words; both in exact bytes when the two would
 * read the same ("8 MB; at most 8 MB" for 8,000,500 against 8,000,000 bytes).
 */
export function formatBytesAgainst(found: number, limit: number): [string, string] {
  const [a, b] = [formatBytes(found), formatBytes(limit)];
  return a !== b ? [a, b] : [`${grouped(found)} bytes`, `${grouped(limit)} bytes`];
}
