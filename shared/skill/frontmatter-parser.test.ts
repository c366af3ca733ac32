import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdits, codePointLength, LineIndex, parseSkill, quoteYamlString } from './index';
import { parseDocument } from 'yaml';

const slice = (t: string, s: { start: number; end: number } | null) =>
  s ? t.slice(s.start, s.end) : null;

describe('parseSkill boundaries (docs/skill-format.md §1)', () => {
  it('splits frontmatter and body exactly', () => {
    const t = '---\nname: my-skill\ndescription: Does things\n---\n# Body\ntext\n';
    const p = parseSkill(t);
    expect(p.boundaryIssues).toEqual([]);
    expect(p.frontmatter?.raw).toBe('name: my-skill\ndescription: Does things\n');
    expect(p.frontmatter?.contentStart).toBe(4);
    expect(p.data).toEqual({ name: 'my-skill', description: 'Does things' });
    expect(p.body).toBe('# Body\ntext\n');
    expect(p.bodyStartLine).toBe(5);
    expect(t.slice(p.bodyStart)).toBe(p.body);
    expect(p.lineEnding).toBe('lf');
  });

  it('maps YAML node ranges to the original text (BOM and CRLF included)', () => {
    const t = '\uFEFF---\r\nname: my-skill\r\ndescription: Does things\r\n---\r\nBody\r\n';
    const p = parseSkill(t);
    expect(p.hasBom).toBe(true);
    expect(p.lineEnding).toBe('crlf');
    expect(p.boundaryIssues.map((i) => i.kind)).toEqual(['bom']);
    const desc = p.document?.get('description', true);
    const span = p.nodeSpan(desc);
    expect(slice(t, span)).toBe('Does things');
    expect(p.positionAt(span?.start ?? 0)).toEqual({ line: 3, column: 14, offset: span?.start });
    expect(p.body).toBe('Body\r\n');
  });

  it('reports no frontmatter', () => {
    const p = parseSkill('# Just a heading\n');
    expect(p.frontmatter).toBeNull();
    expect(p.boundaryIssues.map((i) => i.kind)).toEqual(['missing']);
    expect(p.data).toBeUndefined();
    expect(p.body).toBe('# Just a heading\n');
  });

  it('finds a late opener after blank lines or comments and reports it', () => {
    const t = '\n# comment\n---\nname: a\n---\nbody';
    const p = parseSkill(t);
    const issue = p.boundaryIssues.find((i) => i.kind === 'not-at-start');
    expect(issue && t.slice(issue.start, issue.end)).toBe('\n# comment\n');
    expect(p.data).toEqual({ name: 'a' });
  });

  it('reports unclosed frontmatter and keeps the YAML-looking lines as frontmatter', () => {
    const t = '---\nname: a\ndescription: b\n# Heading\nSome text.\n';
    const p = parseSkill(t);
    expect(p.boundaryIssues.map((i) => i.kind)).toEqual(['unclosed']);
    expect(p.frontmatter?.closer).toBeNull();
    expect(p.data).toEqual({ name: 'a', description: 'b' });
    expect(p.body).toBe('# Heading\nSome text.\n');
  });

  it('accepts ... as closer but reports it', () => {
    const p = parseSkill('---\nname: a\n...\nbody');
    expect(p.frontmatter?.closer).toBe('...');
    expect(p.boundaryIssues.map((i) => i.kind)).toEqual(['dots-closer']);
    expect(p.body).toBe('body');
  });

  it('reports trailing spaces after the closing ---', () => {
    const t = '---\nname: a\n---  \nbody';
    const p = parseSkill(t);
    const i = p.boundaryIssues[0];
    expect(i?.kind).toBe('delimiter-whitespace');
    expect(i && t.slice(i.start, i.end)).toBe('  ');
  });

  it('does not take ---x or a --- inside a value as the closer', () => {
    const p = parseSkill('---\nname: a\ndescription: A---B\n---x\n---\nbody');
    expect(p.frontmatter?.raw).toBe('name: a\ndescription: A---B\n---x\n');
    expect(p.body).toBe('body');
  });

  it('repairs an unquoted ": " the way a tolerant reader does and records it', () => {
    const t = '---\nname: a\ndescription: Use when: the user asks\n---\n';
    const p = parseSkill(t);
    expect(p.yamlErrors).toEqual([]);
    expect(p.data).toEqual({ name: 'a', description: 'Use when: the user asks' });
    expect(p.repairs).toHaveLength(1);
    const r = p.repairs[0];
    expect(r && t.slice(r.start, r.end)).toBe('Use when: the user asks');
    // Ranges after the repaired value still point at the original text.
    const nameSpan = p.nodeSpan(p.document?.get('name', true));
    expect(slice(t, nameSpan)).toBe('a');
  });

  it('maps YAML errors to the original text', () => {
    const t = '---\nname: "unterminated\n---\n';
    const p = parseSkill(t);
    expect(p.yamlErrors.length).toBeGreaterThan(0);
    for (const e of p.yamlErrors) {
      expect(e.start).toBeGreaterThanOrEqual(4);
      expect(e.end).toBeLessThanOrEqual(t.length);
    }
  });

  it('keeps a block scalar description', () => {
    const p = parseSkill('---\nname: a\ndescription: >\n  Line one\n  continues.\n---\nBody\n');
    expect(p.data).toEqual({ name: 'a', description: 'Line one continues.\n' });
  });

  it('handles tabs, empty input, lone --- and non-mapping frontmatter without throwing', () => {
    for (const t of [
      '',
      '---',
      '---\n',
      '---\n---\n',
      '---\n- a\n- b\n---\n',
      '---\n\tname: a\n---\n',
      '\r\r\n---\r',
      '\uFEFF',
    ]) {
      expect(() => parseSkill(t)).not.toThrow();
    }
    expect(parseSkill('---\n---\nbody').data).toBeNull();
  });
});

describe('LineIndex', () => {
  it('gives 1-based lines and columns for LF, CRLF and CR', () => {
    const li = new LineIndex('ab\ncd\r\nef\rgh');
    expect(li.positionAt(0)).toEqual({ line: 1, column: 1, offset: 0 });
    expect(li.positionAt(3)).toEqual({ line: 2, column: 1, offset: 3 });
    expect(li.positionAt(7)).toEqual({ line: 3, column: 1, offset: 7 });
    expect(li.positionAt(10)).toEqual({ line: 4, column: 1, offset: 10 });
    expect(li.positionAt(99).offset).toBe(12);
    expect(li.positionAt(-5).offset).toBe(0);
    expect(li.lineCount).toBe(4);
  });
});

describe('applyEdits', () => {
  it('applies non-overlapping edits back to front', () => {
    expect(
      applyEdits('hello world', [
        { start: 0, end: 5, newText: 'bye' },
        { start: 6, end: 11, newText: 'all' },
      ]),
    ).toBe('bye all');
  });
  it('puts an insertion before a replacement that starts at the same offset', () => {
    expect(
      applyEdits('abcdef', [
        { start: 2, end: 2, newText: 'X' },
        { start: 2, end: 4, newText: '' },
      ]),
    ).toBe('abXef');
  });
  it('rejects overlapping edits', () => {
    expect(() =>
      applyEdits('abcdef', [
        { start: 0, end: 3, newText: '' },
        { start: 2, end: 4, newText: '' },
      ]),
    ).toThrow(RangeError);
  });
});

describe('YAML strings', () => {
  it('quotes any string so YAML reads it back unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const doc = parseDocument(`k: ${quoteYamlString(s)}\n`);
        expect(doc.errors).toEqual([]);
        expect(doc.get('k')).toBe(s);
      }),
      { numRuns: 300 },
    );
  });
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('😀a')).toBe(2);
    expect('😀a'.length).toBe(3);
  });
});

describe('parseSkill never throws (property)', () => {
  const piece = fc.constantFrom(
    '---',
    '...',
    '\n',
    '\r\n',
    '\r',
    '\uFEFF',
    'name: a',
    'description: x: y',
    ' #c',
    '\t',
    '- a',
    '[a, b]',
    '&x',
    '*x',
    '"',
    "'",
    '|',
    '>',
    ':',
    '{',
    '}',
    '😀',
    '--- ',
    '# h',
  );
  it('on random text and trap fragments', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(piece, fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 30 }),
        (parts) => {
          const t = parts.join('');
          const p = parseSkill(t);
          expect(p.bodyStart).toBeGreaterThanOrEqual(0);
          expect(p.bodyStart).toBeLessThanOrEqual(t.length);
          for (const e of [...p.yamlErrors, ...p.yamlWarnings, ...p.boundaryIssues, ...p.repairs]) {
            expect(e.start).toBeGreaterThanOrEqual(0);
            expect(e.start).toBeLessThanOrEqual(e.end);
            expect(e.end).toBeLessThanOrEqual(t.length);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
