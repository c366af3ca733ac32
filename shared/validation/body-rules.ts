import { CHARS_PER_TOKEN, estimateTokens } from '../skill/limits';
import { count } from '../text/words';
import type { RuleContext } from './rule-context';

/** Spec §2 body limits. */
export const BODY_LIMITS = { lines: 500, tokens: 5000, mcpChars: 20000 } as const;

// Claude Code placeholders (docs/skill-format.md §2 `claude-code`) and agentskills-mcp's `${SESSION_ID}`.
const PLACEHOLDER =
  /\$ARGUMENTS(?:\[\d+\])?|\$\{CLAUDE_SESSION_ID\}|\$\{CLAUDE_SKILL_DIR\}|\$\{SESSION_ID\}|\$\d+|\$[A-Za-z_][A-Za-z0-9_-]*/g;
// `` !`command` `` runs a shell command when the skill loads; flagged, never run.
const SHELL = /!`[^`\r\n]+`/g;

function countLines(s: string): number {
  let n = s.length > 0 ? 1 : 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  if (s.endsWith('\n')) n--;
  return n;
}

/** Long body (docs/skill-format.md §2: 500 lines / ~5,000 tokens; agentskills-mcp: 20,000 characters). */
export function bodyLengthRule(ctx: RuleContext): void {
  if (!ctx.on('body/too-long')) return;
  const p = ctx.parsed;
  const body = p.body;
  if (ctx.profile === 'agentskills-mcp') {
    if (body.length > BODY_LIMITS.mcpChars) {
      ctx.report('body/too-long', {
        message: `The instructions are ${body.length} characters long; agentskills-mcp recommends at most ${BODY_LIMITS.mcpChars}. Move details into reference files.`,
        detail: `body length ${body.length} > ${BODY_LIMITS.mcpChars}`,
        start: p.bodyStart,
        end: p.bodyStart,
      });
    }
    return;
  }
  const lines = countLines(body);
  const tokens = estimateTokens(body);
  if (lines > BODY_LIMITS.lines || tokens > BODY_LIMITS.tokens) {
    ctx.report('body/too-long', {
      message: `The instructions are long (${count(lines, 'line')}, about ${count(tokens, 'token')}). Keep SKILL.md under ${count(BODY_LIMITS.lines, 'line')} and about ${count(BODY_LIMITS.tokens, 'token')}; move details into reference files.`,
      detail: `body: ${lines} lines, ~${tokens} tokens (characters/${CHARS_PER_TOKEN})`,
      start: p.bodyStart,
      end: p.bodyStart,
    });
  }
}

/**
 * Placeholders and `` !`command` `` lines in the body (docs/skill-format.md §2 claude-code, agentskills-mcp), in
 * the part of the body within VALIDATION_LIMITS.bodyBytes (past it, `file/too-complex` says so).
 */
export function bodyPlaceholderRules(ctx: RuleContext): void {
  const p = ctx.parsed;
  const body =
    p.checkedBodyEnd < p.text.length ? p.text.slice(p.bodyStart, p.checkedBodyEnd) : p.body;
  if (body.indexOf('$') !== -1 && ctx.on('body/placeholder')) {
    const args = ctx.data?.['arguments'];
    const named = new Set(
      (Array.isArray(args)
        ? args.map(String)
        : typeof args === 'string'
          ? args.split(/[\s,]+/)
          : []
      ).filter(Boolean),
    );
    const seen = new Set<string>();
    PLACEHOLDER.lastIndex = 0;
    for (let m = PLACEHOLDER.exec(body); m; m = PLACEHOLDER.exec(body)) {
      const token = m[0];
      const isNamed =
        /^\$[A-Za-z_]/.test(token) && token !== '$ARGUMENTS' && !token.startsWith('$ARGUMENTS[');
      if (isNamed && !named.has(token.slice(1))) continue;
      if (seen.has(token)) continue;
      seen.add(token);
      ctx.report('body/placeholder', {
        message: `The instructions use ${token}, which is replaced by ${/SESSION_ID/.test(token) ? 'the session id' : /SKILL_DIR/.test(token) ? "the skill's folder" : 'what the user typed'} when the skill runs.`,
        detail: `placeholder ${token}`,
        start: p.bodyStart + m.index,
        end: p.bodyStart + m.index + token.length,
      });
    }
  }
  if (body.indexOf('!`') !== -1 && ctx.on('body/shell-command')) {
    SHELL.lastIndex = 0;
    for (let m = SHELL.exec(body); m; m = SHELL.exec(body)) {
      ctx.report('body/shell-command', {
        message: `This line runs the shell command ${m[0].slice(1)} when the skill is loaded. Skillbench never runs it; make sure it is safe.`,
        detail: 'dynamic context injection !`command`',
        start: p.bodyStart + m.index,
        end: p.bodyStart + m.index + m[0].length,
      });
    }
  }
}
