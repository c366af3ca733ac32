import type { CliCommand } from '../types';

/** `skillbench serve` — being built; says so plainly instead of pretending. */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: '(serve: not available in this build yet)',
  usage: 'skillbench serve: not available in this build yet.',
  async run(_args, io) {
    io.stderr('skillbench serve is not available in this build yet.\n');
    return 2;
  },
};
