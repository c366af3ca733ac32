import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliLaunch, type CliLaunchRuntime } from './cli-launch';

const runtime = (over: Partial<CliLaunchRuntime> & { files: string[] }): CliLaunchRuntime => ({
  execPath: '/usr/bin/node',
  electron: false,
  exists: (path) => over.files.includes(path),
  ...over,
});

describe('how a client starts this installation’s CLI', () => {
  it('is the running node with the CLI bundle beside this one, both absolute', () => {
    const dir = join('/opt', 'skillbench', 'out', 'main');
    expect(cliLaunch(dir, runtime({ files: [join(dir, 'cli.js')] }))).toEqual({
      command: '/usr/bin/node',
      args: [join(dir, 'cli.js')],
    });
  });

  it('in the desktop app is its own executable run as Node, with the CLI unpacked from app.asar', () => {
    const packed = join('/Applications', 'Skillbench.app', 'Contents', 'Resources', 'app.asar');
    const unpacked = join(
      '/Applications',
      'Skillbench.app',
      'Contents',
      'Resources',
      'app.asar.unpacked',
    );
    const cli = join(unpacked, 'out', 'main', 'cli.js');
    const exe = '/Applications/Skillbench.app/Contents/MacOS/Skillbench';
    expect(
      cliLaunch(
        join(packed, 'out', 'main'),
        runtime({ execPath: exe, electron: true, files: [cli] }),
      ),
    ).toEqual({ command: exe, args: [cli], env: { ELECTRON_RUN_AS_NODE: '1' } });
  });

  it('is nothing from an AppImage, whose files move to a new folder each time it starts', () => {
    const cli = '/tmp/.mount_SkillbXYZ/resources/app.asar.unpacked/out/main/cli.js';
    expect(
      cliLaunch(
        '/tmp/.mount_SkillbXYZ/resources/app.asar/out/main',
        runtime({
          execPath: '/tmp/.mount_SkillbXYZ/skillbench',
          electron: true,
          appImage: '/home/me/Skillbench.AppImage',
          files: [cli],
        }),
      ),
    ).toBeUndefined();
  });

  it('is nothing when there is no CLI bundle to run (never a command that fetches one from the registry)', () => {
    expect(cliLaunch('/opt/skillbench/out/main', runtime({ files: [] }))).toBeUndefined();
  });

  it('reads this process and the disk by default', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skillbench-launch-'));
    try {
      expect(cliLaunch(dir)).toBeUndefined();
      await writeFile(join(dir, 'cli.js'), '');
      expect(cliLaunch(dir)).toEqual({ command: process.execPath, args: [join(dir, 'cli.js')] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
