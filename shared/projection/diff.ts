/** One line of a line diff. */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
  /** 1-based line in the old text (same/removed). */
  oldLine?: number;
  /** 1-based line in the new text (same/added). */
  newLine?: number;
}

/** Lines of a text; CRLF and LF both end a line, a final newline adds no empty line. */
function linesOf(text: string): string[] {
  const stripped = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = stripped.split(/\r\n|\n|\r/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Line diff (Myers' O(ND) algorithm) of the source SKILL.md against the projected one, for the
 * export dialog. Line endings and the BOM are ignored here; the projection reports them.
 */
export function lineDiff(oldText: string, newText: string): DiffLine[] {
  const a = linesOf(oldText);
  const b = linesOf(newText);
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Array<number>(2 * max + 3).fill(0);
  const trace: number[][] = [];
  let done = false;
  for (let d = 0; d <= max && !done; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0))
          ? (v[offset + k + 1] ?? 0)
          : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        done = true;
        break;
      }
    }
  }
  // Backtrack through the saved frontiers to recover the edit script.
  const result: DiffLine[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d];
    const k = x - y;
    const prevK =
      k === -d || (k !== d && (vd[offset + k - 1] ?? 0) < (vd[offset + k + 1] ?? 0))
        ? k + 1
        : k - 1;
    const prevX = d === 0 ? 0 : (vd[offset + prevK] ?? 0);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      result.push({ kind: 'same', text: a[x - 1], oldLine: x, newLine: y });
      x--;
      y--;
    }
    if (d === 0) break;
    if (x === prevX) {
      result.push({ kind: 'added', text: b[y - 1], newLine: y });
      y--;
    } else {
      result.push({ kind: 'removed', text: a[x - 1], oldLine: x });
      x--;
    }
  }
  return result.reverse();
}
