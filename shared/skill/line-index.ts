import type { Position, Range } from './text-types';

/**
 * Offsets of line starts for offset → line/column look-ups by binary search. Built lazily and
 * only as far as asked: most SKILL.md files are validated without a single diagnostic range,
 * and the ranges that are asked for lie in the frontmatter, so scanning the whole body up front
 * was wasted work (bench/validate profile: ~10% of parseSkill).
 */
export class LineIndex {
  private readonly starts: number[] = [0];
  /** Every character before this offset has been scanned. */
  private scanned = 0;
  /** Whether the text has a `\r` at all (null: not looked yet); without one, `indexOf('\n')` finds lines. */
  private hasCr: boolean | null = null;

  /** `\n`, `\r\n` and a lone `\r` each end a line (as Monaco counts them). Nothing is scanned yet. */
  constructor(private readonly text: string) {}

  /** Scan until every line start ≤ `limit` is known. */
  private scanTo(limit: number): void {
    const text = this.text;
    const end = Math.min(limit, text.length);
    if (this.scanned >= end) return;
    const starts = this.starts;
    this.hasCr ??= text.indexOf('\r') !== -1;
    let i = this.scanned;
    if (!this.hasCr) {
      // Why indexOf: the engine's vectorised search beats a charCodeAt loop several times over.
      for (let nl = text.indexOf('\n', i); nl !== -1 && nl < end; nl = text.indexOf('\n', nl + 1)) {
        starts.push(nl + 1);
        i = nl + 1;
      }
      this.scanned = Math.max(i, end);
      return;
    }
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.scanned = i;
  }

  /** Number of lines (a trailing line break opens an empty last line). */
  get lineCount(): number {
    this.scanTo(this.text.length);
    return this.starts.length;
  }

  /** Offset where the 1-based line starts (clamped to the text). */
  lineStart(line: number): number {
    if (line > this.starts.length) this.scanTo(this.text.length);
    const i = Math.min(Math.max(line, 1), this.starts.length) - 1;
    return this.starts[i] ?? 0;
  }

  /** 1-based line, 1-based column (UTF-16 units) and the clamped offset. */
  positionAt(offset: number): Position {
    const o = Math.min(Math.max(Math.trunc(offset) || 0, 0), this.text.length);
    this.scanTo(o);
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - (starts[lo] ?? 0) + 1, offset: o };
  }

  /** A Range for [start, end), with start ≤ end guaranteed. */
  rangeAt(start: number, end: number): Range {
    const a = this.positionAt(start);
    const b = this.positionAt(end);
    return a.offset <= b.offset ? { start: a, end: b } : { start: b, end: a };
  }
}
