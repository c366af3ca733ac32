import type { CliCommand } from '../types';

/** `skillbench pack` — being built; says so plainly instead of pretending. */
export const packCommand: CliCommand = {
  name: 'pack',
  summary: '(pack: not available in this build yet)',
  usage: 'skillbench pack: not available in this build yet.',
  async run(_args, io) {
    io.stderr('skillbench pack is not available in this build yet.\n');
    return 2;
  },
};
