import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from './line-index';

/** The reference: line and column by walking the text from the start, as Monaco counts lines. */
function naivePosition(
  text: string,
  offset: number,
): { line: number; column: number; offset: number } {
  const o = Math.min(Math.max(Math.trunc(offset) || 0, 0), text.length);
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < o; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    } else if (c === 13 && i + 1 < o) {
      line++;
      lineStart = i + 2;
      i++;
    }
  }
  return { line, column: o - lineStart + 1, offset: o };
}

const lineText = fc
  .array(fc.constantFrom('a', 'b', ' ', '\n', '\r', '\r\n', 'é', '😀'), { maxLength: 60 })
  .map((parts) => parts.join(''));

describe('LineIndex (built lazily)', () => {
  it('answers every offset like a scan from the start, whatever order the questions come in', () => {
    fc.assert(
      fc.property(
        lineText,
        fc.array(fc.integer({ min: -2, max: 70 }), { maxLength: 12 }),
        (text, offsets) => {
          const li = new LineIndex(text);
          for (const o of offsets) expect(li.positionAt(o)).toEqual(naivePosition(text, o));
          for (let o = 0; o <= text.length; o++)
            expect(li.positionAt(o)).toEqual(naivePosition(text, o));
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });

  it('counts lines and finds line starts after partial scans', () => {
    const li = new LineIndex('ab\ncd\r\nef\rgh\n');
    expect(li.positionAt(1)).toEqual({ line: 1, column: 2, offset: 1 });
    expect(li.lineStart(4)).toBe(10);
    expect(li.lineCount).toBe(5);
    expect(li.lineStart(9)).toBe(13);
    const lf = new LineIndex('x\ny\nz');
    expect(lf.positionAt(2)).toEqual({ line: 2, column: 1, offset: 2 });
    expect(lf.lineCount).toBe(3);
    expect(lf.rangeAt(4, 0)).toEqual({
      start: { line: 1, column: 1, offset: 0 },
      end: { line: 3, column: 1, offset: 4 },
    });
  });
});
