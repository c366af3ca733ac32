import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from './commands';
import { runCli } from './run';
import type { CliIO } from './support/types';

function capture(): CliIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    cwd: process.cwd(),
    env: {},
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('runCli help', () => {
  it('lists the commands without loading any of them (help and a mistyped command stay quick)', async () => {
    const loads = COMMANDS.map((c) => vi.spyOn(c, 'load'));
    const io = capture();
    expect(await runCli(['--help'], io)).toBe(0);
    expect(await runCli(['vaildate'], io)).toBe(2);
    for (const load of loads) expect(load).not.toHaveBeenCalled();
    for (const c of COMMANDS) expect(io.out.join('')).toContain(`${c.name}  `);
    expect(io.err.join('')).toContain('Did you mean `skillbench validate`?');
  });

  it('loads only the command that runs', async () => {
    const loads = new Map(COMMANDS.map((c) => [c.name, vi.spyOn(c, 'load')]));
    expect(await runCli(['new', '--help'], capture())).toBe(0);
    for (const [name, load] of loads)
      expect(load.mock.calls.length, name).toBe(name === 'new' ? 1 : 0);
  });

  it("skillbench help <command> prints that command's own help, and a typo there is answered as anywhere", async () => {
    const io = capture();
    expect(await runCli(['help', 'new'], io)).toBe(0);
    const own = capture();
    expect(await runCli(['new', '--help'], own)).toBe(0);
    expect(io.out.join('')).toBe(own.out.join(''));
    const typo = capture();
    expect(await runCli(['help', 'instal'], typo)).toBe(2);
    expect(typo.err.join('')).toContain('Did you mean `skillbench install`?');
  });

  it('an option without its value is named by its long name, and a value starting with "-" is shown how to write', async () => {
    const missing = capture();
    expect(await runCli(['scan', '.', '-f'], missing)).toBe(2);
    expect(missing.err.join('')).toContain('skillbench scan: --format needs a value after it.');
    const dashed = capture();
    expect(await runCli(['scan', '.', '--format', '-x'], dashed)).toBe(2);
    expect(dashed.err.join('')).toContain(
      'skillbench scan: --format needs a value after it; a value that starts with "-" is written --format=-x.',
    );
    const short = capture();
    expect(await runCli(['scan', '.', '-f', '-x'], short)).toBe(2);
    expect(short.err.join('')).toContain('skillbench scan: -f needs a value after it.');
  });
});
