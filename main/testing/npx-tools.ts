/**
 * Test support: run an independent tool from the npm registry, the way docs/skills-over-mcp.md
 * §7 describes — `npx -y -p node@22 -p <package>… -c '<command>'` — so it runs on Node 22 even
 * where this machine's Node is older. Node only; no test framework imports.
 */
import { spawn } from 'node:child_process';

/** How long one tool may run before it is stopped (downloads included). */
export const NPX_TIMEOUT_MS = 240_000;

/** The tool's exit code (-1 when it was stopped or could not start) and both streams, interleaved. */
export interface ToolRun {
  code: number;
  out: string;
}

/** Run `command` with Node 22 and `packages` fetched by npx; never rejects. */
export function runWithNode22(
  packages: string[],
  command: string,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<ToolRun> {
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      ['-y', '-p', 'node@22', ...packages.flatMap((p) => ['-p', p]), '-c', command],
      {
        cwd: options.cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, npm_config_yes: 'true', npm_config_update_notifier: 'false' },
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    // Why a bound: a download or a tool that hangs must end the test with its output, not stall it.
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? NPX_TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: -1, out: `${out}${e.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out });
    });
  });
}

/** Quote one argument for the `-c` command line (a POSIX shell runs it). */
export function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
