import { readerNote } from '../../../shared/agent-view/readers';
import { agentById, displayAgentPath, FEATURE_LABELS } from '../../../shared/agents/agents';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { type CliCommand, type CliIO } from '../support/types';
import { parseChoice } from '../support/words';
import { managerFor } from './agents-support';

const USAGE = `Usage: skillbench agents [--all] [--format text|json]

List the agents found on this computer (their configuration folders exist), with the folders
they load skills from, whether they follow linked skill folders, and the frontmatter features
they act on.

  --all                list every agent Skillbench knows, found here or not
  --format text|json   text (default) or JSON

Exit codes: 0 listed, 2 usage problem.
`;

async function run(args: string[], raw: CliIO): Promise<number> {
  const { values } = readCommandLine(
    'agents',
    args,
    { all: { type: 'boolean' }, format: { type: 'string' } },
    { positionals: false },
  );
  const format = parseChoice('--format', values.format ?? 'text', ['text', 'json'] as const);
  const { manager } = managerFor(raw);
  const overview = await manager.overview({ all: values.all === true });
  const agents = overview.agents.filter((a) => values.all === true || a.detected);
  if (format === 'json') {
    raw.stdout(
      `${JSON.stringify(
        agents.map(({ folders: _f, ...a }) => ({
          ...a,
          folders: _f.map((f) => ({
            scope: f.scope,
            path: f.path,
            exists: f.exists,
            skills: f.skills.length,
          })),
        })),
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  const io = terminalIO(raw);
  if (agents.length === 0) {
    io.stdout(
      'No agents were found on this computer (none of their configuration folders exist).\nRun skillbench agents --all for every agent Skillbench knows.\n',
    );
    return 0;
  }
  for (const a of agents) {
    const features = a.features.map((f) => FEATURE_LABELS[f]).join(', ');
    io.stdout(
      term`${a.name} (${a.id})${a.detected ? '' : ' — not found here'}\n` +
        term`  project folder: ${a.projectDir}/\n` +
        term`  global folder:  ${a.globalDir === null ? 'none' : displayAgentPath(a.globalDir) + '/'}\n` +
        alsoLoads(a.id) +
        (a.projectNote ? `  project skills: ${a.projectNote}\n` : '') +
        `  linked skill folders: ${a.followsLinks ? 'followed' : 'not followed (installs copy)'}\n` +
        `  checked as: ${a.profile}${readerNote(a.id) ? ` ${readerNote(a.id)}` : ''}${features ? `; acts on ${features}` : ''}\n` +
        `  skills: ${a.folders.reduce((n, f) => n + f.skills.length, 0)}\n`,
    );
  }
  return 0;
}

/** `skillbench agents`. */
export const agentsCommand: CliCommand = {
  name: 'agents',
  usage: USAGE,
  run,
};

/** The line naming the folders an agent also loads skills from, or '' (AgentSpec.alsoReads). */
function alsoLoads(id: string): string {
  const also = agentById(id)?.alsoReads;
  if (!also) return '';
  const folders = [
    ...also.project.map((p) => `${p}/ (in a project)`),
    ...also.global.map((p) => `${displayAgentPath(p)}/`),
  ];
  return `  also loads:     ${folders.join(', ')} (listed, never installed into)\n`;
}
