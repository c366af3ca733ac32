/**
 * The one reading of an `allowed-tools` text, for validation and the safety review alike: tool
 * entries separated by spaces (the Agent Skills specification) or commas (Claude Code takes
 * both). A space or comma inside a tool's parentheses (`Bash(git add:*, git commit:*)`) belongs
 * to that entry.
 */
export interface AllowedTools {
  /** The entries in order, without separators. */
  tools: string[];
  /** Whether a comma separates two entries (inside parentheses does not count). */
  commas: boolean;
}

export function splitAllowedTools(text: string): AllowedTools {
  const tools: string[] = [];
  let commas = false;
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')' && depth > 0) depth--;
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (ch === ',') commas = true;
      if (current !== '') tools.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  if (current !== '') tools.push(current);
  return { tools, commas };
}
