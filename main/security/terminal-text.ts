/**
 * Text from files, archives and servers, made safe to print on a terminal. Why: a terminal
 * obeys the control characters in what it prints — escape sequences retitle the window, move
 * the cursor to rewrite earlier lines, hide text, or (in some terminals) set the clipboard — and
 * bidi overrides or zero-width characters make one name look like another. So every character
 * that is not plain text is shown as an escape instead: `\x1b`, `\x9b`, `\u202e`, `\n`.
 *
 * The one place that decides this for the command line. Formatters pass each value through
 * {@link term} (so a value never starts a line of its own), and the commands' text writers pass
 * whole outputs through {@link terminalText} with `lineBreaks: 'keep'`, so nothing missed
 * reaches the terminal raw. JSON and SARIF are written as they are: JSON escapes controls itself.
 */

/** C0 controls, DEL, C1 controls, format characters (bidi, zero-width, BOM …), line/paragraph separators. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_PLAIN = /[\u0000-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/gu;

/** Options for {@link terminalText}. */
export interface TerminalTextOptions {
  /**
   * `escape` (default): newlines and tabs are escaped too — for one value inside a line.
   * `keep`: `\n` and `\t` stay — for a whole output whose lines the formatter made.
   */
  lineBreaks?: 'escape' | 'keep';
}

/** How one character that is not plain text is shown. */
function escaped(char: string): string {
  if (char === '\n') return '\\n';
  if (char === '\r') return '\\r';
  if (char === '\t') return '\\t';
  const code = char.codePointAt(0) ?? 0;
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control, DEL, C1 and invisible format character shown as an escape
 * (`\x1b`, `\u202e`); newlines and tabs too unless `lineBreaks` is `keep`. Printable text,
 * backslashes included, is unchanged, so applying it twice changes nothing more.
 */
export function terminalText(text: string, options: TerminalTextOptions = {}): string {
  const keep = options.lineBreaks === 'keep';
  return text.replace(NOT_PLAIN, (char) =>
    keep && (char === '\n' || char === '\t') ? char : escaped(char),
  );
}

/**
 * A template tag for text output: the literal parts as written (their newlines are the
 * formatter's), every `${value}` through {@link terminalText} with newlines escaped.
 */
export function term(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += terminalText(String(value)) + (strings[i + 1] ?? '');
  });
  return out;
}
