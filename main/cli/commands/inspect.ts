import type { CliCommand } from '../types';

/** `skillbench inspect` — being built; says so plainly instead of pretending. */
export const inspectCommand: CliCommand = {
  name: 'inspect',
  summary: '(inspect: not available in this build yet)',
  usage: 'skillbench inspect: not available in this build yet.',
  async run(_args, io) {
    io.stderr('skillbench inspect is not available in this build yet.\n');
    return 2;
  },
};
