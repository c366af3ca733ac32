import type { CliCommand } from '../types';

/** `skillbench import` — being built; says so plainly instead of pretending. */
export const importCommand: CliCommand = {
  name: 'import',
  summary: '(import: not available in this build yet)',
  usage: 'skillbench import: not available in this build yet.',
  async run(_args, io) {
    io.stderr('skillbench import is not available in this build yet.\n');
    return 2;
  },
};
