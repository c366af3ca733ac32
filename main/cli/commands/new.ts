import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkSkillName, suggestSkillName } from '../../../shared/authoring/skill-name';
import { SKILL_TEMPLATES, type SkillTemplate } from '../../../shared/authoring/templates';
import { createSkillFolder } from '../../library/new-skill';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { UsageError, type CliCommand } from '../support/types';
import { didYouMean } from '../../../shared/text/edit-distance';
import { parseProblem } from '../support/words';

const TEMPLATE_IDS = SKILL_TEMPLATES.map((t) => t.id);

const USAGE = `Usage: skillbench new NAME [--template T] [--description TEXT] [--into FOLDER]
       skillbench new --list-templates

Create a new skill folder FOLDER/NAME from one of the new-skill wizard's templates. NAME becomes
the folder name and the skill's name: lowercase letters, digits and hyphens. The skill is
written whole or not at all, and an existing folder is never touched.

  --template T      ${TEMPLATE_IDS.join(' | ')} (default: blank)
  --description TEXT what the skill does and when to use it (you can change it later)
  --into FOLDER     the library folder that receives NAME/ (default: this folder)
  --list-templates  print the template ids, one per line

Templates:
${SKILL_TEMPLATES.map((t) => `  ${t.id.padEnd(20)} ${t.help}`).join('\n')}

Exit codes: 0 created, 1 refused (the name is not allowed, or the folder exists), 2 usage or I/O problem.
`;

/**
 * " Try: skillbench new meeting-notes." for a name the rules refuse, when the words given make a
 * valid one (the same suggestion the app's wizard makes), else "".
 */
function tryName(given: string, lead: string): string {
  const suggested = suggestSkillName(given);
  return suggested !== '' && suggested !== given && checkSkillName(suggested) === null
    ? ` ${lead}: \`skillbench new ${suggested}\`.`
    : '';
}

/** `skillbench new` — a new skill from a template. */
export const newCommand: CliCommand = {
  name: 'new',
  usage: USAGE,
  async run(args, raw) {
    const io = terminalIO(raw);
    let parsed;
    try {
      parsed = parseArgs({
        args,
        allowPositionals: true,
        strict: true,
        options: {
          template: { type: 'string', short: 't' },
          description: { type: 'string', short: 'd' },
          into: { type: 'string' },
          'list-templates': { type: 'boolean' },
        },
      });
    } catch (error) {
      throw new UsageError(parseProblem(error, 'new', args));
    }
    const { values, positionals } = parsed;
    if (values['list-templates']) {
      // Why ids only: scripts read them line by line; --help says what each template holds.
      for (const t of SKILL_TEMPLATES) io.stdout(`${t.id}\n`);
      return 0;
    }
    if (positionals.length === 0)
      throw new UsageError('give the new skill a name, e.g. skillbench new meeting-notes.');
    if (positionals.length > 1)
      throw new UsageError(
        `one skill at a time (got ${positionals.join(', ')}).${tryName(positionals.join(' '), 'A name of several words is written with hyphens')}`,
      );
    const template = values.template ?? 'blank';
    if (!(TEMPLATE_IDS as readonly string[]).includes(template)) {
      const guess = didYouMean(template, TEMPLATE_IDS);
      throw new UsageError(
        `there is no template "${template}".${guess ? ` Did you mean ${guess}?` : ''} Use one of ${TEMPLATE_IDS.join(', ')}.`,
      );
    }
    const name = positionals[0];
    const into = resolve(io.cwd, values.into ?? '.');
    const description =
      values.description ??
      'Describe what this skill does and when the agent should use it (one or two sentences).';
    const created = await createSkillFolder(
      into,
      name,
      description,
      template as SkillTemplate['id'],
    );
    if (!created.ok) {
      const hint = created.error.code === 'invalid-name' ? tryName(name, 'Try') : '';
      io.stderr(term`skillbench new: ${created.error.message}${hint}\n`);
      return created.error.code === 'io' || created.error.code === 'not-found' ? 2 : 1;
    }
    io.stdout(
      term`Created ${created.value.dir} from the "${template}" template.\nEdit ${created.value.path}, then check it with: skillbench validate ${created.value.dir}\n`,
    );
    return 0;
  },
};
