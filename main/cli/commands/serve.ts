import { resolve } from 'node:path';
import { SKILL_LIMITS } from '../../../shared/sep/constants';
import { allAgentSkillDirs, processAgentEnv } from '../../agents/paths';
import type { ServedSkill, ExcludedSkill } from '../../mcp-server/catalog';
import type { LiveCatalog } from '../../mcp-server/live-catalog';
import { defaultUserDataDir } from '../../platform/user-data';
import type { SkillsServerFeatures } from '../../mcp-server/mcp-server';
import { readAheadLibrary } from '../../skill-folder/read-ahead';
import { pauseOptimizer } from '../../platform/optimizer-pause';
import { folderProblem } from '../../platform/fs-errors';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { trustInPlaceHint } from '../support/trust-hint';
import { readCommandLine } from '../support/command-line';
import { UsageError } from '../support/types';
import { listenHttp } from '../../mcp-server/http-listener';
import type { HttpListener } from '../../mcp-server/http-listener';
import { readTokenFile } from '../support/token-file';
import { count, parsePort } from '../support/words';
import type { CliCommand, CliIO } from '../support/types';

const USAGE = `Usage:
  skillbench serve --stdio [options] LIBRARY...
  skillbench serve --http [--port N] [--host 127.0.0.1] [--token-file PATH] [options] LIBRARY...

Serves the skills in the LIBRARY folders over MCP with the Skills extension (SEP-2640).
Only skills that pass the mcp-serve checks are served, and none the safety review calls
"Don't trust" unless you accepted it ("Trust anyway" in the app, or --trust-anyway of
import, install or pack, or scan SKILL-FOLDER --trust-anyway); the others are listed on
stderr, and so are files of a served skill that clients cannot read (a symbolic link, a file
that looks like a secret).

  --stdio              Speak MCP on stdin/stdout (the command to paste into Claude Desktop).
  --http               Serve Streamable HTTP on http://127.0.0.1:<port>/mcp.
  --port N             HTTP port (default: a free one).
  --host ADDR          Address to bind (default 127.0.0.1). Any loopback address (127.x.x.x,
                       ::1) may be given; any other needs --allow-remote.
  --allow-remote       Allow binding a non-loopback address (reachable from the network): one
                       address of this computer, which clients must use; not 0.0.0.0 or ::.
  --token-file PATH    Read the bearer token clients must send from this file (surrounding
                       whitespace ignored). Or set it in the environment variable
                       SKILLBENCH_TOKEN. The token must be at least 16 characters long.
                       Without either, a new random token is made and printed on stderr.
  --token T            Still accepted, but the token is then visible to every user of this
                       computer in the process list; prefer SKILLBENCH_TOKEN or --token-file.
  --no-legacy          Do not serve skill://index.json, the .tar.gz/.zip archives or the resource://skills/... mapping.
  --no-tools           Do not offer the list_skills / read_skill / read_skill_file tools.
  --no-prompts         Do not offer user-invocable skills as prompts.
  --no-watch           Do not watch the folders for changes. (While watching, each change is
                       reported on stderr: skills now served, updated, no longer served, and
                       why a skill is not served.)
  --insecure-no-auth-loopback-only
                       Test only: accept HTTP requests without a token (loopback only), for
                       tools such as the MCP conformance suite that cannot send one.`;

interface ServeArgs {
  mode: 'stdio' | 'http';
  roots: string[];
  port?: number;
  host?: string;
  token?: string;
  tokenFile?: string;
  allowRemote: boolean;
  noAuth: boolean;
  watch: boolean;
  features: SkillsServerFeatures;
}

function parseArgs(args: string[], cwd: string): ServeArgs {
  const { values, positionals } = readCommandLine('serve', args, {
    stdio: { type: 'boolean' },
    http: { type: 'boolean' },
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string' },
    'token-file': { type: 'string' },
    'allow-remote': { type: 'boolean' },
    'insecure-no-auth-loopback-only': { type: 'boolean' },
    'no-legacy': { type: 'boolean' },
    'no-tools': { type: 'boolean' },
    'no-prompts': { type: 'boolean' },
    'no-watch': { type: 'boolean' },
  });
  if (values.stdio && values.http) throw new UsageError('Choose one of --stdio and --http.');
  const mode = values.stdio ? 'stdio' : values.http ? 'http' : undefined;
  const roots = positionals.map((p) => resolve(cwd, p));
  const features: SkillsServerFeatures = {};
  if (values['no-legacy']) {
    features.legacy = false;
    features.personalMcp = false;
  }
  if (values['no-tools']) features.tools = false;
  if (values['no-prompts']) features.prompts = false;
  const out: Omit<ServeArgs, 'mode' | 'roots'> = {
    port: values.port === undefined ? undefined : parsePort(values.port),
    host: values.host,
    token: values.token,
    tokenFile: values['token-file'] === undefined ? undefined : resolve(cwd, values['token-file']),
    allowRemote: values['allow-remote'] === true,
    noAuth: values['insecure-no-auth-loopback-only'] === true,
    watch: values['no-watch'] !== true,
    features,
  };
  if (!mode) throw new UsageError('Say how to serve: --stdio or --http.');
  if (roots.length === 0) throw new UsageError('Name at least one library folder to serve.');
  if (
    mode === 'stdio' &&
    (out.port !== undefined ||
      out.host !== undefined ||
      out.token !== undefined ||
      out.tokenFile !== undefined ||
      out.noAuth ||
      out.allowRemote)
  ) {
    throw new UsageError(
      '--port, --host, --token, --token-file and --allow-remote only apply to --http.',
    );
  }
  if (out.token !== undefined && out.tokenFile !== undefined)
    throw new UsageError('Give the token one way: --token-file or --token, not both.');
  return { mode, roots, ...out };
}

/** Root folders per part read ahead: the first skills are checked while the rest are read. */
const READ_AHEAD_BATCH = 32;

/** The environment variable `serve --http` reads its token from. */
export const TOKEN_ENV = 'SKILLBENCH_TOKEN';

/** The token's origin, for messages. */
type TokenSource = { token: string; from: string } | undefined;

/**
 * The token from `--token-file`, `--token` or SKILLBENCH_TOKEN, in that order; undefined when
 * none is given (the host then makes one). Why not the command line: every local user can read
 * another user's process arguments (`ps`, /proc/PID/cmdline), but not its environment or files.
 */
async function chooseToken(opts: ServeArgs, io: CliIO): Promise<TokenSource> {
  let chosen: TokenSource;
  if (opts.tokenFile !== undefined) {
    const file = await readTokenFile(opts.tokenFile, 'serve');
    chosen = { token: file.token, from: `the token file ${opts.tokenFile}` };
    if (file.warning) io.stderr(file.warning);
  } else if (opts.token !== undefined) {
    chosen = { token: opts.token, from: '--token' };
    io.stderr(
      `skillbench serve: warning: a token given with --token is visible to every user of this computer in the process list. Put it in the ${TOKEN_ENV} environment variable or in a file named with --token-file instead.\n`,
    );
  } else {
    const fromEnv = io.env[TOKEN_ENV];
    if (fromEnv !== undefined && fromEnv !== '')
      chosen = { token: fromEnv.trim(), from: `the ${TOKEN_ENV} environment variable` };
  }
  if (chosen && chosen.token.length < 16)
    throw new UsageError(
      `The token from ${chosen.from} is ${chosen.token.length} characters long; it must be at least 16.`,
    );
  if (chosen && /\s/.test(chosen.token))
    throw new UsageError(`The token from ${chosen.from} contains spaces; a bearer token cannot.`);
  return chosen;
}

function waitForSignal(): Promise<void> {
  return new Promise((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function reportExcluded(excluded: readonly ExcludedSkill[], io: CliIO): void {
  for (const e of excluded) {
    io.stderr(term`  not served: ${e.dir}\n` + e.reasons.map((r) => term`    - ${r}\n`).join(''));
    if (e.reasons.some((r) => r.endsWith('[safety/dont-trust]')))
      io.stderr(`${trustInPlaceHint(e.dir)}\n`);
  }
}

/** The files of served skills that clients cannot read (a secret withheld, a link), with why. */
function reportWithheld(skills: readonly ServedSkill[], io: CliIO): void {
  for (const skill of skills) {
    if (skill.withheld.length === 0) continue;
    io.stderr(
      term`  served without some files: ${skill.uri}\n` +
        skill.withheld.map((w) => term`    - ${w.path}: ${w.reason}\n`).join(''),
    );
  }
}

function reportCatalog(catalog: LiveCatalog, io: CliIO): void {
  const snap = catalog.current;
  io.stderr(
    term`skillbench serve: serving ${count(snap.skills.length, 'skill')} from ${snap.roots.join(', ')}.\n`,
  );
  reportExcluded(snap.excluded, io);
  reportWithheld(snap.skills, io);
}

/**
 * Say on stderr what each rebuild after a change on disk did. Why: a skill edited into a mistake
 * (or added with one) while being served simply disappears from every client; the person serving
 * it is told which and why, as at start, and when re-reading the folders failed.
 */
function reportChanges(catalog: LiveCatalog, io: CliIO): void {
  catalog.on('changed', (c) => {
    io.stderr(
      term`skillbench serve: the folders changed; serving ${count(c.current.skills.length, 'skill')}.\n`,
    );
    for (const uri of c.addedSkills) io.stderr(term`  now served: ${uri}\n`);
    for (const uri of c.changedSkills) io.stderr(term`  updated: ${uri}\n`);
    for (const uri of c.removedSkills) io.stderr(term`  no longer served: ${uri}\n`);
    reportExcluded(c.newlyExcluded, io);
    const touched = new Set([...c.addedSkills, ...c.changedSkills]);
    reportWithheld(
      c.current.skills.filter((s) => touched.has(s.uri)),
      io,
    );
  });
  catalog.on('error', (e) => {
    io.stderr(
      term`skillbench serve: the folders changed but could not be read again (${e.message}); the skills as they were are still served.\n`,
    );
  });
}

/**
 * Longest the optimizing compiler stays off at start. Measured (bench/speed/README.md, "Start-up
 * without the optimizing compiler"): 400 ms keeps the gain at 1,000 skills and costs nothing at
 * 10,000, where a pause for the whole build cost ~400 ms.
 */
const START_PAUSE_MS = 400;

/** `skillbench serve` — the embedded skills server over stdio or loopback HTTP. */
export const serveCommand: CliCommand = {
  name: 'serve',
  usage: USAGE,
  async run(args, raw) {
    // Why for every message: on stdio only stderr is ours, and it shows folder names and reasons.
    const io = terminalIO(raw);
    const opts = parseArgs(args, io.cwd);
    const chosen = opts.mode === 'http' && !opts.noAuth ? await chooseToken(opts, io) : undefined;
    // Why refuse only when none is a folder: a server with nothing it could ever serve is a typo;
    // one of several missing is listed as not served, and the others are served.
    const rootProblems = await Promise.all(opts.roots.map((r) => folderProblem(r, 'library')));
    if (rootProblems.every((p) => p !== undefined)) {
      for (const p of rootProblems) io.stderr(term`skillbench serve: ${p?.message ?? ''}\n`);
      return 2;
    }
    // Why bound before the library is read: a busy port or a refused address is said at once,
    // not after every skill has been read and checked. Requests that come early wait.
    const listener =
      opts.mode === 'http'
        ? await listenHttp({
            host: opts.host,
            port: opts.port,
            allowNonLoopback: opts.allowRemote,
            insecureNoAuthLoopbackOnly: opts.noAuth,
          })
        : undefined;
    try {
      return await serveOn(listener, opts, chosen, io);
    } catch (error) {
      await listener?.close();
      throw error;
    }
  },
};

/** Read, check and serve the library: on stdio, or over HTTP on the socket already bound. */
async function serveOn(
  listener: HttpListener | undefined,
  opts: ServeArgs,
  chosen: TokenSource,
  io: CliIO,
): Promise<number> {
  // Why: the catalog's first build is start-up work; optimizing what runs once costs the second
  // core more than it saves (main/platform/optimizer-pause.ts). On again once it is built, or
  // after START_PAUSE_MS for a library so large that its per-skill code pays for optimizing.
  const resumeOptimizer = pauseOptimizer({ atMostMs: START_PAUSE_MS });
  // Why before anything else is loaded (once the arguments are known to be usable): a worker walks and reads the folders on
  // the other core while this thread loads what the first answer needs.
  const readAhead = new Map(
    opts.roots.map((root) => [
      root,
      readAheadLibrary(root, {
        batch: READ_AHEAD_BATCH,
        maxFileBytes: SKILL_LIMITS.bytes,
      }),
    ]),
  );
  const modules = Promise.all([
    import('../../library/listing-cache'),
    import('../../mcp-server/live-catalog'),
    import('../../mcp-server/skill-check'),
  ]);
  // Why the agents' folders: a skill folder linked there (by a skill manager) is served as its skill.
  const agentEnv = processAgentEnv(io.env);
  // Why kept findings: a restart mostly finds the same skills, and their checks are most of a
  // cold start (see CheckMemo); `source` runs (tests from source) may have other rules, so none.
  const [{ buildCache }, { LiveCatalog }, { mcpServeCheck, withSafetyGate }] = await modules;
  const kept = buildCache(defaultUserDataDir(io.env));
  // Why started now: the transport's modules load while the catalog is built.
  const host =
    opts.mode === 'stdio'
      ? import('../../mcp-server/stdio-host')
      : import('../../mcp-server/http-host');
  const catalog = new LiveCatalog(opts.roots, {
    watch: opts.watch,
    linkRoots: () => allAgentSkillDirs(agentEnv, []),
    // Why the gate: a "Don't trust" skill is not served unless accepted (docs/safety-review.md).
    check: withSafetyGate(mcpServeCheck, defaultUserDataDir(io.env)),
    keep: kept,
    readAhead,
  });
  try {
    await catalog.load();
  } finally {
    resumeOptimizer();
  }
  // Why soon and not at once: the first answers go first; a short-lived run still leaves its findings.
  if (kept) setTimeout(() => void kept.flush(), 250).unref();
  // Why: on stdio, stdout is the protocol; every human message goes to stderr (MCP stdio transport spec).
  reportCatalog(catalog, io);
  if (opts.watch) reportChanges(catalog, io);
  if (opts.mode === 'stdio') {
    const { serveStdio } = (await host) as typeof import('../../mcp-server/stdio-host');
    try {
      await serveStdio(catalog, {
        ...opts.features,
        onProblem: (message) => io.stderr(`skillbench serve: ${message}\n`),
      });
    } finally {
      catalog.close();
      await kept?.flush();
    }
    return 0;
  }
  const { startHttpHost } = (await host) as typeof import('../../mcp-server/http-host');
  const server = await startHttpHost(
    catalog,
    {
      ...opts.features,
      host: opts.host,
      port: opts.port,
      token: chosen?.token,
      allowNonLoopback: opts.allowRemote,
      insecureNoAuthLoopbackOnly: opts.noAuth,
    },
    listener,
  );
  // A token the user chose is not printed again: they have it, and logs should not.
  io.stderr(
    server.token === undefined
      ? 'skillbench serve: WARNING running without a token (test mode, loopback only).\n'
      : chosen
        ? term`skillbench serve: clients must send the token from ${chosen.from} as "Authorization: Bearer <token>".\n`
        : term`skillbench serve: token ${server.token}\n  (send it as "Authorization: Bearer <token>"; set ${TOKEN_ENV} or use --token-file to choose your own)\n`,
  );
  // The signal handlers come before the "listening" line, which is the last: a supervisor that
  // waits for it may stop us at once and must get a clean exit.
  const stopped = waitForSignal();
  io.stderr(term`skillbench serve: listening on ${server.url}\n`);
  await stopped;
  await server.close();
  catalog.close();
  await kept?.flush();
  return 0;
}
