import { afterEach, describe, expect, it } from 'vitest';
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
});
