import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, type ApiHandlers } from '../../shared/ipc/contract';
import { LibraryService } from '../library/library-service';
import { createApiHandlers } from './handlers';

// A handler map without one channel must not compile. If the contract's mapped type ever
// stopped requiring every channel, this directive would be unused and `tsc -b` (part of
// `npm test`) would fail with "Unused '@ts-expect-error' directive".
const complete = createApiHandlers({ shell: 'browser', version: 'test', library: new LibraryService() });
const { 'skill.save': _removed, ...withoutSave } = complete;
// @ts-expect-error — 'skill.save' is missing, so this is not an ApiHandlers.
const incomplete: ApiHandlers = withoutSave;

describe('API handlers', () => {
  let dir: string;
  let handlers: ApiHandlers;
  const events: { path: string }[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skillbench-api-'));
    await mkdir(join(dir, 'lib', 'alpha'), { recursive: true });
    await mkdir(join(dir, 'lib', 'team', 'beta'), { recursive: true });
    await mkdir(join(dir, 'lib', 'node_modules', 'ignored'), { recursive: true });
    await writeFile(join(dir, 'lib', 'alpha', 'SKILL.md'), '---\nname: alpha\ndescription: First skill\n  continued\n---\nBody\n');
    await writeFile(join(dir, 'lib', 'team', 'beta', 'SKILL.md'), '---\nname: beta\ndescription: Second skill\n---\n');
    await writeFile(join(dir, 'lib', 'node_modules', 'ignored', 'SKILL.md'), '---\nname: ignored\n---\n');
    await writeFile(join(dir, 'outside.md'), 'outside');
    events.length = 0;
    handlers = createApiHandlers({ shell: 'browser', version: 'test', library: new LibraryService((_e, p) => events.push(p)) });
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('covers every channel of the contract', () => {
    expect(Object.keys(complete).sort()).toEqual([...CHANNEL_NAMES].sort());
    expect(Object.keys(incomplete)).not.toContain('skill.save');
  });

  it('lists every SKILL.md under a folder, skipping node_modules', async () => {
    const result = await handlers['library.open']({ path: join(dir, 'lib') });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.skills.map((s) => [s.relativeDir, s.name, s.description])).toEqual([
      ['alpha', 'alpha', 'First skill continued'],
      ['team/beta', 'beta', 'Second skill'],
    ]);
  });

  it('says plainly when the folder does not exist or is a file', async () => {
    const missing = await handlers['library.open']({ path: join(dir, 'nope') });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not-found' } });
    if (!missing.ok) expect(missing.error.message).toContain('Nothing exists at');
    const file = await handlers['library.open']({ path: join(dir, 'outside.md') });
    expect(file).toMatchObject({ ok: false, error: { code: 'not-a-folder' } });
  });

  it('reads, saves atomically, and refuses to overwrite a file changed on disk meanwhile', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    const path = join(dir, 'lib', 'alpha', 'SKILL.md');
    const read = await handlers['skill.read']({ path });
    if (!read.ok) throw new Error(read.error.message);
    const saved = await handlers['skill.save']({ path, text: 'edited\n', expectedVersion: read.value.version });
    expect(saved.ok).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('edited\n');
    expect(events).toEqual([{ path, version: saved.ok ? saved.value.version : null }]);

    await writeFile(path, 'changed by another program\n');
    const stale = await handlers['skill.save']({ path, text: 'mine\n', expectedVersion: saved.ok ? saved.value.version : '' });
    expect(stale).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await readFile(path, 'utf8')).toBe('changed by another program\n');
  });

  it('never reads or writes outside an opened library, even through a symlink', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    await symlink(join(dir, 'outside.md'), join(dir, 'lib', 'alpha', 'link.md'));
    for (const path of [join(dir, 'outside.md'), join(dir, 'lib', 'alpha', 'link.md'), join(dir, 'lib', '..', 'outside.md'), 'relative/SKILL.md']) {
      expect(await handlers['skill.read']({ path }), path).toMatchObject({ ok: false, error: { code: 'outside-library' } });
      expect(await handlers['skill.save']({ path, text: 'x' }), path).toMatchObject({ ok: false, error: { code: 'outside-library' } });
    }
    expect(await readFile(join(dir, 'outside.md'), 'utf8')).toBe('outside');
  });

  it('browses folders for the browser shell picker', async () => {
    const result = await handlers['fs.browse']({ path: join(dir, 'lib') });
    expect(result).toMatchObject({ ok: true, value: { path: join(dir, 'lib'), parent: dir, isSkill: false } });
    if (result.ok) expect(result.value.folders.map((f) => f.name)).toEqual(['alpha', 'team']);
    const skill = await handlers['fs.browse']({ path: join(dir, 'lib', 'alpha') });
    expect(skill).toMatchObject({ ok: true, value: { isSkill: true } });
  });

  it('has no folder dialog in the browser shell and says what to do instead', async () => {
    const result = await handlers['dialog.pickFolder']({});
    expect(result).toMatchObject({ ok: false, error: { code: 'unsupported' } });
  });
});
