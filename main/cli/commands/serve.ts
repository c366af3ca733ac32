import { resolve } from 'node:path';
import { LiveCatalog } from '../../mcp-server/live-catalog';
import { startHttpHost } from '../../mcp-server/http-host';
import { serveStdio } from '../../mcp-server/stdio-host';
import type { SkillsServerFeatures } from '../../mcp-server/mcp-server';
import { term } from '../../security/terminal-text';
import { terminalIO } from '../support/terminal-io';
import { UsageError } from '../support/types';
import type { CliCommand, CliIO } from '../support/types';

const USAGE = `Usage:
  skillbench serve --stdio [options] LIBRARY...
  skillbench serve --http [--port N] [--host 127.0.0.1] [--token T] [options] LIBRARY...

Serves the skills in the LIBRARY folders over MCP with the Skills extension (SEP-2640).
Only skills that pass the mcp-serve checks are served; the others are listed on stderr.

  --stdio              Speak MCP on stdin/stdout (the command to paste into Claude Desktop).
  --http               Serve Streamable HTTP on http://127.0.0.1:<port>/mcp.
  --port N             HTTP port (default: a free one).
  --host ADDR          Address to bind (default 127.0.0.1). Other than 127.0.0.1 or ::1 needs --allow-remote.
  --allow-remote       Allow binding a non-loopback address (reachable from the network).
  --token T            Bearer token clients must send (default: a new random one, printed on stderr).
  --no-legacy          Do not serve skill://index.json, the .tar.gz/.zip archives or the resource://skills/... mapping.
  --no-tools           Do not offer the list_skills / read_skill / read_skill_file tools.
  --no-prompts         Do not offer user-invocable skills as prompts.
  --no-watch           Do not watch the folders for changes.
  --insecure-no-auth-loopback-only
                       Test only: accept HTTP requests without a token (loopback only), for
                       tools such as the MCP conformance suite that cannot send one.`;

interface ServeArgs {
  mode: 'stdio' | 'http';
  roots: string[];
  port?: number;
  host?: string;
  token?: string;
  allowRemote: boolean;
  noAuth: boolean;
  watch: boolean;
  features: SkillsServerFeatures;
}

function parseArgs(args: string[], cwd: string): ServeArgs {
  let mode: 'stdio' | 'http' | undefined;
  const roots: string[] = [];
  const out: Omit<ServeArgs, 'mode' | 'roots'> = {
    allowRemote: false,
    noAuth: false,
    watch: true,
    features: {},
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (): string => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${a} needs a value.`);
      return v;
    };
    switch (a) {
      case '--stdio':
      case '--http':
        if (mode && mode !== a.slice(2)) throw new UsageError('Choose one of --stdio and --http.');
        mode = a.slice(2) as 'stdio' | 'http';
        break;
      case '--port': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 65535)
          throw new UsageError('--port must be a whole number from 0 to 65535.');
        out.port = n;
        break;
      }
      case '--host':
        out.host = value();
        break;
      case '--token':
        out.token = value();
        break;
      case '--allow-remote':
        out.allowRemote = true;
        break;
      case '--insecure-no-auth-loopback-only':
        out.noAuth = true;
        break;
      case '--no-legacy':
        out.features.legacy = false;
        out.features.personalMcp = false;
        break;
      case '--no-tools':
        out.features.tools = false;
        break;
      case '--no-prompts':
        out.features.prompts = false;
        break;
      case '--no-watch':
        out.watch = false;
        break;
      default:
        if (a.startsWith('--')) throw new UsageError(`Unknown option ${a}.`);
        roots.push(resolve(cwd, a));
    }
  }
  if (!mode) throw new UsageError('Say how to serve: --stdio or --http.');
  if (roots.length === 0) throw new UsageError('Name at least one library folder to serve.');
  if (
    mode === 'stdio' &&
    (out.port !== undefined ||
      out.host !== undefined ||
      out.token !== undefined ||
      out.noAuth ||
      out.allowRemote)
  ) {
    throw new UsageError('--port, --host, --token and --allow-remote only apply to --http.');
  }
  return { mode, roots, ...out };
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

function reportCatalog(catalog: LiveCatalog, io: CliIO): void {
  const snap = catalog.current;
  io.stderr(
    term`skillbench serve: serving ${snap.skills.length} skill(s) from ${snap.roots.join(', ')}.\n`,
  );
  for (const e of snap.excluded) {
    io.stderr(term`  not served: ${e.dir}\n` + e.reasons.map((r) => term`    - ${r}\n`).join(''));
  }
}

/** `skillbench serve` — the embedded skills server over stdio or loopback HTTP. */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Serve skill folders over MCP (stdio or loopback HTTP) with the Skills extension',
  usage: USAGE,
  async run(args, raw) {
    // Why for every message: on stdio only stderr is ours, and it shows folder names and reasons.
    const io = terminalIO(raw);
    const opts = parseArgs(args, io.cwd);
    const catalog = new LiveCatalog(opts.roots, { watch: opts.watch });
    await catalog.load();
    // Why: on stdio, stdout is the protocol; every human message goes to stderr (MCP stdio transport spec).
    reportCatalog(catalog, io);
    if (opts.mode === 'stdio') {
      try {
        await serveStdio(catalog, { ...opts.features });
      } finally {
        catalog.close();
      }
      return 0;
    }
    const host = await startHttpHost(catalog, {
      ...opts.features,
      host: opts.host,
      port: opts.port,
      token: opts.token,
      allowNonLoopback: opts.allowRemote,
      insecureNoAuthLoopbackOnly: opts.noAuth,
    });
    io.stderr(term`skillbench serve: listening on ${host.url}\n`);
    io.stderr(
      host.token
        ? `skillbench serve: token ${host.token}\n  (send it as "Authorization: Bearer <token>")\n`
        : 'skillbench serve: WARNING running without a token (test mode, loopback only).\n',
    );
    await waitForSignal();
    await host.close();
    catalog.close();
    return 0;
  },
};
