import type { ProfileId } from '../validation/types';

/** A starting point offered by the new-skill wizard. */
export interface SkillTemplate {
  id:
    | 'blank'
    | 'references'
    | 'scripts'
    | 'x-personal-mcp'
    | 'universal-tool'
    | 'claude-code-command';
  title: string;
  /** One sentence for the wizard. */
  help: string;
  /** The profile the generated skill validates clean under. */
  profile: ProfileId;
}

/** Every template, in the order the wizard shows them. */
export const SKILL_TEMPLATES: readonly SkillTemplate[] = [
  {
    id: 'blank',
    title: 'Blank',
    help: 'Just SKILL.md, portable everywhere.',
    profile: 'agentskills',
  },
  {
    id: 'references',
    title: 'With references',
    help: 'SKILL.md plus a references/ folder for longer material loaded on demand.',
    profile: 'agentskills',
  },
  {
    id: 'scripts',
    title: 'With scripts',
    help: 'SKILL.md plus a scripts/ folder with a helper script the agent can run.',
    profile: 'agentskills',
  },
  {
    id: 'x-personal-mcp',
    title: 'x-personal-mcp repository skill',
    help: 'The repository contract: id, version, capabilities and references.',
    profile: 'x-personal-mcp',
  },
  {
    id: 'universal-tool',
    title: 'Universal 2.1 skill with one tool',
    help: 'spec_version 2.1 with a tool, its input schema and a Python entrypoint.',
    profile: 'universal-2.1',
  },
  {
    id: 'claude-code-command',
    title: 'Claude Code command skill',
    help: 'A slash command for Claude Code with an argument hint and $ARGUMENTS.',
    profile: 'claude-code',
  },
];

/** Quote a string for YAML when it is not a safe plain scalar. */
function yamlString(value: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9 ,.()'/-]*$/.test(value) && !/[:#]/.test(value)
    ? value
    : JSON.stringify(value);
}

/** The files a template creates: path relative to the new skill folder → text. */
export function renderTemplate(
  id: SkillTemplate['id'],
  name: string,
  description: string,
): Record<string, string> {
  const desc = yamlString(description.trim());
  const title = name
    .split('-')
    .map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w))
    .join(' ');
  const body = `# ${title}\n\n## When to use\n\nDescribe the situations and the words users type that should bring this skill in.\n\n## Steps\n\n1. First step.\n2. Second step.\n`;
  switch (id) {
    case 'blank':
      return { 'SKILL.md': `---\nname: ${name}\ndescription: ${desc}\n---\n${body}` };
    case 'references':
      return {
        'SKILL.md': `---\nname: ${name}\ndescription: ${desc}\n---\n${body}\n## Reference\n\nFor details, read [the guide](references/guide.md).\n`,
        'references/guide.md': `# ${title} guide\n\nLonger material the agent reads only when it needs it.\n`,
      };
    case 'scripts':
      return {
        'SKILL.md': `---\nname: ${name}\ndescription: ${desc}\n---\n${body}\n## Script\n\nRun \`python scripts/run.py\` to do the mechanical part.\n`,
        'scripts/run.py': `"""Helper script for the ${name} skill."""\n\n\ndef main() -> None:\n    print("ok")\n\n\nif __name__ == "__main__":\n    main()\n`,
      };
    case 'x-personal-mcp':
      return {
        'SKILL.md': [
          '---',
          `name: ${name}`,
          `description: ${desc}`,
          'x-personal-mcp:',
          `  id: ${name}`,
          '  version: 0.1.0',
          '  capabilities:',
          `    - resource://skills/${name}/document`,
          '  tags:',
          '    - personal',
          '  references:',
          '    overview:',
          '      path: references/overview.md',
          '      mime_type: text/markdown',
          '      title: Overview',
          '---',
          body,
        ].join('\n'),
        'references/overview.md': `# ${title} overview\n\nBackground the skill relies on.\n`,
      };
    case 'universal-tool':
      return {
        'SKILL.md': [
          '---',
          'spec_version: "2.1"',
          `name: ${name}`,
          `description: ${desc}`,
          'version: 0.1.0',
          'tools:',
          `  - name: ${name}-run`,
          '    description: Runs the main step of the skill.',
          '    input_schema:',
          '      type: object',
          '      properties:',
          '        input:',
          '          type: string',
          '      required:',
          '        - input',
          '      additionalProperties: false',
          '    implementation:',
          '      runtime: python',
          '      entrypoint: scripts/run.py',
          '---',
          body,
        ].join('\n'),
        'scripts/run.py': `"""Entrypoint of the ${name}-run tool."""\n\nimport json\nimport sys\n\n\ndef main() -> None:\n    args = json.load(sys.stdin)\n    print(json.dumps({"result": args["input"]}))\n\n\nif __name__ == "__main__":\n    main()\n`,
      };
    case 'claude-code-command':
      return {
        'SKILL.md': `---\nname: ${name}\ndescription: ${desc}\nargument-hint: "[what to work on]"\ndisable-model-invocation: true\n---\n# ${title}\n\nWork on: $ARGUMENTS\n\n1. First step.\n2. Second step.\n`,
      };
  }
}
