import type { Position, Range } from '../validation/types';

/** Offsets of line starts, built once per text, for offset → line/column look-ups by binary search. */
export class LineIndex {
  private readonly starts: number[];

  /** Scan the text once; `\n`, `\r\n` and a lone `\r` each end a line (as Monaco counts them). */
  constructor(private readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
  }

  /** Number of lines (a trailing line break opens an empty last line). */
  get lineCount(): number {
    return this.starts.length;
  }

  /** Offset where the 1-based line starts (clamped to the text). */
  lineStart(line: number): number {
    const i = Math.min(Math.max(line, 1), this.starts.length) - 1;
    return this.starts[i] ?? 0;
  }

  /** 1-based line, 1-based column (UTF-16 units) and the clamped offset. */
  positionAt(offset: number): Position {
    const o = Math.min(Math.max(Math.trunc(offset) || 0, 0), this.text.length);
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - (this.starts[lo] ?? 0) + 1, offset: o };
  }

  /** A Range for [start, end), with start ≤ end guaranteed. */
  rangeAt(start: number, end: number): Range {
    const a = this.positionAt(start);
    const b = this.positionAt(end);
    return a.offset <= b.offset ? { start: a, end: b } : { start: b, end: a };
  }
}
