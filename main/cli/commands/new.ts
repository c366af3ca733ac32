import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { checkSkillName, suggestSkillName } from '../../../shared/authoring/skill-name';
import { PLACEHOLDER_DESCRIPTION } from '../../../shared/skill';
import { SKILL_TEMPLATES, type SkillTemplate } from '../../../shared/authoring/templates';
import { createSkillFolder } from '../../library/new-skill';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { UsageError, type CliCommand } from '../support/types';
import { didYouMean } from '../../../shared/text/edit-distance';

const TEMPLATE_IDS = SKILL_TEMPLATES.map((t) => t.id);

const USAGE = `Usage: skillbench new NAME [--template T] [--description TEXT] [--into FOLDER]
       skillbench new --list-templates

Create a new skill folder FOLDER/NAME from one of the new-skill wizard's templates. NAME becomes
the folder name and the skill's name: lowercase letters, digits and hyphens. NAME may also be a
path (\`skillbench new my-skills/meeting-notes\`): its last part is the name, the rest the folder
that receives it. The skill is written whole or not at all, and an existing folder is never
touched.

  --template T        ${TEMPLATE_IDS.join(' | ')} (default: blank)
  --description TEXT  what the skill does and when to use it (you can change it later)
  --into FOLDER       the library folder that receives NAME/ (default: this folder)
  --list-templates    print the template ids, one per line

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

/** `given` without the folder separators it ends with ("lib/x/" is "lib/x"). */
function trimSeparators(given: string): string {
  let end = given.length;
  while (end > 0 && (given[end - 1] === '/' || given[end - 1] === sep)) end--;
  return given.slice(0, end);
}

/** `skillbench new` — a new skill from a template. */
export const newCommand: CliCommand = {
  name: 'new',
  usage: USAGE,
  async run(args, raw) {
    const io = terminalIO(raw);
    const parsed = readCommandLine('new', args, {
      template: { type: 'string', short: 't' },
      description: { type: 'string', short: 'd' },
      into: { type: 'string' },
      'list-templates': { type: 'boolean' },
    });
    const { values, positionals } = parsed;
    if (values['list-templates']) {
      // Why ids only: scripts read them line by line; --help says what each template holds.
      for (const t of SKILL_TEMPLATES) io.stdout(`${t.id}\n`);
      return 0;
    }
    if (positionals.length === 0)
      throw new UsageError('Give the new skill a name, e.g. skillbench new meeting-notes.');
    if (positionals.length > 1)
      throw new UsageError(
        `One skill at a time (got ${positionals.join(', ')}).${tryName(positionals.join(' '), 'A name of several words is written with hyphens')}`,
      );
    const template = values.template ?? 'blank';
    if (!(TEMPLATE_IDS as readonly string[]).includes(template)) {
      const guess = didYouMean(template, TEMPLATE_IDS);
      throw new UsageError(
        `There is no template "${template}".${guess ? ` Did you mean ${guess}?` : ''} Use one of ${TEMPLATE_IDS.join(', ')}.`,
      );
    }
    // Why a path is taken apart: "new lib/meeting-notes" means the skill meeting-notes in lib/,
    // as `mkdir` and `cargo new` read it; only the last part has to be a valid name.
    const given = trimSeparators(positionals[0]);
    const asPath = given.includes('/') || given.includes(sep);
    const name = asPath ? basename(given) : given;
    const into = resolve(io.cwd, values.into ?? '.', asPath ? dirname(given) : '.');
    // Why: with --into the user named the folder that receives the skill; a NAME such as
    // "../x" or "/tmp/x" would put it somewhere else.
    if (values.into !== undefined && asPath) {
      const rel = relative(resolve(io.cwd, values.into), into);
      if (isAbsolute(given) || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`))
        throw new UsageError(
          `With --into, NAME must stay inside ${values.into}: "${positionals[0]}" leads outside it. Give the name alone, or a path inside that folder.`,
        );
    }
    const description = values.description ?? PLACEHOLDER_DESCRIPTION;
    const created = await createSkillFolder(
      into,
      name,
      description,
      template as SkillTemplate['id'],
    );
    if (!created.ok) {
      const hint = created.error.code === 'invalid-name' ? tryName(name, 'Try') : '';
      io.stderr(term`skillbench new: ${created.error.message}${hint}\n`);
      return ['io', 'not-found', 'not-a-folder', 'name-too-long'].includes(created.error.code)
        ? 2
        : 1;
    }
    // Why the description is named when none was given: it is what agents choose the skill by,
    // and the placeholder stays a warning (description/template-text) until it is written.
    const edit =
      values.description === undefined
        ? term`Write its description (what it does and when to use it) in ${created.value.path}`
        : term`Edit ${created.value.path}`;
    io.stdout(
      term`Created ${created.value.dir} from the "${template}" template.\n` +
        `${edit}, then check it with: ` +
        term`skillbench validate ${created.value.dir}\n`,
    );
    return 0;
  },
};
