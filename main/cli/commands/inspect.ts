import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { CLIENT_CONFIG_MAX_CHARS, readClientConfig } from '../../../shared/inspector/client-config';
import { formatBytes } from '../../../shared/text/bytes';
import { fsErrorSentence } from '../../platform/fs-errors';
import { InspectorError } from '../../inspector/errors';
import { InspectorService } from '../../inspector/service';
import type { ReportCard } from '../../inspector/report-card';
import type {
  ConnectionInput,
  ConnectionStatus,
  DiscoveryResult,
  FileStatus,
  HeaderInput,
  InspectorLimits,
  SkillVerification,
} from '../../inspector/types';
import { inspectionVerdict } from '../../inspector/verdict';
import type { SafetyReviewResult } from '../../../shared/safety';
import { toScanJson, toScanText } from '../../safety/report-format';
import { defaultUserDataDir } from '../../platform/user-data';
import type { InspectionVerdict } from '../../inspector/verdict';
import { term, terminalText } from '../../security/terminal-text';
import { serverHost } from '../support/remote-skills';
import { terminalIO } from '../support/terminal-io';
import { readTokenFile } from '../support/token-file';
import { readCommandLine } from '../support/command-line';
import { UsageError } from '../support/types';
import { count, parseChoice, parseNumber } from '../support/words';
import { MAX_TIMEOUT_MS } from '../../inspector/limits';
import type { CliCommand, CliIO } from '../support/types';

const USAGE = `Usage:
  skillbench inspect [options] URL
  skillbench inspect [options] -- COMMAND [ARGS...]
  skillbench inspect [options] --config FILE [--server NAME]

Connects to a skill server (Streamable HTTP at URL, or a stdio server started with COMMAND),
discovers its skills (the Skills extension first, then the legacy shapes) and prints them.
Nothing is read ahead of need: without --verify or --report only the listing is fetched.

  --config FILE        Take the server from an MCP client's setup: Claude Desktop's
                       claude_desktop_config.json, a .mcp.json, .cursor/mcp.json, .vscode/mcp.json
                       (comments allowed), ~/.gemini/settings.json, ~/.codex/config.toml. A program
                       it starts runs in FILE's folder unless the entry says "cwd"; variables such
                       as \${TOKEN} are sent as written, and a token variable it names is not read
                       (give the token with --token-file).
  --server NAME        The server of --config FILE to inspect (needed when it lists several).

  --header "K: V"      Send an HTTP header (repeatable). "K=V" and "K:V" work too. An
                       Authorization header cannot be combined with --token or --token-file.
  --token-file PATH    Send "Authorization: Bearer <token>" with the token in this file (surrounding
                       whitespace ignored), such as the one skillbench serve --token-file reads.
  --token T            The same with the token itself, which every user of this computer can
                       then see in the process list; prefer --token-file.
  --sse                Use the legacy HTTP+SSE transport instead of Streamable HTTP.
  --verify             Read every file of every skill and check size, digest and frontmatter
                       against the listing (SKILL.md first; a skill that fails is not read further).
  --scan               Verify (as --verify) and run the safety review on every skill's verified
                       files: hidden text, instructions aimed at the agent, risky scripts,
                       supply chain, disguised files, secrets (docs/safety-review.md). A skill the
                       review calls "Don't trust" makes the exit code 1.
  --no-walk            With --verify: do not walk the folders (resources/directory/read) to look
                       for files the manifest does not list.
  --report md|json     Check the server against the Skills extension and print the report card.
                       With json, stdout holds one JSON document and nothing else.
  --template-uri URI   A SKILL.md URI to try for a resource template (repeatable).
  --timeout S          Seconds to wait for connecting and for each answer (default 30, at most 86400).
  --max-pages N        Pages followed in any listing (default 1000).

Exit codes:
  0  Everything asked for was done and nothing is wrong: the whole listing was read and, with
     --verify, every listed skill and file was read and matches the listing (with --report,
     the report card passes too).
  1  Something failed or could not be checked: a file whose digest, size or frontmatter differs
     from the listing; a file the listing leaves out; a listed address outside its skill
     (.., %2e%2e, a query, file:, another skill's file); a skill whose name is not the last part
     of its address; a listing cut short (endless or repeated page cursors, the connection
     closed); a file or skill over the limits; a read that timed out; output from the server
     that is not MCP; a skill found only through an older, unverifiable route.
  2  No connection could be made, or the command line is wrong.
Stopped with Ctrl-C or SIGTERM, it also stops the stdio server it started (exit 130 or 143).`;

interface InspectArgs {
  input: ConnectionInput;
  /** --config FILE [--server NAME]: the input is read from the file once the command line is usable. */
  config?: { path: string; server?: string };
  /** Where the bearer token is, read once the command line is known to be usable. */
  tokenFile?: string;
  verify: boolean;
  scan: boolean;
  walk: boolean;
  report?: 'md' | 'json';
  templateUris: string[];
  limits: Partial<InspectorLimits>;
}

function parseHeader(text: string): HeaderInput {
  const m = /^([^:=\s]+)\s*[:=]\s?(.*)$/.exec(text);
  if (!m) throw new UsageError(`--header needs "Name: value", not "${text}".`);
  return { name: m[1] ?? '', value: m[2] ?? '' };
}

/** The most pages `--max-pages` may allow for one listing (the default is 1,000). */
const MAX_PAGES_CEILING = 1_000_000;

function parseArgs(args: string[], cwd: string): InspectArgs {
  const { values, positionals, afterDashes } = readCommandLine('inspect', args, {
    header: { type: 'string', multiple: true },
    token: { type: 'string' },
    'token-file': { type: 'string' },
    sse: { type: 'boolean' },
    verify: { type: 'boolean' },
    scan: { type: 'boolean' },
    'no-walk': { type: 'boolean' },
    report: { type: 'string' },
    'template-uri': { type: 'string', multiple: true },
    timeout: { type: 'string' },
    'max-pages': { type: 'string' },
    config: { type: 'string' },
    server: { type: 'string' },
  });
  const headers = (values.header ?? []).map(parseHeader);
  const templateUris = values['template-uri'] ?? [];
  const limits: Partial<InspectorLimits> = {};
  const token = values.token;
  const tokenFile =
    values['token-file'] === undefined ? undefined : resolve(cwd, values['token-file']);
  const scan = values.scan === true;
  const verify = values.verify === true || scan;
  const walk = values['no-walk'] !== true;
  const sse = values.sse === true;
  const report =
    values.report === undefined
      ? undefined
      : parseChoice('--report', values.report, ['md', 'json'] as const);
  if (values.timeout !== undefined) {
    const ms = Math.round(
      parseNumber('--timeout', values.timeout, {
        min: 0.001,
        max: MAX_TIMEOUT_MS / 1000,
        whole: false,
        unit: 'seconds',
      }) * 1000,
    );
    limits.requestTimeoutMs = ms;
    limits.connectTimeoutMs = ms;
  }
  if (values['max-pages'] !== undefined)
    limits.maxPages = parseNumber('--max-pages', values['max-pages'], {
      min: 1,
      max: MAX_PAGES_CEILING,
      whole: true,
      unit: 'pages',
    });
  const targets = positionals.slice(0, positionals.length - (afterDashes?.length ?? 0));
  if (targets.length > 1)
    throw new UsageError(
      `Give one target; "${targets[1] ?? ''}" is a second one. For a stdio server, put the command after "--".`,
    );
  const url = targets[0];
  const command = afterDashes;
  const configPath = values.config === undefined ? undefined : resolve(cwd, values.config);
  if (values.server !== undefined && configPath === undefined)
    throw new UsageError('--server NAME picks a server of --config FILE; give the file too.');
  if (configPath !== undefined) {
    if (url !== undefined || command !== undefined)
      throw new UsageError(
        'Name the server one way: --config FILE, a URL or "-- COMMAND", not two of them.',
      );
    if (sse)
      throw new UsageError(
        '--sse does not go with --config: the setup says how to reach the server.',
      );
  }
  if (command !== undefined) {
    if (url !== undefined) throw new UsageError('Give either a URL or "-- COMMAND", not both.');
    if (command.length === 0) throw new UsageError('Put the server command after "--".');
    if (headers.length || token !== undefined || tokenFile !== undefined || sse)
      throw new UsageError('--header, --token, --token-file and --sse only apply to a URL.');
    const [cmd, ...rest] = command;
    return {
      input: { label: 'stdio', kind: 'stdio', command: cmd, args: rest, cwd },
      verify,
      scan,
      walk,
      report,
      templateUris,
      limits,
    };
  }
  if (url === undefined && configPath === undefined)
    throw new UsageError(
      'Name a server: a URL, "-- COMMAND ARGS" for a stdio server, or --config FILE for one of a client\'s setup.',
    );
  if (url !== undefined && !/^https?:\/\//i.test(url))
    throw new UsageError(
      `"${url}" is not an http:// or https:// URL. For a stdio server, put the command after "--".`,
    );
  if (token !== undefined && tokenFile !== undefined)
    throw new UsageError('Give the token one way: --token-file or --token, not both.');
  const given = token !== undefined ? '--token' : tokenFile !== undefined ? '--token-file' : '';
  if (given && headers.some((h) => h.name.toLowerCase() === 'authorization'))
    throw new UsageError(
      `--header "Authorization: ..." and ${given} would both set the Authorization header, and a request carries only one. Give just one of them.`,
    );
  return {
    tokenFile,
    ...(configPath !== undefined ? { config: { path: configPath, server: values.server } } : {}),
    input: {
      label: url === undefined ? 'server' : serverHost(url),
      kind: sse ? 'sse' : 'http',
      url,
      headers,
      bearerToken: token,
      oauth: false,
    },
    verify,
    scan,
    walk,
    report,
    templateUris,
    limits,
  };
}

/** The listing as people read it; each entry's problems too, unless verification will say them. */
function discoveryText(d: DiscoveryResult, showProblems: boolean): string {
  const lines: string[] = [];
  lines.push(
    `Discovery: ${d.route ? `route ${d.route}${d.route === 'extension' ? '' : ' (legacy, unverified)'}` : 'no skills found'} in ${d.durationMs} ms${d.partial ? ' — PARTIAL listing' : ''}`,
  );
  for (const s of d.steps) lines.push(term`  ${s.route}: ${s.outcome} — ${s.detail}`);
  for (const p of d.problems) lines.push(term`  problem: ${p}`);
  lines.push(`Skills (${d.skills.length}):`);
  for (const s of d.skills) {
    const same = s.sameNameAs.length
      ? term` (same name as ${s.sameNameAs.map((k) => k.split('\n')[1]).join(', ')})`
      : '';
    const files = Array.isArray(s.manifest)
      ? count(s.manifest.length, 'file')
      : s.manifest === 'dynamic'
        ? 'dynamic'
        : 'no manifest';
    lines.push(term`  ${s.name}  ${s.uri}  [${files}${s.label ? `, ${s.label}` : ''}]` + same);
    if (s.description)
      lines.push(
        term`      ${s.description.length > 160 ? `${s.description.slice(0, 157)}…` : s.description}`,
      );
    if (showProblems) for (const p of s.problems) lines.push(term`      problem: ${p}`);
  }
  for (const t of d.templates)
    lines.push(term`  template: ${t.uriTemplate}${t.description ? ` — ${t.description}` : ''}`);
  return `${lines.join('\n')}\n`;
}

/** How a file's status reads in a sentence, for one file and for several. */
const FILE_WORDS: Record<FileStatus, [string, string]> = {
  verified: ['matches its listing', 'match their listing'],
  mismatch: ['failed verification', 'failed verification'],
  unlisted: ["is not in the skill's listing", "are not in the skill's listing"],
  unverifiable: ['could not be checked', 'could not be checked'],
  pending: ['was not read', 'were not read'],
};

/** File paths named per group before "and N more" (the JSON output has every file). */
const MAX_PATHS = 5;

function verificationText(results: SkillVerification[]): string {
  const lines = ['Verification:'];
  for (const v of results) {
    const mark = v.verdict === 'verified' ? 'ok  ' : 'FAIL';
    const word = v.verdict === 'unverifiable' ? 'could not be verified' : v.verdict;
    lines.push(
      term`  ${mark} ${v.uri}: ${word} (${count(v.files.length, 'file')}, ${count(v.bytesRead, 'byte')} read)`,
    );
    for (const p of v.problems) lines.push(term`      problem: ${p}`);
    // Files with the same status and reasons are said once (a skill over the limits has hundreds).
    const groups = new Map<string, { status: FileStatus; reasons: string[]; paths: string[] }>();
    for (const f of v.files) {
      if (f.status === 'verified') continue;
      const key = `${f.status}\n${f.reasons.join(' ')}`;
      const g = groups.get(key) ?? { status: f.status, reasons: f.reasons, paths: [] };
      g.paths.push(f.path ?? f.uri);
      groups.set(key, g);
    }
    for (const g of groups.values()) {
      const [one, many] = FILE_WORDS[g.status];
      const shown = g.paths.slice(0, MAX_PATHS).join(', ');
      const more = g.paths.length > MAX_PATHS ? ` and ${g.paths.length - MAX_PATHS} more` : '';
      lines.push(
        g.paths.length === 1
          ? term`      ${shown} ${one}.`
          : term`      ${g.paths.length} files ${many}: ${shown}${more}.`,
      );
      if (g.reasons.length > 0) lines.push(term`        detail: ${g.reasons.join(' ')}`);
    }
  }
  const withVerdict = (k: SkillVerification['verdict']): number =>
    results.filter((r) => r.verdict === k).length;
  lines.push(
    `Summary: ${withVerdict('verified')} verified, ${withVerdict('failed')} failed, ${withVerdict('unverifiable')} could not be verified.`,
  );
  return `${lines.join('\n')}\n`;
}

/** The verdict as people read it: the answer, then each reason with its detail apart. */
function verdictText(verdict: InspectionVerdict): string {
  const lines = [`Result: ${verdict.headline}`];
  for (const r of verdict.reasons) {
    lines.push(term`  - ${r.plain}`);
    for (const d of r.detail) lines.push(term`      detail: ${d}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The connection `--config FILE [--server NAME]` names, with the command line's --header and
 * token added to an address's; a warning line for each value the client would fill in.
 */
async function configInput(opts: InspectArgs, io: CliIO): Promise<ConnectionInput> {
  const config = opts.config;
  if (!config) return opts.input;
  let text: string;
  try {
    const info = await stat(config.path);
    if (!info.isFile()) throw new UsageError(`${config.path} is not a file.`);
    if (info.size > CLIENT_CONFIG_MAX_CHARS)
      throw new UsageError(
        `${config.path} is ${formatBytes(info.size)}; a client's setup is far smaller, so it was not read.`,
      );
    text = await readFile(config.path, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`Could not read the setup: ${fsErrorSentence(e, config.path, 'read')}`);
  }
  const reading = readClientConfig(text);
  if (!reading.ok) throw new UsageError(term`${config.path}: ${reading.problem}`);
  for (const skipped of reading.skipped)
    io.stderr(term`skillbench inspect: ${config.path}: left out: ${skipped}\n`);
  const names = reading.servers.map((s) => s.name);
  const chosen =
    config.server === undefined
      ? reading.servers.length === 1
        ? reading.servers[0]
        : undefined
      : reading.servers.find((s) => s.name === config.server);
  if (!chosen)
    throw new UsageError(
      config.server === undefined
        ? term`${config.path} lists ${String(names.length)} servers; pick one with --server NAME: ${names.join(', ')}.`
        : term`${config.path} lists no server "${config.server}"; it lists ${names.join(', ')}.`,
    );
  for (const where of chosen.unfilled)
    io.stderr(
      term`skillbench inspect: warning: the ${where} of "${chosen.name}" holds a variable (\${…}) that its client fills in; it is sent as written.\n`,
    );
  const tokenGiven = opts.input.bearerToken !== undefined || opts.tokenFile !== undefined;
  if (chosen.tokenVariable !== undefined && !tokenGiven)
    io.stderr(
      term`skillbench inspect: "${chosen.name}" takes its bearer token from the variable ${chosen.tokenVariable} of its client, which Skillbench does not read; give the token with --token-file.\n`,
    );
  if (chosen.kind === 'stdio') {
    const given = opts.input.headers?.length
      ? '--header'
      : opts.input.bearerToken !== undefined
        ? '--token'
        : opts.tokenFile !== undefined
          ? '--token-file'
          : undefined;
    if (given)
      throw new UsageError(
        term`${given} only applies to a server reached at an address; "${chosen.name}" is a program the setup starts.`,
      );
    return {
      label: chosen.name,
      kind: 'stdio',
      command: chosen.command,
      args: chosen.args,
      env: chosen.env,
      cwd: resolve(dirname(config.path), chosen.cwd ?? '.'),
    };
  }
  const extra = opts.input.headers ?? [];
  const setsAuthorization = (list: readonly { name: string }[]) =>
    list.some((h) => h.name.toLowerCase() === 'authorization');
  if (
    setsAuthorization(chosen.headers) &&
    (setsAuthorization(extra) ||
      opts.input.bearerToken !== undefined ||
      opts.tokenFile !== undefined)
  )
    throw new UsageError(
      term`The setup of "${chosen.name}" already sends an Authorization header, and a request carries only one; leave out the command line's.`,
    );
  return {
    label: chosen.name,
    kind: chosen.kind,
    url: chosen.url,
    headers: [...chosen.headers, ...extra],
    bearerToken: opts.input.bearerToken,
    oauth: false,
  };
}

async function inspect(opts: InspectArgs, io: CliIO): Promise<number> {
  opts.input = await configInput(opts, io);
  if (opts.tokenFile !== undefined && opts.input.kind !== 'stdio') {
    const file = await readTokenFile(opts.tokenFile, 'inspect');
    if (file.warning) io.stderr(file.warning);
    if (file.token === '') throw new UsageError(`The token file ${opts.tokenFile} is empty.`);
    opts.input.bearerToken = file.token;
  }
  // Why a data folder that is never written: the CLI saves nothing (no connections, no provenance).
  // With --scan the user's own folder is read for "Trust anyway" decisions (never written).
  const service = new InspectorService({
    dataDir: opts.scan ? defaultUserDataDir(io.env) : join(tmpdir(), 'skillbench-inspect-cli'),
    limits: opts.limits,
    // The command line shows no protocol log: keep none.
    logCapacity: 0,
  });
  // Why: an inspection stopped by Ctrl-C or a supervisor's SIGTERM must not leave the stdio
  // server it started running; closing the service ends it (stdin closed, then SIGTERM, SIGKILL).
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    stoppedBy ??= signal;
    void service.close();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const code = await inspectWith(service, opts, io);
    if (!stoppedBy) return code;
    io.stderr(
      `skillbench inspect: stopped (${stoppedBy}); the server it started was stopped too.\n`,
    );
    return stoppedBy === 'SIGINT' ? 130 : 143;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await service.close();
  }
}

/** Connect, discover and check as `opts` asks, printing as it goes; the exit code. */
async function inspectWith(
  service: InspectorService,
  opts: InspectArgs,
  io: CliIO,
): Promise<number> {
  const json = opts.report === 'json';
  // Why: names, descriptions, URIs and reasons come from the server; only the JSON is exact.
  const text = terminalIO(io);
  const say = (line: string): void => (json ? text.stderr(line) : text.stdout(line));
  let status;
  // The last status the connection reported: with the reason, when connecting failed.
  let lastStatus: ConnectionStatus | undefined;
  const onStatus = (s: ConnectionStatus): void => {
    if (s.label === opts.input.label) lastStatus = s;
  };
  service.on('status', onStatus);
  try {
    status = await service.connect(opts.input);
  } catch (e) {
    // Exit 2: no connection could be made (or the input was unusable).
    const message = e instanceof Error ? e.message : String(e);
    text.stderr(term`skillbench inspect: ${message}\n`);
    // Why: --report json promises one JSON document on stdout, also when there is no connection.
    if (json) {
      const verdict: InspectionVerdict = {
        ok: false,
        headline: 'No connection could be made.',
        reasons: [
          { plain: message, detail: e instanceof InspectorError && e.detail ? [e.detail] : [] },
        ],
      };
      io.stdout(`${JSON.stringify({ connection: lastStatus, verdict }, null, 2)}\n`);
    }
    return 2;
  } finally {
    service.off('status', onStatus);
  }
  try {
    const ext = status.skillsExtension
      ? `yes${status.directoryRead ? ' (directoryRead)' : ''}`
      : 'no';
    say(
      term`Connected to ${status.target} (${status.serverInfo ? `${status.serverInfo.name} ${status.serverInfo.version}` : 'unknown server'}${status.protocolVersion ? `, protocol ${status.protocolVersion}` : ''}). Skills extension: ${ext}.\n`,
    );
    const discovery = await service.discover(opts.input.label, {
      templateUris: opts.templateUris,
    });
    say(discoveryText(discovery, !opts.verify));
    let verifications: SkillVerification[] | undefined;
    let scanned: SafetyReviewResult[] | undefined;
    if (opts.scan) {
      const results = new Array<SkillVerification>(discovery.skills.length);
      const reviews = new Array<SafetyReviewResult>(discovery.skills.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(8, discovery.skills.length) }, async () => {
          while (next < discovery.skills.length) {
            const i = next++;
            const got = await service.verifyAndReview(discovery.skills[i]?.key ?? '');
            results[i] = got.verification;
            reviews[i] = got.review;
          }
        }),
      );
      verifications = results;
      scanned = reviews;
      say(verificationText(verifications));
      say(`\nSafety review:\n${toScanText(scanned, io.cwd)}`);
    } else if (opts.verify) {
      // Eight skills at a time (each reads SKILL.md first, then at most four files at once): a bounded load.
      const results = new Array<SkillVerification>(discovery.skills.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(8, discovery.skills.length) }, async () => {
          while (next < discovery.skills.length) {
            const i = next++;
            results[i] = await service.verify(discovery.skills[i]?.key ?? '', {
              walk: opts.walk,
            });
          }
        }),
      );
      verifications = results;
      say(verificationText(verifications));
    }
    let report: ReportCard | undefined;
    if (opts.report) {
      report = await service.report(opts.input.label);
      if (!json)
        text.stdout(`\n${terminalText(service.reportMarkdown(report), { lineBreaks: 'keep' })}`);
    }
    const verdict = inspectionVerdict({
      discovery,
      verifications,
      unreadable: service.unreadableOutput(opts.input.label),
      report,
    });
    say(verdictText(verdict));
    if (json) {
      io.stdout(
        `${JSON.stringify({ connection: status, discovery, verification: verifications, report, verdict, ...(scanned ? { scan: toScanJson(scanned, io.cwd) } : {}) }, null, 2)}\n`,
      );
    }
    const unsafe = scanned?.some((r) => r.report.verdict === 'danger') ?? false;
    return verdict.ok && !unsafe ? 0 : 1;
  } catch (e) {
    // Exit 1, never 2: a connection was made, but the inspection could not be finished, so
    // nothing is verified.
    text.stderr(
      term`skillbench inspect: the inspection could not be finished, so nothing is verified. ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return 1;
  }
}

/** `skillbench inspect` — discover, verify and report on a remote skill server. */
export const inspectCommand: CliCommand = {
  name: 'inspect',
  usage: USAGE,
  async run(args, io) {
    return inspect(parseArgs(args, io.cwd), io);
  },
};
