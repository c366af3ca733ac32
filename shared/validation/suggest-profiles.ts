import type { ParsedSkill } from '../skill/frontmatter-parser';
import { AGENT_SKILLS_KEYS, AGENTSKILLS_MCP_CAMEL_KEYS, CLAUDE_CODE_KEYS } from './profiles';
import type { ProfileId } from './types';

const AGENT = new Set<string>(AGENT_SKILLS_KEYS);
/** Keys only agentskills-mcp uses: its camelCase spelling, and its own kebab-case keys. */
const MCP_ONLY = new Set<string>([
  ...Object.keys(AGENTSKILLS_MCP_CAMEL_KEYS),
  'labels',
  'requires-mcp-servers',
]);
/** Claude Code keys that agentskills-mcp files also use under the same name. */
const SHARED_MCP_CC = new Set<string>(['context', 'agent', 'model', 'hooks']);
const CLAUDE_CODE_ONLY = new Set<string>(CLAUDE_CODE_KEYS.filter((k) => !AGENT.has(k)));

/**
 * Profiles that fit what the frontmatter looks like: `spec_version` →
 * universal-2.1, an `x-personal-mcp` block → the repository contract (which already allows
 * the Claude Code fields), agentskills-mcp's own fields → agentskills-mcp, Claude Code fields →
 * claude-code. The portable `agentskills` profile is suggested only when nothing more specific
 * is recognised. Why: a well-formed skill of another format is not broken, and defaulting to
 * `agentskills` too would report its own fields as "unexpected" errors; users who target the
 * portable spec as well choose it explicitly.
 */
export function suggestProfiles(parsed: ParsedSkill): ProfileId[] {
  const d = parsed.data;
  const keys = d !== null && typeof d === 'object' && !Array.isArray(d) ? Object.keys(d) : [];
  if (keys.includes('spec_version')) return ['universal-2.1'];
  if (keys.includes('x-personal-mcp')) return ['x-personal-mcp'];
  const out: ProfileId[] = [];
  const mcp = keys.some((k) => MCP_ONLY.has(k));
  if (mcp) out.push('agentskills-mcp');
  if (keys.some((k) => CLAUDE_CODE_ONLY.has(k) && (!mcp || !SHARED_MCP_CC.has(k))))
    out.push('claude-code');
  return out.length > 0 ? out : ['agentskills'];
}
