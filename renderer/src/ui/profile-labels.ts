import type { ProfileId } from '../../../shared/validation/types';

/** Short names for the targets, in the words users know them by. */
const LABELS: Record<ProfileId, string> = {
  agentskills: 'Agent Skills',
  'claude-upload': 'claude.ai upload',
  'claude-code': 'Claude Code',
  'agentskills-mcp': 'agentskills-mcp',
  'x-personal-mcp': 'x-personal-mcp',
  'universal-2.1': 'Universal 2.1',
  'mcp-serve': 'Skillbench server',
};

/** The label of a profile for messages. */
export function profileLabel(profile: ProfileId): string {
  return LABELS[profile];
}

/** The label of a profile named by a string from elsewhere (an agent's row): its id when unknown. */
export function profileLabelOf(id: string): string {
  return Object.hasOwn(LABELS, id) ? LABELS[id as ProfileId] : id;
}
