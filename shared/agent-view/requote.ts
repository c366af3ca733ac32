/**
 * The second reading tolerant agents give a frontmatter that is not valid YAML: the same lines,
 * with the values that broke it put in double quotes (the usual mistake is a `: ` or a `[` in a
 * description). Claude Code and Codex both read such a file this way, each with its own choice
 * of lines (shared/agent-view/claude-code-list.ts, shared/agent-view/codex-list.ts); one writer
 * of the quoted line for both.
 */
import { quoteYamlString } from '../skill/yaml-strings';

/** One `key: value` line of a frontmatter. */
export interface KeyLine {
  /** Spaces and tabs before the key ('' at the top level). */
  indent: string;
  key: string;
  /** The value as written, without the line's `\r`. */
  value: string;
}

const KEY_LINE = /^([ \t]*)([A-Za-z0-9_][A-Za-z0-9_.-]*):[ \t]+(.*?)(\r?)$/;

/** A value that starts a block of text (`|`, `>-`, `|2 # note`): the lines indented under it. */
const BLOCK_START = /^[|>][0-9+-]*[ \t]*(?:#.*)?$/;

/**
 * The frontmatter with the value of each `key: value` line that `quote` picks written in double
 * quotes. A value already starting with a quote is left as it is (a reader cannot tell how it
 * was meant to end), and so is an empty one. With `blocks`, so is every line of a block of text
 * (`description: |` and the lines indented under it), which is text, not keys (Codex); without,
 * `|` is quoted like any value and the lines under it left as they are (Claude Code).
 */
export function requoted(
  raw: string,
  quote: (line: KeyLine) => boolean,
  options: { blocks: boolean },
): string {
  /** The indent of the key whose block of text the lines are in; -1 outside one. */
  let block = -1;
  return raw
    .split('\n')
    .map((line) => {
      if (block >= 0) {
        const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
        if (line.trim() === '' || indent > block) return line;
        block = -1;
      }
      const m = KEY_LINE.exec(line);
      if (!m) return line;
      const [, indent = '', key = '', value = '', cr = ''] = m;
      if (options.blocks && BLOCK_START.test(value)) block = indent.length;
      if (value === '' || /^["']/.test(value) || block >= 0 || !quote({ indent, key, value }))
        return line;
      return `${indent}${key}: ${quoteYamlString(value)}${cr}`;
    })
    .join('\n');
}
