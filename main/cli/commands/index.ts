import type { CommandEntry } from '../support/types';
import { VALIDATE_ENTRY } from './validate-entry';

/** Every subcommand, in the order `--help` lists them. Each lives in its own module. */
export const COMMANDS: readonly CommandEntry[] = [
  VALIDATE_ENTRY,
  {
    name: 'new',
    summary: "Create a new skill folder from one of the wizard's templates",
    load: async () => (await import('./new')).newCommand,
  },
  {
    name: 'pack',
    summary: 'Pack a skill for claude.ai, the Claude API, Claude Code, an archive or a folder',
    load: async () => (await import('./pack')).packCommand,
  },
  {
    name: 'import',
    summary: 'Import a skill from a .zip/.skill/.tar.gz, a folder or a SKILL.md into a library',
    load: async () => (await import('./import')).importCommand,
  },
  {
    name: 'serve',
    summary: 'Serve skill folders over MCP (stdio or loopback HTTP) with the Skills extension',
    load: async () => (await import('./serve')).serveCommand,
  },
  {
    name: 'scan',
    summary: 'Review skills for risks (hidden text, risky scripts, prompt injection, secrets)',
    load: async () => (await import('./scan')).scanCommand,
  },
  {
    name: 'inspect',
    summary: 'Inspect a skill server: discover its skills, verify every file, print a report card',
    load: async () => (await import('./inspect')).inspectCommand,
  },
  {
    name: 'catalog',
    summary:
      'Print the <available_skills> block an agent shows the model (folders and MCP servers)',
    load: async () => (await import('./catalog')).catalogCommand,
  },
  {
    name: 'select',
    summary: 'Show which skills a prompt selects and why, or run the trigger evals (--eval)',
    load: async () => (await import('./select')).selectCommand,
  },
  {
    name: 'agents',
    summary: 'List the agents on this computer and where they load skills from',
    load: async () => (await import('./agents')).agentsCommand,
  },
  {
    name: 'install',
    summary: 'Install skills into agents (link or copy), checked for each agent first',
    load: async () => (await import('./install')).installCommand,
  },
  {
    name: 'installed',
    summary: 'List the skills each agent loads, where they come from and their state',
    load: async () => (await import('./installed')).installedCommand,
  },
  {
    name: 'uninstall',
    summary: 'Remove a skill from agents (to the trash)',
    load: async () => (await import('./uninstall')).uninstallCommand,
  },
  {
    name: 'outdated',
    summary: 'Compare installed skills with their sources',
    load: async () => (await import('./outdated')).outdatedCommand,
  },
  {
    name: 'update',
    summary: 'Update installed skills from their sources, never losing your edits',
    load: async () => (await import('./update')).updateCommand,
  },
  {
    name: 'web',
    summary: 'Open Skillbench in your browser (the browser shell on 127.0.0.1)',
    load: async () => (await import('./web')).webCommand,
  },
];
