/** Line bookkeeping for the review: offsets of line starts, found once per text (linear). */
export class Lines {
  readonly starts: number[] = [0];
  constructor(readonly text: string) {
    let i = text.indexOf('\n');
    while (i !== -1) {
      this.starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
  }
  get count(): number {
    return this.starts.length;
  }
  /** 1-based line of an offset (binary search). */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
  /** The text of a 1-based line, without its line break. */
  line(n: number): string {
    const start = this.starts[n - 1] ?? this.text.length;
    const next = this.starts[n];
    let end = next === undefined ? this.text.length : next - 1;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end -= 1;
    return this.text.slice(start, end);
  }
  /** 1-based column of an offset on its line. */
  columnOf(offset: number): number {
    return offset - (this.starts[this.lineOf(offset) - 1] ?? 0) + 1;
  }
}
