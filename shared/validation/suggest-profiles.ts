import type { ParsedSkill } from '../skill/frontmatter-parser';
import { AGENT_SKILLS_KEYS, AGENTSKILLS_MCP_EXTRA_KEYS, CLAUDE_CODE_KEYS } from './profiles';
import type { ProfileId } from './types';

const AGENT = new Set<string>(AGENT_SKILLS_KEYS);
const CAMEL = new Set<string>(AGENTSKILLS_MCP_EXTRA_KEYS.filter((k) => /[A-Z]/.test(k)));
const SHARED_MCP_CC = new Set<string>(AGENTSKILLS_MCP_EXTRA_KEYS.filter((k) => !/[A-Z]/.test(k)));
const CLAUDE_CODE_ONLY = new Set<string>(CLAUDE_CODE_KEYS.filter((k) => !AGENT.has(k)));

/**
 * Profiles that fit what the frontmatter looks like: `spec_version` → universal-2.1 (alone),
 * an `x-personal-mcp` block, camelCase agentskills-mcp fields, Claude Code fields; agentskills
 * is always included otherwise.
 */
export function suggestProfiles(parsed: ParsedSkill): ProfileId[] {
  const d = parsed.data;
  const keys = d !== null && typeof d === 'object' && !Array.isArray(d) ? Object.keys(d) : [];
  if (keys.includes('spec_version')) return ['universal-2.1'];
  const out: ProfileId[] = ['agentskills'];
  if (keys.includes('x-personal-mcp')) out.push('x-personal-mcp');
  const camel = keys.some((k) => CAMEL.has(k));
  if (camel) out.push('agentskills-mcp');
  if (keys.some((k) => CLAUDE_CODE_ONLY.has(k) && (!camel || !SHARED_MCP_CC.has(k)))) out.push('claude-code');
  return out;
}
