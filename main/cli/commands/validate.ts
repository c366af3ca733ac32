import type { CliCommand } from '../types';

/** `skillbench validate` — being built; says so plainly instead of pretending. */
export const validateCommand: CliCommand = {
  name: 'validate',
  summary: '(validate: not available in this build yet)',
  usage: 'skillbench validate: not available in this build yet.',
  async run(_args, io) {
    io.stderr('skillbench validate is not available in this build yet.\n');
    return 2;
  },
};
