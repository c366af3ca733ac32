/**
 * "Add to Claude Desktop" / "Add to Cursor" write into the user's own config file, in temp
 * homes: everything else in the file is kept, nothing is replaced without asking, the version
 * replaced is kept in the trash, and a file that is not plain JSON is left as it is.
 */
import { chmod, lstat, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/skill-library';
import { addServerToClientFile, mcpClientFiles, type McpClientFile } from './client-config-files';

let dir: Awaited<ReturnType<typeof tempDir>>;
let trashDir: string;
let cursor: McpClientFile;
const entry = {
  command: '/usr/bin/node',
  args: ['/opt/skillbench/out/main/cli.js', 'serve', '--stdio', '/home/me/skills'],
};

beforeEach(async () => {
  dir = await tempDir('skillbench-client-files-');
  trashDir = join(dir.path, 'trash');
  const found = (await mcpClientFiles({ home: join(dir.path, 'home'), vars: {} }, 'linux'))[1];
  if (!found) throw new Error('no Cursor file');
  cursor = found;
});
afterEach(async () => {
  await dir.remove();
});

const readJson = async (path: string): Promise<unknown> =>
  JSON.parse(await readFile(path, 'utf8')) as unknown;

describe("adding the server to a client's own config file", () => {
  it('knows where each client keeps its servers, per system', async () => {
    const env = {
      home: '/home/me',
      vars: { APPDATA: '/home/me/AppData/Roaming', LOCALAPPDATA: '/home/me/AppData/Local' },
    };
    const none = () => Promise.reject(new Error('ENOENT'));
    expect((await mcpClientFiles(env, 'darwin', none)).map((f) => f.path)).toEqual([
      join('/home/me', 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'),
      join('/home/me', '.cursor', 'mcp.json'),
    ]);
    expect((await mcpClientFiles(env, 'win32', none))[0]?.path).toBe(
      join('/home/me/AppData/Roaming', 'Claude', 'claude_desktop_config.json'),
    );
    // Installed as a Windows package, it reads the file inside the package's folder only.
    const packages = async (d: string) =>
      d === join('/home/me/AppData/Local', 'Packages')
        ? ['Microsoft.WindowsTerminal_8wekyb3d8bbwe', 'Claude_pzs8sxrjxfjjc']
        : [];
    expect((await mcpClientFiles(env, 'win32', packages))[0]?.path).toBe(
      join(
        '/home/me/AppData/Local/Packages/Claude_pzs8sxrjxfjjc',
        'LocalCache',
        'Roaming',
        'Claude',
        'claude_desktop_config.json',
      ),
    );
    expect((await mcpClientFiles({ home: '/home/me', vars: {} }, 'linux', none))[0]?.path).toBe(
      join('/home/me', '.config', 'Claude', 'claude_desktop_config.json'),
    );
  });

  it('makes the file when there is none, readable by this user only', async () => {
    const outcome = await addServerToClientFile(cursor, 'skillbench', entry, { trashDir });
    expect(outcome).toEqual({ status: 'added', client: 'Cursor', path: cursor.path });
    expect(await readJson(cursor.path)).toEqual({ mcpServers: { skillbench: entry } });
    expect((await stat(cursor.path)).mode & 0o777).toBe(0o600);
  });

  it('keeps every other key and server, and the version it replaced in the trash', async () => {
    await mkdir(join(cursor.path, '..'), { recursive: true });
    const before = {
      mcpServers: { github: { url: 'https://api.example.com/mcp', headers: { A: 'b' } } },
      other: [1, 2],
    };
    await writeFile(cursor.path, JSON.stringify(before));
    await chmod(cursor.path, 0o640);
    const outcome = await addServerToClientFile(cursor, 'skillbench', entry, { trashDir });
    expect(outcome).toMatchObject({ status: 'added', path: cursor.path });
    expect(await readJson(cursor.path)).toEqual({
      mcpServers: { ...before.mcpServers, skillbench: entry },
      other: [1, 2],
    });
    expect((await stat(cursor.path)).mode & 0o777).toBe(0o640);
    const kept = outcome.status === 'added' ? outcome.previous : undefined;
    expect(kept).toBeDefined();
    expect(await readJson(kept ?? '')).toEqual(before);
    // Adding the same again changes nothing.
    expect(await addServerToClientFile(cursor, 'skillbench', entry, { trashDir })).toEqual({
      status: 'already',
      client: 'Cursor',
      path: cursor.path,
    });
    expect(await readdir(trashDir)).toHaveLength(1);
  });

  it('asks before replacing another server of the same name, and replaces it when told', async () => {
    await mkdir(join(cursor.path, '..'), { recursive: true });
    const theirs = { mcpServers: { skillbench: { command: 'npx', args: ['skillbench'] } } };
    await writeFile(cursor.path, JSON.stringify(theirs));
    expect(await addServerToClientFile(cursor, 'skillbench', entry, { trashDir })).toEqual({
      status: 'conflict',
      client: 'Cursor',
      path: cursor.path,
      name: 'skillbench',
    });
    expect(await readJson(cursor.path)).toEqual(theirs);
    const replaced = await addServerToClientFile(cursor, 'skillbench', entry, {
      trashDir,
      replace: true,
    });
    expect(replaced).toMatchObject({ status: 'replaced' });
    expect(await readJson(cursor.path)).toEqual({ mcpServers: { skillbench: entry } });
  });

  it('leaves a file that is not plain JSON, or not the expected shape, as it is, and says why', async () => {
    await mkdir(join(cursor.path, '..'), { recursive: true });
    for (const [text, said] of [
      [
        '{ // a comment\n "mcpServers": {} }',
        /is not plain JSON .* paste it into the file yourself/,
      ],
      ['[1, 2]', /does not hold a JSON object/],
      ['{ "mcpServers": [] }', /"mcpServers" is not an object/],
    ] as const) {
      await writeFile(cursor.path, text);
      const outcome = await addServerToClientFile(cursor, 'skillbench', entry, { trashDir });
      expect(outcome).toMatchObject({ status: 'refused', message: expect.stringMatching(said) });
      expect(await readFile(cursor.path, 'utf8')).toBe(text);
    }
    await expect(readdir(trashDir)).rejects.toThrow();
  });

  it('writes through a link to the real file (a config kept in a dotfiles folder stays there)', async () => {
    const real = join(dir.path, 'dotfiles', 'cursor-mcp.json');
    await mkdir(join(real, '..'), { recursive: true });
    await mkdir(join(cursor.path, '..'), { recursive: true });
    await writeFile(real, '{}');
    await symlink(real, cursor.path);
    const outcome = await addServerToClientFile(cursor, 'skillbench', entry, { trashDir });
    expect(outcome).toMatchObject({ status: 'added', path: real });
    expect(await readJson(real)).toEqual({ mcpServers: { skillbench: entry } });
    expect((await lstat(cursor.path)).isSymbolicLink()).toBe(true);
  });

  it('refuses a folder where the file should be, writing nothing', async () => {
    await mkdir(cursor.path, { recursive: true });
    expect(await addServerToClientFile(cursor, 'skillbench', entry, { trashDir })).toMatchObject({
      status: 'refused',
      message: `${cursor.path} is not a file, so Cursor's settings were not changed.`,
    });
  });
});
