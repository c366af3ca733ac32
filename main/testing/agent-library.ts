/**
 * Test support for what the agent sees (docs/agent-view.md): two small libraries whose skills
 * carry Universal 2.1 triggers, tools and trigger evals, and a collision between them. Node only;
 * no test framework imports.
 */
import { skillMd, writeTree } from './skill-library';

/**
 * The local library: `pdf-forms` (triggers, one tool whose schema OpenAI strict mode refuses,
 * trigger evals), `invoices` (triggers, evals), `notes` (no triggers).
 */
export async function makeAgentLibrary(root: string): Promise<void> {
  await writeTree(root, {
    'pdf-forms/SKILL.md': skillMd(
      [
        'spec_version: "2.1"',
        'name: pdf-forms',
        'description: Fill in PDF forms & check <fields>.',
        'version: 1.0.0',
        'when_to_use:',
        '  mentions: [form, fill in]',
        '  file_types: [.pdf]',
        '  intents: [fill-form]',
        'tools:',
        '  - name: fill',
        '    description: Fill a form.',
        '    input_schema:',
        '      type: object',
        '      properties:',
        '        path: { type: string }',
        '      required: [path]',
      ].join('\n'),
      '# PDF forms\n\nFill the fields.\n',
    ),
    'pdf-forms/evals/triggers.json': JSON.stringify({
      should_select: [{ prompt: 'fill in this', files: ['a.pdf'] }, 'a form'],
      should_not_select: ['hello there'],
    }),
    'invoices/SKILL.md': skillMd(
      [
        'spec_version: "2.1"',
        'name: invoices',
        'description: Make invoices from billable hours.',
        'version: 1.0.0',
        'when_to_use:',
        '  mentions: [invoice, billable hours]',
        '  file_types: [.xlsx]',
        '  priority: 2',
      ].join('\n'),
      'Make the invoice.\n',
    ),
    'invoices/evals/triggers.json': JSON.stringify({
      should_select: [{ prompt: 'an invoice for these billable hours', files: ['h.xlsx'] }],
    }),
    'notes/SKILL.md': skillMd('name: notes\ndescription: Keep meeting notes tidy.', 'Notes.\n'),
  });
}

/**
 * The second library, served by a server: `remote-only` (triggers) and a `notes` of its own,
 * which the local `notes` hides.
 */
export async function makeServedLibrary(root: string): Promise<void> {
  await writeTree(root, {
    'remote-only/SKILL.md': skillMd(
      [
        'name: remote-only',
        'description: Summarise a spreadsheet.',
        'when_to_use:',
        '  mentions: [spreadsheet]',
        '  file_types: [.xlsx, .csv]',
      ].join('\n'),
      'Summarise it.\n',
    ),
    'notes/SKILL.md': skillMd('name: notes\ndescription: The server copy of notes.', 'Remote.\n'),
  });
}
