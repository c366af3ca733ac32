import { locateFrontmatter } from '../../../../shared/skill';
/**
 * The hidden YAML model that monaco-yaml works on mirrors the frontmatter lines of SKILL.md
 * (docs/architecture.md): line N of the mirror is line N+1 of the file. Body lines become
 * blank so positions never shift and nothing after the frontmatter is read as YAML.
 */
export function frontmatterLines(text: string): string {
  // Why the parser's boundaries: the mirror must cover exactly the lines validation reads as YAML.
  const { block } = locateFrontmatter(text);
  if (!block || block.openStart !== (text.charCodeAt(0) === 0xfeff ? 1 : 0)) return '';
  const lines = block.raw.split(/\r\n|\r|\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

/** The Agent Skills frontmatter schema for completion and hover until the core's schemas are wired in. */
export const FRONTMATTER_SCHEMA = {
  type: 'object',
  properties: {
    name: {
      type: 'string',
      description: 'The skill name: lowercase letters, digits and hyphens; the same as the folder.',
    },
    description: {
      type: 'string',
      description: 'What the skill does and when to use it. At most 1024 characters.',
    },
    license: { type: 'string', description: 'The license of the skill.' },
    compatibility: {
      type: 'string',
      description: 'Environment requirements, at most 500 characters.',
    },
    metadata: {
      type: 'object',
      description: 'Extra key/value pairs (strings).',
      additionalProperties: { type: 'string' },
    },
    'allowed-tools': { type: 'string', description: 'Space-separated tools the skill may use.' },
  },
  additionalProperties: false,
} as const;
