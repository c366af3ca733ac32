import { mkdtemp, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, type ApiHandlers } from '../../shared/ipc/contract';
import { createApiHandlers } from './handlers';
import { createServices } from './services';

// A handler map without one channel must not compile. If the contract's mapped type ever
// stopped requiring every channel, this directive would be unused and `tsc -b` (part of
// `npm test`) would fail with "Unused '@ts-expect-error' directive".
const complete = createApiHandlers({
  shell: 'browser',
  version: 'test',
  ...createServices(join(tmpdir(), 'skillbench-unused'), () => undefined),
});
const { 'skill.save': _removed, ...withoutSave } = complete;
// @ts-expect-error — 'skill.save' is missing, so this is not an ApiHandlers.
const incomplete: ApiHandlers = withoutSave;

describe('API handlers', () => {
  let dir: string;
  let handlers: ApiHandlers;
  const events: { path: string; version: string | null }[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skillbench-api-'));
    await mkdir(join(dir, 'lib', 'alpha'), { recursive: true });
    await mkdir(join(dir, 'lib', 'team', 'beta'), { recursive: true });
    await mkdir(join(dir, 'lib', 'node_modules', 'ignored'), { recursive: true });
    await writeFile(
      join(dir, 'lib', 'alpha', 'SKILL.md'),
      '---\nname: alpha\ndescription: First skill\n  continued\n---\nBody\n',
    );
    await writeFile(
      join(dir, 'lib', 'team', 'beta', 'SKILL.md'),
      '---\nname: beta\ndescription: Second skill\n---\n',
    );
    await writeFile(
      join(dir, 'lib', 'node_modules', 'ignored', 'SKILL.md'),
      '---\nname: ignored\n---\n',
    );
    await writeFile(join(dir, 'outside.md'), 'outside');
    events.length = 0;
    handlers = createApiHandlers({
      shell: 'browser',
      version: 'test',
      ...createServices(join(dir, 'userdata'), (event, payload) => {
        if (event === 'skill.changed')
          events.push(payload as { path: string; version: string | null });
      }),
    });
  });

  afterEach(async () => {
    await handlers['server.stop']({});
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
    expect(result.value.skills[0]?.counts).toEqual({ error: 0, warning: 0, info: 0 });
  });

  it('remembers roots and extra targets in the user-data folder, and forgets a closed root', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    await handlers['settings.update']({ extraProfiles: ['claude-upload', 'claude-code'] });
    const again = createApiHandlers({
      shell: 'browser',
      version: 'test',
      ...createServices(join(dir, 'userdata'), () => undefined),
    });
    expect(await again['settings.get']({})).toMatchObject({
      ok: true,
      value: { roots: [join(dir, 'lib')], extraProfiles: ['claude-upload', 'claude-code'] },
    });
    const listing = await again['library.list']({});
    expect(listing.ok && listing.value.skills.map((s) => s.name)).toEqual(['alpha', 'beta']);
    expect(await again['library.close']({ root: join(dir, 'lib') })).toMatchObject({
      ok: true,
      value: { roots: [] },
    });
    expect(await again['library.list']({})).toMatchObject({ ok: true, value: { skills: [] } });
  });

  it('counts problems per skill for its own format and reports library findings', async () => {
    await mkdir(join(dir, 'lib', 'Bad_Name'), { recursive: true });
    await writeFile(
      join(dir, 'lib', 'Bad_Name', 'SKILL.md'),
      '---\nname: Bad_Name\ndescription: Uses: colons\n---\n',
    );
    await mkdir(join(dir, 'lib', 'other', 'alpha'), { recursive: true });
    await writeFile(
      join(dir, 'lib', 'other', 'alpha', 'SKILL.md'),
      '---\nname: alpha\ndescription: A duplicate name\n---\n',
    );
    await handlers['library.open']({ path: join(dir, 'lib') });
    const listing = await handlers['library.list']({});
    if (!listing.ok) throw new Error(listing.error.message);
    const bad = listing.value.skills.find((s) => s.relativeDir === 'Bad_Name');
    expect(bad?.counts.error).toBeGreaterThan(0);
    expect(listing.value.skills.find((s) => s.relativeDir === 'team/beta')?.counts.error).toBe(0);
    expect(listing.value.budget.total).toBeGreaterThan(0);
    const validated = await handlers['skill.validate']({
      path: join(dir, 'lib', 'Bad_Name', 'SKILL.md'),
    });
    expect(
      validated.ok && validated.value.diagnostics.some((d) => d.ruleId.startsWith('name/')),
    ).toBe(true);
  });

  it('lists again from the last result only while nothing under the root changed', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    const first = await handlers['library.list']({});
    const again = await handlers['library.list']({});
    expect(again).toEqual(first);
    // An edit made outside Skillbench (new size and time) is seen on the next listing.
    await writeFile(
      join(dir, 'lib', 'alpha', 'SKILL.md'),
      '---\nname: Alpha_Broken\ndescription: Now broken\n---\n',
    );
    const changed = await handlers['library.list']({});
    if (!changed.ok) throw new Error(changed.error.message);
    expect(changed.value.skills.find((s) => s.relativeDir === 'alpha')).toMatchObject({
      name: 'Alpha_Broken',
      description: 'Now broken',
    });
    expect(
      changed.value.skills.find((s) => s.relativeDir === 'alpha')?.counts.error,
    ).toBeGreaterThan(0);
    // So is a new skill folder, and a change of the extra targets.
    await mkdir(join(dir, 'lib', 'gamma'));
    await writeFile(
      join(dir, 'lib', 'gamma', 'SKILL.md'),
      '---\nname: gamma\ndescription: Third\nwhen_to_use: Always\n---\n',
    );
    const added = await handlers['library.list']({});
    if (!added.ok) throw new Error(added.error.message);
    // A Claude Code skill is checked for its own format: clean.
    expect(added.value.skills.find((s) => s.name === 'gamma')?.counts.error).toBe(0);
    await handlers['settings.update']({ extraProfiles: ['agentskills'] });
    const stricter = await handlers['library.list']({});
    expect(
      stricter.ok && stricter.value.skills.find((s) => s.name === 'gamma')?.counts.error,
    ).toBeGreaterThan(0);
  });

  it('creates a skill from a template that validates clean, and never over an existing folder', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    const created = await handlers['skill.create']({
      root: join(dir, 'lib'),
      name: 'meeting-notes',
      description: 'Turns meeting notes into action items. Use when the user pastes notes.',
      template: 'references',
    });
    if (!created.ok) throw new Error(created.error.message);
    expect(
      await readFile(join(dir, 'lib', 'meeting-notes', 'references', 'guide.md'), 'utf8'),
    ).toContain('guide');
    const validated = await handlers['skill.validate']({
      path: created.value.path,
      profiles: ['agentskills'],
    });
    expect(validated).toMatchObject({ ok: true, value: { counts: { error: 0, warning: 0 } } });
    expect(
      await handlers['skill.create']({
        root: join(dir, 'lib'),
        name: 'meeting-notes',
        description: 'x',
        template: 'blank',
      }),
    ).toMatchObject({ ok: false, error: { code: 'exists' } });
    expect(
      await handlers['skill.create']({
        root: join(dir, 'lib'),
        name: 'Meeting Notes',
        description: 'x',
        template: 'blank',
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid-name' } });
    expect(
      await handlers['skill.create']({
        root: dir,
        name: 'stray',
        description: 'x',
        template: 'blank',
      }),
    ).toMatchObject({ ok: false, error: { code: 'outside-library' } });
  });

  it('creates, renames, deletes with undo and previews files inside a skill only', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    const skillDir = join(dir, 'lib', 'alpha');
    expect(
      await handlers['file.create']({
        skillDir,
        path: 'references/notes.md',
        kind: 'file',
        text: '# Notes\n',
      }),
    ).toMatchObject({ ok: true });
    expect(
      await handlers['file.create']({ skillDir, path: 'references/notes.md', kind: 'file' }),
    ).toMatchObject({ ok: false, error: { code: 'exists' } });
    expect(
      await handlers['file.rename']({
        skillDir,
        from: 'references/notes.md',
        to: 'references/guide.md',
      }),
    ).toMatchObject({ ok: true });
    expect(
      await handlers['file.rename']({ skillDir, from: 'references/guide.md', to: '../escape.md' }),
    ).toMatchObject({ ok: false, error: { code: 'outside-skill' } });
    const deleted = await handlers['file.delete']({ skillDir, path: 'references/guide.md' });
    if (!deleted.ok) throw new Error(deleted.error.message);
    const afterDelete = await handlers['skill.files']({ skillDir });
    expect(afterDelete.ok && afterDelete.value.entries.map((e) => e.path)).toEqual([
      'references',
      'SKILL.md',
    ]);
    expect(await handlers['file.restore']({ undoToken: deleted.value.undoToken })).toMatchObject({
      ok: true,
    });
    expect(await readFile(join(skillDir, 'references', 'guide.md'), 'utf8')).toBe('# Notes\n');
    expect(await handlers['file.delete']({ skillDir, path: 'SKILL.md' })).toMatchObject({
      ok: false,
      error: { code: 'protected' },
    });

    await handlers['file.import']({
      skillDir,
      path: 'assets/pixel.png',
      base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]).toString('base64'),
    });
    await handlers['file.import']({
      skillDir,
      path: 'assets/blob.bin',
      base64: Buffer.from([0, 1, 2, 255]).toString('base64'),
    });
    const listed = await handlers['skill.files']({ skillDir });
    expect(
      listed.ok &&
        listed.value.entries.filter((e) => e.kind === 'file').map((e) => [e.path, e.view]),
    ).toEqual([
      ['assets/blob.bin', 'binary'],
      ['assets/pixel.png', 'image'],
      ['references/guide.md', 'text'],
      ['SKILL.md', 'text'],
    ]);
    expect(await handlers['file.preview']({ skillDir, path: 'assets/blob.bin' })).toMatchObject({
      ok: true,
      value: { view: 'binary', size: 4 },
    });
    const image = await handlers['file.preview']({ skillDir, path: 'assets/pixel.png' });
    expect(image.ok && image.value.dataUrl?.startsWith('data:image/png;base64,')).toBe(true);
    expect(await handlers['skill.files']({ skillDir: dir })).toMatchObject({
      ok: false,
      error: { code: 'outside-library' },
    });
  });

  it('keeps unsaved buffers as drafts and drops them on save', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    const path = join(dir, 'lib', 'alpha', 'SKILL.md');
    await handlers['drafts.put']({ path, text: 'unsaved work', baseVersion: null });
    expect(await handlers['drafts.list']({})).toMatchObject({
      ok: true,
      value: { drafts: [{ path, text: 'unsaved work' }] },
    });
    await handlers['skill.save']({ path, text: 'unsaved work' });
    expect(await handlers['drafts.list']({})).toMatchObject({ ok: true, value: { drafts: [] } });
    expect(
      await handlers['drafts.put']({ path: join(dir, 'outside.md'), text: 'x', baseVersion: null }),
    ).toMatchObject({ ok: false });
  });

  it('starts and stops the embedded server over the library roots, with a token but no stored secret in the browser shell', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    const started = await handlers['server.start']({});
    if (!started.ok) throw new Error(started.error.message);
    expect(started.value.status.state).toBe('running');
    expect(started.value.status.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(started.value.status.token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(started.value.tokenStored).toBe(false);
    expect(started.value.catalog?.served.map((s) => s.name)).toEqual(['alpha', 'beta']);
    const regenerated = await handlers['server.regenerateToken']({});
    expect(regenerated.ok && regenerated.value.status.token).not.toBe(started.value.status.token);
    const stopped = await handlers['server.stop']({});
    expect(stopped).toMatchObject({ ok: true, value: { status: { state: 'stopped' } } });
  });

  it('plans, exports, and imports a skill through the contract, never replacing silently', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    const skillDir = join(dir, 'lib', 'alpha');
    const plan = await handlers['export.plan']({ skillDir, target: 'claude-ai' });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.plan.wrapper).toBe('alpha');
    expect(plan.value.plan.blocked).toBe(false);
    const out = join(dir, 'alpha.zip');
    const written = await handlers['export.run']({ skillDir, target: 'claude-ai', out });
    expect(written).toMatchObject({ ok: true, value: { status: 'written', path: out } });
    expect(await handlers['export.run']({ skillDir, target: 'claude-ai', out })).toMatchObject({
      ok: false,
      error: { code: 'exists' },
    });

    await mkdir(join(dir, 'lib2'));
    await handlers['library.open']({ path: join(dir, 'lib2') });
    const preview = await handlers['import.preview']({ source: out });
    expect(preview).toMatchObject({
      ok: true,
      value: { status: 'ok', skills: [{ name: 'alpha' }] },
    });
    const uploaded = await handlers['import.upload']({
      name: '../../evil name.zip',
      base64: (await readFile(out)).toString('base64'),
    });
    if (!uploaded.ok) throw new Error(uploaded.error.message);
    expect(uploaded.value.source.startsWith(join(dir, 'userdata', 'incoming'))).toBe(true);
    const imported = await handlers['import.run']({
      source: uploaded.value.source,
      into: join(dir, 'lib2'),
    });
    expect(imported).toMatchObject({ ok: true, value: { status: 'imported', name: 'alpha' } });
    expect(await readFile(join(dir, 'lib2', 'alpha', 'SKILL.md'), 'utf8')).toContain('name: alpha');
    const again = await handlers['import.run']({ source: out, into: join(dir, 'lib2') });
    expect(again).toMatchObject({ ok: true, value: { status: 'conflict', suggestion: 'alpha-2' } });
    expect(await handlers['import.run']({ source: out, into: dir })).toMatchObject({
      ok: false,
      error: { code: 'outside-library' },
    });
  });

  it('import.preview reads only import sources: any other typed path is refused without its content', async () => {
    await writeFile(join(dir, 'diary.md'), '---\nname: diary\n---\nThe safe code is 4711.\n');
    await writeFile(join(dir, 'key.pem'), 'KEYMATERIAL-0123456789');
    for (const source of [join(dir, 'diary.md'), join(dir, 'key.pem')]) {
      const preview = await handlers['import.preview']({ source });
      expect(preview).toMatchObject({
        ok: true,
        value: { status: 'refused', refusal: { code: 'not-a-skill-source' } },
      });
      const shown = JSON.stringify(preview);
      expect(shown).not.toContain('4711');
      expect(shown).not.toContain('KEYMATERIAL');
      expect(shown).not.toContain(Buffer.from('KEYM').toString('hex'));
    }
    // A second request after the refusals is answered as usual.
    expect(await handlers['app.info']({})).toMatchObject({ ok: true });
  });

  it('import.upload keeps a dropped file inside its own folder, whatever its name', async () => {
    for (const name of ['..', '.', '../..', 'a/../../x.zip']) {
      const uploaded = await handlers['import.upload']({ name, base64: 'UEsFBg==' });
      if (!uploaded.ok) throw new Error(`${name}: ${uploaded.error.message}`);
      const incoming = join(dir, 'userdata', 'incoming');
      expect(uploaded.value.source.startsWith(`${incoming}/`)).toBe(true);
      expect(uploaded.value.source.split('/').length).toBe(incoming.split('/').length + 2);
    }
  });

  it('notices an edit made outside Skillbench to an open file', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    const path = join(dir, 'lib', 'alpha', 'SKILL.md');
    await handlers['skill.read']({ path });
    await writeFile(`${path}.tmp`, 'edited elsewhere\n');
    await rename(`${path}.tmp`, path);
    await expect
      .poll(() => events.find((e) => e.path === path)?.version ?? null, { timeout: 5000 })
      .not.toBeNull();
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
    const saved = await handlers['skill.save']({
      path,
      text: 'edited\n',
      expectedVersion: read.value.version,
    });
    expect(saved.ok).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('edited\n');

    await writeFile(path, 'changed by another program\n');
    const stale = await handlers['skill.save']({
      path,
      text: 'mine\n',
      expectedVersion: saved.ok ? saved.value.version : '',
    });
    expect(stale).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await readFile(path, 'utf8')).toBe('changed by another program\n');
  });

  it('never reads or writes outside an opened library, even through a symlink', async () => {
    await handlers['library.open']({ path: join(dir, 'lib') });
    await symlink(join(dir, 'outside.md'), join(dir, 'lib', 'alpha', 'link.md'));
    for (const path of [
      join(dir, 'outside.md'),
      join(dir, 'lib', 'alpha', 'link.md'),
      join(dir, 'lib', '..', 'outside.md'),
      'relative/SKILL.md',
    ]) {
      expect(await handlers['skill.read']({ path }), path).toMatchObject({
        ok: false,
        error: { code: 'outside-library' },
      });
      expect(await handlers['skill.save']({ path, text: 'x' }), path).toMatchObject({
        ok: false,
        error: { code: 'outside-library' },
      });
    }
    expect(await readFile(join(dir, 'outside.md'), 'utf8')).toBe('outside');
  });

  it('browses folders for the browser shell picker', async () => {
    const result = await handlers['fs.browse']({ path: join(dir, 'lib') });
    expect(result).toMatchObject({
      ok: true,
      value: { path: join(dir, 'lib'), parent: dir, isSkill: false },
    });
    if (result.ok) expect(result.value.folders.map((f) => f.name)).toEqual(['alpha', 'team']);
    const skill = await handlers['fs.browse']({ path: join(dir, 'lib', 'alpha') });
    expect(skill).toMatchObject({ ok: true, value: { isSkill: true } });
  });

  it('has no folder dialog in the browser shell and says what to do instead', async () => {
    const result = await handlers['dialog.pickFolder']({});
    expect(result).toMatchObject({ ok: false, error: { code: 'unsupported' } });
  });
});
