/**
 * JSON with comments, as clients' and agents' settings files are written (VS Code's, Claude
 * Desktop's, Gemini CLI's settings.json). One reader for all of them: json5, which also takes
 * trailing commas.
 */
import JSON5 from 'json5';

/** Parse as JSON with comments (JSON5, which also takes trailing commas); the first error, in words, when it is not. */
export function parseJsonc(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON5.parse<unknown>(text) };
  } catch (e) {
    const err = e as { message?: string; lineNumber?: number; columnNumber?: number };
    const message = err.message ?? '';
    const where =
      err.lineNumber !== undefined && err.columnNumber !== undefined
        ? ` at line ${err.lineNumber}, column ${err.columnNumber}`
        : '';
    const character = /invalid character '(.+)'/.exec(message)?.[1];
    const what = /end of input/.test(message)
      ? 'it ends too early (a closing "}", "]" or quote is missing)'
      : character !== undefined
        ? `there is an unexpected ${JSON.stringify(character)}`
        : 'the text is not JSON';
    return { error: `${what}${where}` };
  }
}
