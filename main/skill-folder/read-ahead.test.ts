import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, type CatalogSnapshot } from '../mcp-server/catalog';
import { WorkerPool } from '../platform/worker-pool';
import { buildWorkerBundle } from '../testing/worker-bundle';
import {
  readAheadFile,
  readAheadLibrary,
  ReadAheadQueue,
  type ReadAhead,
  type ReadAheadPart,
} from './read-ahead';

// A real worker thread running the app's worker bundle (built from source here) reads ahead;
// every answer is compared with the same work done on the calling thread alone.
let tmp: string;
let pool: WorkerPool;
const MAX = 16 * 1024 * 1024;

async function put(path: string, data: string | Buffer): Promise<void> {
  await mkdir(dirname(join(tmp, path)), { recursive: true });
  await writeFile(join(tmp, path), data);
}

const skill = (name: string, body = ''): string =>
  `---\nname: ${name}\ndescription: Does ${name} things. Use when the user asks for ${name}.\n---\n# ${name}\n${body}`;

/** A library with what a skill's file set leaves out, nested skills, links and binary files. */
async function makeLibrary(folder: string, count: number): Promise<string> {
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(3, '0')}`;
    const at = `${folder}/${name}`;
    await put(`${at}/SKILL.md`, skill(name, 'Read [the guide](references/guide.md).\n'));
    await put(`${at}/references/guide.md`, `# Guide ${i}\n`);
    await put(`${at}/scripts/run.py`, 'print("hi")\n');
    await put(`${at}/assets/data.bin`, Buffer.from([0xff, 0xfe, 0x00, i % 256]));
    if (i % 3 === 0) {
      await put(`${at}/.env`, 'API_KEY=sk-live-abcdefghijklmnopqrstuvwxyz0123456789\n');
      await put(`${at}/.git/config`, '[core]\n');
      await put(`${at}/node_modules/pkg/index.js`, 'module.exports = 1;\n');
      await put(`${at}/Thumbs.db`, 'x');
      await symlink('references/guide.md', join(tmp, at, 'guide-link.md'));
    }
    if (i % 4 === 1) await put(`${at}/inner/SKILL.md`, skill('inner'));
  }
  // Root folder names that sort between another's nested paths ("a" < "a-b" < "a/x").
  await put(`${folder}/a/SKILL.md`, skill('a'));
  await put(`${folder}/a/x/SKILL.md`, skill('x'));
  await put(`${folder}/a-b/SKILL.md`, skill('a-b'));
  await put(`${folder}/loose.md`, 'not a skill\n');
  return join(tmp, folder);
}

const sha256Of = (bytes: Uint8Array): string =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function drain(queue: ReadAheadQueue): Promise<ReadAheadPart[]> {
  const parts: ReadAheadPart[] = [];
  for await (const part of queue.parts()) parts.push(part);
  return parts;
}

/** What a snapshot publishes, without build times. */
function published(snap: CatalogSnapshot): unknown {
  return {
    skills: snap.skills.map((s) => ({
      uri: s.uri,
      name: s.name,
      files: s.files.map((f) => [f.relPath, f.size, f.digest, f.text]),
      withheld: s.withheld,
      warnings: s.warnings,
      entry: s.entry,
    })),
    excluded: snap.excluded,
  };
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-read-ahead-'));
  pool = new WorkerPool(await buildWorkerBundle(tmp), 1);
}, 60_000);

afterAll(async () => {
  await pool.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('reading a library ahead on a worker', () => {
  it('reads exactly the files the skill file set keeps, byte for byte, and nothing it leaves out', async () => {
    const lib = await makeLibrary('lib1', 7);
    const ahead = readAheadLibrary(lib, {
      batch: 2,
      maxFileBytes: MAX,
      pool,
      callerTakes: false,
    });
    expect(ahead.queue).toBeDefined();
    const parts = await drain(ahead.queue as ReadAheadQueue);
    const read = new Map<string, Buffer>();
    for (const p of parts)
      for (const [path, file] of p.ahead?.files ?? []) {
        read.set(path, file.bytes);
        // The digest handed over is the sha256 of exactly the bytes handed over.
        expect(file.digest).toBe(sha256Of(file.bytes));
      }
    // The calling thread took no part: the worker read them all.
    expect(parts.every((p) => p.ahead !== undefined)).toBe(true);
    for (const [path, bytes] of read) {
      expect(path).not.toMatch(/(^|\/)(\.env|\.git|node_modules|Thumbs\.db|guide-link\.md)/);
      expect(bytes.equals(await readFile(join(lib, path)))).toBe(true);
    }
    expect([...read.keys()].some((p) => p.endsWith('references/guide.md'))).toBe(true);
    expect([...read.keys()].some((p) => p.endsWith('assets/data.bin'))).toBe(true);
  });

  it('hands every part out exactly once, whoever takes it, and all of them unread without a worker', async () => {
    const dirs = Array.from({ length: 50 }, (_, i) => `d${i}`);
    for (const candidate of [pool, null]) {
      const parts = await drain(
        new ReadAheadQueue(join(tmp, 'none'), dirs, {
          batch: 3,
          maxFileBytes: MAX,
          pool: candidate,
        }),
      );
      expect(parts.flatMap((p) => p.dirs).sort()).toEqual([...dirs].sort());
      if (candidate === null) expect(parts.every((p) => p.ahead === undefined)).toBe(true);
    }
    // A worker that cannot start leaves every part to the calling thread.
    const broken = new WorkerPool(join(tmp, 'no-such-worker.mjs'), 1);
    const parts = await drain(
      new ReadAheadQueue(tmp, dirs, { batch: 4, maxFileBytes: MAX, pool: broken }),
    );
    expect(parts.flatMap((p) => p.dirs).sort()).toEqual([...dirs].sort());
    expect(parts.every((p) => p.ahead === undefined)).toBe(true);
  });

  it('gives the embedded server the same catalog as walking and reading on its own thread', async () => {
    const lib = await makeLibrary('lib2', 12);
    const alone = await buildSnapshot([lib]);
    const ahead = await buildSnapshot([lib], {
      readAhead: new Map([
        [
          lib,
          readAheadLibrary(lib, {
            batch: 2,
            maxFileBytes: MAX,
            pool,
            callerTakes: false,
          }),
        ],
      ]),
    });
    expect(published(ahead)).toEqual(published(alone));
    // And with both threads taking parts, whichever way they split.
    const shared = await buildSnapshot([lib], {
      readAhead: new Map([[lib, readAheadLibrary(lib, { batch: 2, maxFileBytes: MAX, pool })]]),
    });
    expect(published(shared)).toEqual(published(alone));
    // The comparison covers what it is about: withheld secrets, nested skills, binary files.
    expect(alone.skills.some((s) => s.withheld.some((w) => w.path === '.env'))).toBe(true);
    expect(alone.skills.map((s) => s.skillPath)).toContain('skill-001/inner');
    expect(alone.skills.map((s) => s.skillPath)).toContain('a/x');
    // Every listed digest is the sha256 of the bytes on disk.
    for (const s of ahead.skills)
      for (const f of s.files)
        expect(f.digest).toBe(sha256Of(await readFile(join(s.dir, f.relPath))));
    // A root that cannot be listed fails the same way as without the read-ahead.
    const missing = join(tmp, 'missing-lib');
    const gone = await buildSnapshot([missing], {
      readAhead: new Map([
        [missing, readAheadLibrary(missing, { batch: 2, maxFileBytes: MAX, pool })],
      ]),
    });
    expect(gone.excluded).toEqual((await buildSnapshot([missing])).excluded);
    expect(gone.excluded[0]?.reasons).toEqual([
      `Nothing exists at ${missing}. Check the spelling.`,
    ]);
  });

  it('uses a file read ahead only when it is the file the walk listed', () => {
    const bytes = Buffer.from('hello');
    const ahead: ReadAhead = {
      children: new Map(),
      files: new Map([
        [
          's/SKILL.md',
          {
            bytes,
            size: 5,
            mtimeMs: 10,
            ctimeMs: 10,
            ino: 1,
            executable: false,
            digest: sha256Of(bytes),
          },
        ],
      ]),
    };
    expect(readAheadFile(ahead, 's/SKILL.md', { size: 5, mtimeMs: 10 })?.bytes).toBe(bytes);
    expect(readAheadFile(ahead, 's/SKILL.md', { size: 6, mtimeMs: 10 })).toBeUndefined();
    expect(readAheadFile(ahead, 's/SKILL.md', { size: 5, mtimeMs: 11 })).toBeUndefined();
    expect(readAheadFile(ahead, 's/other.md', { size: 5, mtimeMs: 10 })).toBeUndefined();
    expect(readAheadFile(undefined, 's/SKILL.md', { size: 5, mtimeMs: 10 })).toBeUndefined();
  });
});
