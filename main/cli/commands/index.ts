import type { CliCommand } from '../support/types';

/** A subcommand, loaded only when it runs (or for `--help`), so start-up parses only what is used. */
export interface CommandEntry {
  name: string;
  load: () => Promise<CliCommand>;
}

/** Every subcommand, in the order `--help` lists them. Each lives in its own module. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'validate', load: async () => (await import('./validate')).validateCommand },
  { name: 'new', load: async () => (await import('./new')).newCommand },
  { name: 'pack', load: async () => (await import('./pack')).packCommand },
  { name: 'import', load: async () => (await import('./import')).importCommand },
  { name: 'serve', load: async () => (await import('./serve')).serveCommand },
  { name: 'scan', load: async () => (await import('./scan')).scanCommand },
  { name: 'inspect', load: async () => (await import('./inspect')).inspectCommand },
  { name: 'catalog', load: async () => (await import('./catalog')).catalogCommand },
  { name: 'select', load: async () => (await import('./select')).selectCommand },
  { name: 'agents', load: async () => (await import('./agents')).agentsCommand },
  { name: 'install', load: async () => (await import('./install')).installCommand },
  { name: 'installed', load: async () => (await import('./installed')).installedCommand },
  { name: 'uninstall', load: async () => (await import('./uninstall')).uninstallCommand },
  { name: 'outdated', load: async () => (await import('./outdated')).outdatedCommand },
  { name: 'update', load: async () => (await import('./update')).updateCommand },
  { name: 'web', load: async () => (await import('./web')).webCommand },
];
