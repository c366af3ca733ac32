import { afterEach, describe, expect, it } from 'vitest';
import { terminalText } from '../security/terminal-text';
import { tempDir } from '../testing/skill-library';
import { InspectorService } from './service';

let service: InspectorService | undefined;
afterEach(async () => {
  await service?.close();
});

async function failedConnect(input: { command: string; args?: string[] }): Promise<Error> {
  const data = await tempDir('skillbench-insp-stdio-');
  service = new InspectorService({ dataDir: data.path });
  try {
    await service.connect({ label: 'broken', kind: 'stdio', ...input });
  } catch (error) {
    return error as Error;
  } finally {
    await data.remove();
  }
  throw new Error('connect did not fail');
}

describe('inspector: a stdio program that fails to start', () => {
  it('keeps what the program printed on stderr (Node\'s "Cannot find module") in the message', async () => {
    const error = await failedConnect({
      command: process.execPath,
      args: ['/nowhere/skillbench-missing-server.js'],
    });
    expect(error.message).toMatch(/closed the connection/);
    expect(error.message).toContain(
      "The program said: Error: Cannot find module '/nowhere/skillbench-missing-server.js'",
    );
  });

  it('hints at Arguments when a whole command line was put in Program', async () => {
    const error = await failedConnect({ command: 'node /nowhere/server.js --stdio' });
    expect(error.message).toContain('it was not found');
    expect(error.message).toContain(
      'Program holds "node /nowhere/server.js --stdio": put only the program there (node) and the rest in Arguments.',
    );
  });

  it('keeps only the end of a flood of stderr, and nothing in it can drive a terminal', async () => {
    // A hostile program: 2 MB of stderr with terminal escapes (a title change, a colour) before it dies.
    const script = [
      "process.stderr.write('\\u001b]0;pwned\\u0007' + 'x'.repeat(2_000_000) + '\\n');",
      "process.stderr.write('\\u001b[31mError: boom\\u001b[0m\\n');",
      // Why not process.exit(): it may cut off what is still queued for a pipe.
      'process.exitCode = 1;',
    ].join(' ');
    const error = await failedConnect({ command: process.execPath, args: ['-e', script] });
    expect(error.message).toContain('The program said: Error: boom');
    // Bounded: three lines of at most 300 characters in the message, the last 8 KiB in the details.
    expect(error.message.length).toBeLessThan(2_000);
    const detail = (error as Error & { detail?: string }).detail ?? '';
    expect(detail.length).toBeLessThan(12 * 1024);
    // Shown on a terminal, nothing of it is an escape sequence.
    const shown = terminalText(`${error.message}\n${detail}`);
    expect([...shown].filter((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)).toEqual(
      [],
    );
  });

  it('a program that writes one endless line on stdout is stopped at the message bound, not held', async () => {
    // The SDK's read buffer is given the inspector's message bound (about 23 MB by default):
    // past it the line is dropped and the connection fails, instead of memory filling.
    const flood =
      "const c = Buffer.alloc(1 << 20, 97); const go = () => { while (process.stdout.write(c)); process.stdout.once('drain', go); }; go();";
    const error = await failedConnect({ command: process.execPath, args: ['-e', flood] });
    expect(error.message).toMatch(/The server at .* (closed the connection|did not)/);
    expect(error.message).not.toMatch(/did not finish connecting within/);
  });
});
