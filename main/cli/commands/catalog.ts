import { resolve } from 'node:path';
import type { Catalog, CatalogSource } from '../../../shared/agent-view';
import { gatherCatalog } from '../../agent-view/service';
import { buildCache } from '../../library/listing-cache';
import { mcpServeCheck, withSafetyGate } from '../../mcp-server/skill-check';
import { defaultUserDataDir } from '../../platform/user-data';
import { term, terminalText } from '../../security/terminal-text';
import { keptReviews } from '../support/kept-reviews';
import { discoverRemoteSkills, type RemoteSkills, type ServerArg } from '../support/remote-skills';
import { terminalIO } from '../support/terminal-io';
import { trustInPlaceHint } from '../support/trust-hint';
import { readTokenFile } from '../support/token-file';
import { readCommandLine } from '../support/command-line';
import { UsageError, type CliCommand, type CliIO } from '../support/types';
import { count, parseChoice } from '../support/words';

const USAGE = `Usage: skillbench catalog LIB... [--stdio "COMMAND ARGS"]... [--http URL [--token-file PATH]]... [--format xml|json]

Prints what an agent that merges skills from folders and MCP servers shows the model: one
<available_skills> block with each skill's name, description, location and directory (paths
for skills on disk, resource URIs for skills from a server). When two skills share a name, a
skill on disk wins; otherwise the folder or server given first wins. A skill whose
frontmatter sets disable-model-invocation is left out of the block (only the user starts it).

  LIB                  a library folder (repeatable; the order decides name collisions)
  --stdio "CMD ARGS"   start a stdio MCP server and add its skills (repeatable)
  --http URL           connect to a Streamable HTTP MCP server and add its skills (repeatable)
  --token-file PATH    read the bearer token for the --http server just before it from this
                       file (surrounding whitespace ignored), such as the one skillbench serve
                       --token-file reads
  --token T            the same with the token itself, which every user of this computer can
                       then see in the process list; prefer --token-file
  --format xml|json    xml (default): the block on stdout, collisions and the footprint on
                       stderr; json: skills, collisions, userOnly, footprint, problems
                       and xml on stdout

A skill from a folder that hosts following the Agent Skills specification skip (a name that
is not its folder's, a description over 1,024 characters, …) is still listed, as hosts that
read folders leniently show it; the summary (json: notServed) says why the others, and
skillbench serve, leave it out. A skill the safety review says not to trust is listed too
(hosts that read the folder show it), and the summary (json: heldBack) says that skillbench
serve holds it back until you choose "Trust anyway". A skill whose line in Claude Code's skill list
(description, " - ", when_to_use) is over 1,536 characters is listed whole, and the summary
(json: listingCut) says how much of it that list cuts off. json: claudeCode is that list for the
skills on disk, were their folder Claude Code's skills folder: each SKILL.md's line as Claude
Code reads it (docs/claude-code-listing.md). json: codex is what Codex makes of the same skills:
the lines of its list in its order, the skills it keeps out of the list, and the ones it skips
with its message and why (docs/codex-listing.md). json: gemini is what Gemini CLI makes of
them: the skills it lists with the name and description it shows, the ones it leaves out for a
name another skill has, and the ones it does not load, with why (docs/gemini-cli-listing.md).
json: opencode is the same for OpenCode (docs/opencode-listing.md).

Exit codes: 0 printed, 2 usage, I/O (a library folder could not be read or holds no skill) or
connection problem.
`;

interface CatalogArgs {
  libs: string[];
  servers: ServerArg[];
  format: 'xml' | 'json';
}

function parse(args: string[]): CatalogArgs {
  const out: CatalogArgs = { libs: [], servers: [], format: 'xml' };
  const { tokens } = readCommandLine('catalog', args, {
    stdio: { type: 'string', multiple: true },
    http: { type: 'string', multiple: true },
    token: { type: 'string', multiple: true },
    'token-file': { type: 'string', multiple: true },
    format: { type: 'string' },
  });
  // Why the tokens, in order: a --token or --token-file belongs to the --http URL before it.
  for (const t of tokens) {
    if (t.kind === 'positional') out.libs.push(t.value);
    if (t.kind !== 'option') continue;
    const value = t.value ?? '';
    if (t.name === 'stdio') out.servers.push({ kind: 'stdio', commandLine: value });
    else if (t.name === 'http') out.servers.push({ kind: 'http', url: value });
    else if (t.name === 'format')
      out.format = parseChoice('--format', value, ['xml', 'json'] as const);
    else {
      const last = out.servers[out.servers.length - 1];
      if (last?.kind !== 'http')
        throw new UsageError(`--${t.name} must follow the --http URL it is for.`);
      if (last.token !== undefined || last.tokenFile !== undefined)
        throw new UsageError(
          'Give each --http server one token: one --token-file or one --token, not both.',
        );
      if (t.name === 'token') last.token = value;
      else last.tokenFile = value;
    }
  }
  if (out.libs.length === 0 && out.servers.length === 0)
    throw new UsageError('Give at least one library folder, --stdio or --http server.');
  return out;
}

function sourceText(s: CatalogSource): string {
  return s.kind === 'library' ? `folder ${s.root}` : `server ${s.server}`;
}

/** The collisions and footprint as people read them (for stderr beside the XML). */
export function catalogSummary(catalog: Catalog): string {
  const lines: string[] = [];
  const f = catalog.footprint;
  lines.push(
    `${count(catalog.skills.length, 'skill')} listed; the block is ${count(f.block.bytes, 'byte')}, about ${count(f.block.tokens, 'token')}, always in context.`,
  );
  const bodies =
    f.bodiesUnknown > 0
      ? ` (${f.bodiesUnknown} from servers not counted: their instructions are read only when selected)`
      : '';
  lines.push(
    `Instructions loaded on selection: ${count(f.bodies.bytes, 'byte')}, about ${count(f.bodies.tokens, 'token')} in all${bodies}.`,
  );
  const userOnly = new Set(catalog.userOnly.map((u) => u.location));
  for (const c of catalog.collisions) {
    const kept = userOnly.has(c.winner.location) ? 'kept (only the user starts it)' : 'listed';
    lines.push(
      term`Name collision: ${c.name} — ${kept}: ${c.winner.location} (${sourceText(c.winner.source)})`,
    );
    for (const h of c.hidden) lines.push(term`  left out: ${h.location}. ${h.why}`);
  }
  for (const u of catalog.userOnly)
    lines.push(term`Not in the block: ${u.name} (${u.location}). ${u.why}`);
  for (const s of [...catalog.skills, ...catalog.userOnly])
    if (s.notServed !== undefined)
      lines.push(
        term`Listed, but hosts that follow the Agent Skills specification skip it and skillbench serve does not serve it: ${s.name} (${s.location}). ${s.notServed}`,
      );
  for (const s of catalog.skills)
    if (s.listingCut !== undefined)
      lines.push(term`Cut in Claude Code's list: ${s.name} (${s.location}). ${s.listingCut}`);
  for (const s of [...catalog.skills, ...catalog.userOnly])
    if (s.heldBack !== undefined)
      lines.push(
        term`Listed, and hosts that read the folder show it, but skillbench serve holds it back: ${s.name} (${s.location}). ${s.heldBack}`,
        trustInPlaceHint(s.directory),
      );
  return `${lines.join('\n')}\n`;
}

/** The JSON document of `--format json`. */
export function catalogJson(catalog: Catalog, problems: { path: string; message: string }[]) {
  return {
    skills: catalog.skills.map((s) => ({
      name: s.name,
      description: s.description,
      location: s.location,
      directory: s.directory,
      source: s.source,
      footprint: s.footprint,
      ...(s.notServed !== undefined ? { notServed: s.notServed } : {}),
      ...(s.heldBack !== undefined ? { heldBack: s.heldBack } : {}),
      ...(s.listingCut !== undefined ? { listingCut: s.listingCut } : {}),
      claudeCode: s.claudeCodeLine,
    })),
    collisions: catalog.collisions,
    claudeCode: catalog.claudeCode,
    codex: catalog.codex,
    gemini: catalog.gemini,
    opencode: catalog.opencode,
    userOnly: catalog.userOnly.map((s) => ({
      name: s.name,
      description: s.description,
      location: s.location,
      directory: s.directory,
      source: s.source,
      why: s.why,
      ...(s.notServed !== undefined ? { notServed: s.notServed } : {}),
      ...(s.heldBack !== undefined ? { heldBack: s.heldBack } : {}),
    })),
    footprint: catalog.footprint,
    problems,
    xml: catalog.xml,
  };
}

async function run(args: string[], raw: CliIO): Promise<number> {
  const opts = parse(args);
  const text = terminalIO(raw);
  // Why read before connecting: a missing or empty token file is a usage problem, said at once.
  for (const server of opts.servers) {
    if (server.kind !== 'http' || server.tokenFile === undefined) continue;
    const path = resolve(raw.cwd, server.tokenFile);
    const file = await readTokenFile(path, 'catalog');
    if (file.warning) text.stderr(file.warning);
    if (file.token === '') throw new UsageError(`The token file ${path} is empty.`);
    server.token = file.token;
  }
  let remote: RemoteSkills | undefined;
  try {
    try {
      remote = await discoverRemoteSkills(opts.servers, raw.cwd);
    } catch (error) {
      text.stderr(term`skillbench catalog: ${(error as Error).message}\n`);
      return 2;
    }
    const roots = opts.libs.map((l) => resolve(raw.cwd, l));
    const kept = await keptReviews(buildCache(defaultUserDataDir(raw.env)), roots);
    const { catalog, problems } = await gatherCatalog({
      roots,
      serverSkills: remote.skills,
      serverTargets: remote.targets,
      // Why the gate: what serve would hold back is said beside the block (its "Trust anyway" decisions).
      servedCheck: withSafetyGate(mcpServeCheck, defaultUserDataDir(raw.env)),
      ...(kept ? { reviews: kept.memo } : {}),
    });
    await kept?.save();
    for (const p of problems) text.stderr(term`skillbench catalog: ${p.message}\n`);
    // Why 2 for a folder that could not be read: the block printed lacks a whole library.
    const code = problems.some((p) => roots.includes(p.path)) ? 2 : 0;
    if (opts.format === 'json') {
      raw.stdout(`${JSON.stringify(catalogJson(catalog, problems), null, 2)}\n`);
      return code;
    }
    // Why raw: the block is exact XML; xmlText wrote every control or invisible character as a
    // character reference, so nothing in it can act on a terminal (terminalText would keep it as is).
    raw.stdout(`${terminalText(catalog.xml, { lineBreaks: 'keep' })}\n`);
    text.stderr(catalogSummary(catalog));
    return code;
  } finally {
    await remote?.close();
  }
}

/** `skillbench catalog` — the <available_skills> block an agent would show the model. */
export const catalogCommand: CliCommand = {
  name: 'catalog',
  usage: USAGE,
  run,
};
