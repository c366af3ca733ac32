import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InspectorError } from '../../inspector/errors';
import { InspectorService } from '../../inspector/service';
import type { ReportCard } from '../../inspector/report-card';
import type {
  ConnectionInput,
  DiscoveryResult,
  HeaderInput,
  InspectorLimits,
  SkillVerification,
} from '../../inspector/types';
import { term, terminalText } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { UsageError } from '../support/types';
import type { CliCommand, CliIO } from '../support/types';

const USAGE = `Usage:
  skillbench inspect [options] URL
  skillbench inspect [options] -- COMMAND [ARGS...]

Connects to a skill server (Streamable HTTP at URL, or a stdio server started with COMMAND),
discovers its skills (the Skills extension first, then the legacy shapes) and prints them.
Nothing is read ahead of need: without --verify or --report only the listing is fetched.

  --header "K: V"      Send an HTTP header (repeatable). "K=V" and "K:V" work too.
  --token T            Send "Authorization: Bearer T".
  --sse                Use the legacy HTTP+SSE transport instead of Streamable HTTP.
  --verify             Read every file of every skill and check size, digest and frontmatter
                       against the listing (SKILL.md first; a skill that fails is not read further).
  --no-walk            With --verify: do not walk the folders (resources/directory/read) to look
                       for files the manifest does not list.
  --report md|json     Check the server against the Skills extension and print the report card.
                       With json, stdout holds one JSON document and nothing else.
  --template-uri URI   A SKILL.md URI to try for a resource template (repeatable).
  --timeout S          Seconds to wait for connecting and for each answer (default 30).
  --max-pages N        Pages followed in any listing (default 1000).

Exit codes: 0 clean, 1 a verification or conformance failure, 2 a usage or connection problem.`;

interface InspectArgs {
  input: ConnectionInput;
  verify: boolean;
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

function parseArgs(args: string[], cwd: string): InspectArgs {
  const headers: HeaderInput[] = [];
  const templateUris: string[] = [];
  const limits: Partial<InspectorLimits> = {};
  let token: string | undefined;
  let verify = false;
  let walk = true;
  let sse = false;
  let report: 'md' | 'json' | undefined;
  let url: string | undefined;
  let command: string[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    const value = (): string => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value.`);
      return v;
    };
    if (a === '--') {
      command = args.slice(i + 1);
      break;
    }
    switch (a) {
      case '--header':
        headers.push(parseHeader(value()));
        break;
      case '--token':
        token = value();
        break;
      case '--sse':
        sse = true;
        break;
      case '--verify':
        verify = true;
        break;
      case '--no-walk':
        walk = false;
        break;
      case '--report': {
        const r = value();
        if (r !== 'md' && r !== 'json') throw new UsageError('--report takes md or json.');
        report = r;
        break;
      }
      case '--template-uri':
        templateUris.push(value());
        break;
      case '--timeout': {
        const s = Number(value());
        if (!Number.isFinite(s) || s <= 0)
          throw new UsageError('--timeout takes a number of seconds above 0.');
        limits.requestTimeoutMs = Math.round(s * 1000);
        limits.connectTimeoutMs = Math.round(s * 1000);
        break;
      }
      case '--max-pages': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1)
          throw new UsageError('--max-pages takes a whole number of at least 1.');
        limits.maxPages = n;
        break;
      }
      default:
        if (a.startsWith('--')) throw new UsageError(`Unknown option ${a}.`);
        if (url !== undefined)
          throw new UsageError(
            `Give one target; "${a}" is a second one. For a stdio server, put the command after "--".`,
          );
        url = a;
    }
  }
  if (command !== undefined) {
    if (url !== undefined) throw new UsageError('Give either a URL or "-- COMMAND", not both.');
    if (command.length === 0) throw new UsageError('Put the server command after "--".');
    if (headers.length || token || sse)
      throw new UsageError('--header, --token and --sse only apply to a URL.');
    const [cmd, ...rest] = command;
    return {
      input: { label: 'stdio', kind: 'stdio', command: cmd, args: rest, cwd },
      verify,
      walk,
      report,
      templateUris,
      limits,
    };
  }
  if (url === undefined)
    throw new UsageError('Name a server: a URL, or "-- COMMAND ARGS" for a stdio server.');
  if (!/^https?:\/\//i.test(url))
    throw new UsageError(
      `"${url}" is not an http:// or https:// URL. For a stdio server, put the command after "--".`,
    );
  return {
    input: {
      label: new URL(url).host,
      kind: sse ? 'sse' : 'http',
      url,
      headers,
      bearerToken: token,
      oauth: false,
    },
    verify,
    walk,
    report,
    templateUris,
    limits,
  };
}

function discoveryText(d: DiscoveryResult): string {
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
      ? `${s.manifest.length} file(s)`
      : s.manifest === 'dynamic'
        ? 'dynamic'
        : 'no manifest';
    lines.push(term`  ${s.name}  ${s.uri}  [${files}${s.label ? `, ${s.label}` : ''}]` + same);
    if (s.description)
      lines.push(
        term`      ${s.description.length > 160 ? `${s.description.slice(0, 157)}…` : s.description}`,
      );
  }
  for (const t of d.templates)
    lines.push(term`  template: ${t.uriTemplate}${t.description ? ` — ${t.description}` : ''}`);
  return `${lines.join('\n')}\n`;
}

function verificationText(results: SkillVerification[]): string {
  const lines = ['Verification:'];
  for (const v of results) {
    const mark = v.verdict === 'verified' ? 'ok  ' : v.verdict === 'failed' ? 'FAIL' : 'n/a ';
    lines.push(
      term`  ${mark} ${v.uri}: ${v.verdict} (${v.files.length} file(s), ${v.bytesRead} bytes)`,
    );
    for (const f of v.files)
      if (f.status !== 'verified')
        lines.push(term`      ${f.status} ${f.path ?? f.uri}: ${f.reasons.join(' ')}`);
    for (const p of v.problems) lines.push(term`      problem: ${p}`);
  }
  const count = (k: SkillVerification['verdict']): number =>
    results.filter((r) => r.verdict === k).length;
  lines.push(
    `Summary: ${count('verified')} verified, ${count('failed')} failed, ${count('unverifiable')} unverifiable.`,
  );
  return `${lines.join('\n')}\n`;
}

async function inspect(opts: InspectArgs, io: CliIO): Promise<number> {
  // Why a data folder that is never written: the CLI saves nothing (no connections, no provenance).
  const service = new InspectorService({
    dataDir: join(tmpdir(), 'skillbench-inspect-cli'),
    limits: opts.limits,
  });
  const json = opts.report === 'json';
  // Why: names, descriptions, URIs and reasons come from the server; only the JSON is exact.
  const text = terminalIO(io);
  const say = (line: string): void => (json ? text.stderr(line) : text.stdout(line));
  try {
    let status;
    try {
      status = await service.connect(opts.input);
    } catch (e) {
      text.stderr(term`skillbench inspect: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
    const ext = status.skillsExtension
      ? `yes${status.directoryRead ? ' (directoryRead)' : ''}`
      : 'no';
    say(
      term`Connected to ${status.target} (${status.serverInfo ? `${status.serverInfo.name} ${status.serverInfo.version}` : 'unknown server'}${status.protocolVersion ? `, protocol ${status.protocolVersion}` : ''}). Skills extension: ${ext}.\n`,
    );
    const discovery = await service.discover(opts.input.label, { templateUris: opts.templateUris });
    say(discoveryText(discovery));
    let failed = false;
    const verifications: SkillVerification[] = [];
    if (opts.verify) {
      // Eight skills at a time (each reads SKILL.md first, then at most four files at once): a bounded load.
      const results: SkillVerification[] = new Array<SkillVerification>(discovery.skills.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(8, discovery.skills.length) }, async () => {
          while (next < discovery.skills.length) {
            const i = next++;
            results[i] = await service.verify(discovery.skills[i]?.key ?? '', { walk: opts.walk });
          }
        }),
      );
      verifications.push(...results);
      say(verificationText(verifications));
      failed ||= verifications.some((v) => v.verdict === 'failed');
    }
    let report: ReportCard | undefined;
    if (opts.report) {
      report = await service.report(opts.input.label);
      failed ||= report.verdict === 'fail';
      if (!json)
        text.stdout(`\n${terminalText(service.reportMarkdown(report), { lineBreaks: 'keep' })}`);
    }
    if (json) {
      io.stdout(
        `${JSON.stringify({ connection: status, discovery, verification: opts.verify ? verifications : undefined, report }, null, 2)}\n`,
      );
    }
    return failed ? 1 : 0;
  } catch (e) {
    if (e instanceof InspectorError) {
      text.stderr(term`skillbench inspect: ${e.message}\n`);
      return 2;
    }
    throw e;
  } finally {
    await service.close();
  }
}

/** `skillbench inspect` — discover, verify and report on a remote skill server. */
export const inspectCommand: CliCommand = {
  name: 'inspect',
  summary: 'Inspect a skill server: discover its skills, verify every file, print a report card',
  usage: USAGE,
  async run(args, io) {
    return inspect(parseArgs(args, io.cwd), io);
  },
};
