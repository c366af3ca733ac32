import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseChannelInput, type ApiHandlers, type EventName } from '../../shared/ipc/contract';
import {
  aesBox,
  fixtureSkill,
  startEmbeddedHttp,
  startFixture,
  type RunningServer,
} from '../testing/inspector-servers';
import { makeTestLibrary, tempDir } from '../testing/skill-library';
import { createApiHandlers } from './handlers';
import { createServices, type Services } from './services';

type Dir = Awaited<ReturnType<typeof tempDir>>;

/** Unwrap a successful result, failing the test with the error otherwise. */
function value<T>(
  result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } },
): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

const SKILL_MD =
  '---\nname: pdf\ndescription: Work with PDF files.\n---\n# PDF\n\nSee references/forms.md.\n';

describe('inspector handlers against real servers on loopback', () => {
  let lib: Dir;
  let data: Dir;
  let target: Dir;
  let services: Services;
  let handlers: ApiHandlers;
  let server: RunningServer;
  const events: { event: EventName; payload: unknown }[] = [];

  beforeEach(async () => {
    lib = await tempDir('skillbench-api-insp-lib-');
    data = await tempDir('skillbench-api-insp-data-');
    target = await tempDir('skillbench-api-insp-target-');
    await makeTestLibrary(lib.path);
    server = await startEmbeddedHttp(lib.path);
    events.length = 0;
    services = createServices(data.path, (event, payload) => events.push({ event, payload }));
    handlers = createApiHandlers({ shell: 'browser', version: 'test', ...services });
  });

  afterEach(async () => {
    await services.dispose();
    await server.close();
    await lib.remove();
    await data.remove();
    await target.remove();
  });

  it('connects with a bearer token, discovers, views a skill and saves a verified copy into a library root', async () => {
    const status = value(
      await handlers['inspector.connect']({
        target: { label: 'ours', kind: 'http', url: server.url, bearerToken: server.token },
      }),
    );
    expect(status).toMatchObject({ label: 'ours', state: 'connected', skillsExtension: true });
    expect(value(await handlers['inspector.status']({})).connections.map((c) => c.state)).toEqual([
      'connected',
    ]);

    const found = value(await handlers['inspector.discover']({ label: 'ours' }));
    expect(found.route).toBe('extension');
    expect(found.steps[0]).toMatchObject({ route: 'extension', outcome: 'used' });
    const alpha = found.skills.find((s) => s.name === 'alpha');
    expect(alpha).toBeDefined();
    const key = alpha?.key ?? '';
    // Same-named skills from different folders are both present, each pointing at the other.
    const refunds = found.skills.filter((s) => s.name === 'refunds');
    expect(refunds.map((s) => s.skillPath).sort()).toEqual([
      'team/billing/refunds',
      'team/support/refunds',
    ]);
    expect(refunds[0]?.sameNameAs).toEqual([refunds[1]?.key]);

    const view = value(await handlers['inspector.view']({ key, profile: 'agentskills' }));
    expect(view.skillMd.verification.status).toBe('verified');
    expect(view.frontmatter).toMatchObject({ name: 'alpha', license: 'MIT' });
    expect(view.text).toContain('# Alpha');
    expect(view.tree.children?.map((c) => c.name).sort()).toEqual([
      'SKILL.md',
      'assets',
      'references',
      'scripts',
    ]);

    const guideUri = `${alpha?.rootUri ?? ''}/references/guide.md`;
    const guide = value(await handlers['inspector.readFile']({ key, uri: guideUri }));
    expect(guide.verification.status).toBe('verified');
    expect(guide.content?.text).toContain('café');
    expect(
      value(await handlers['inspector.fileStatuses']({ key })).files.map((f) => f.status),
    ).toEqual(['verified', 'verified']);
    expect(events.some((e) => e.event === 'inspector.fileChecked')).toBe(true);
    expect(events.some((e) => e.event === 'inspector.discovered')).toBe(true);

    const page = value(
      await handlers['inspector.readDirectory']({ key, uri: `${alpha?.rootUri ?? ''}/references` }),
    );
    expect(page.entries.map((e) => [e.path, e.status])).toEqual([
      ['references/deep', undefined],
      ['references/guide.md', 'verified'],
    ]);

    // Outside a library root the save is refused before anything is read or written.
    const outside = await handlers['inspector.saveToLibrary']({ key, libraryRoot: target.path });
    expect(outside).toMatchObject({ ok: false, error: { code: 'outside-library' } });
    expect(await readdir(target.path)).toEqual([]);

    value(await handlers['library.open']({ path: target.path }));
    const saved = value(
      await handlers['inspector.saveToLibrary']({ key, libraryRoot: target.path }),
    );
    expect(saved).toMatchObject({ ok: true, files: 5 });
    expect(await readFile(join(target.path, 'alpha', 'references', 'guide.md'), 'utf8')).toBe(
      await readFile(join(lib.path, 'alpha', 'references', 'guide.md'), 'utf8'),
    );
    const listing = value(await handlers['library.list']({}));
    expect(listing.skills.map((s) => s.name)).toEqual(['alpha']);
    expect(
      value(await handlers['inspector.provenance']({})).records.map((r) => [r.name, r.uri]),
    ).toEqual([['alpha', 'skill://alpha/SKILL.md']]);

    // Saving it again asks; "Keep both" through the contract lands beside it in the library.
    expect(
      value(await handlers['inspector.saveToLibrary']({ key, libraryRoot: target.path })),
    ).toMatchObject({ ok: false, reason: 'conflict', suggestion: 'alpha-2' });
    expect(
      value(
        await handlers['inspector.saveToLibrary']({
          key,
          libraryRoot: target.path,
          onConflict: 'rename',
        }),
      ),
    ).toMatchObject({ ok: true, name: 'alpha-2', renamedFrom: 'alpha' });
    expect(
      value(await handlers['library.list']({}))
        .skills.map((s) => s.name)
        .sort(),
    ).toEqual(['alpha', 'alpha-2']);

    // "Export for upload" hands a verified copy to the exporter, which refuses other folders outside the library.
    const verifiedCopy = value(await handlers['inspector.exportForUpload']({ key }));
    if (!verifiedCopy.ok) throw new Error(verifiedCopy.message);
    const plan = value(
      await handlers['export.plan']({ skillDir: verifiedCopy.folder, target: 'claude-ai' }),
    );
    expect(plan.plan.wrapper).toBe('alpha');
    expect(
      await handlers['export.plan']({
        skillDir: join(verifiedCopy.folder, '..'),
        target: 'claude-ai',
      }),
    ).toMatchObject({ ok: false, error: { code: 'outside-library' } });

    // The protocol log has every message; events carry summaries, the message comes on demand.
    const logged = events
      .filter((e) => e.event === 'inspector.logged')
      .map((e) => e.payload as { seq: number; method?: string });
    expect(logged.length).toBeGreaterThan(4);
    expect(logged[0]).not.toHaveProperty('message');
    const first = value(await handlers['inspector.log']({ seq: logged[0]?.seq ?? 0 })).entries;
    expect(first).toHaveLength(1);
    // The first message is the protocol-revision probe (this server offers 2026-07-28).
    expect(first[0]?.message).toMatchObject({ method: 'server/discover' });
    expect(
      value(await handlers['inspector.log']({ method: 'skills/list' })).entries.every(
        (e) => e.method === 'skills/list',
      ),
    ).toBe(true);
    const exported = JSON.parse(
      value(await handlers['inspector.exportLog']({ method: 'skills/' })).json,
    ) as { entries: { method: string }[] };
    expect(exported.entries.length).toBeGreaterThan(0);

    // Nothing handed back carries the token.
    const everything = JSON.stringify([
      status,
      found,
      view,
      guide,
      saved,
      events,
      value(await handlers['inspector.log']({})).entries,
    ]);
    expect(everything).not.toContain(server.token ?? 'no-token');

    value(await handlers['inspector.disconnect']({ label: 'ours' }));
    expect(value(await handlers['inspector.status']({})).connections).toEqual([]);
    expect(await handlers['inspector.view']({ key })).toMatchObject({
      ok: false,
      error: { code: 'not-connected' },
    });
  });

  it('produces a passing report card for our own server, with Markdown and JSON exports', async () => {
    value(
      await handlers['inspector.connect']({
        target: { label: 'ours', kind: 'http', url: server.url, bearerToken: server.token },
      }),
    );
    const { report, markdown, json } = value(await handlers['inspector.report']({ label: 'ours' }));
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.verdict).toBe('pass');
    expect(markdown).toContain('# ');
    expect(JSON.parse(json)).toMatchObject({ verdict: 'pass' });
  });

  it('answers with plain errors: a wrong token, nothing listening, an unknown connection, a file: URL', async () => {
    const wrong = await handlers['inspector.connect']({
      target: {
        label: 'bad',
        kind: 'http',
        url: server.url,
        bearerToken: 'not-the-token',
        oauth: false,
      },
    });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    if (!wrong.ok) expect(wrong.error.message).toMatch(/refused the credentials/);

    const closed = await startFixture({ extension: {} });
    const url = closed.url;
    await closed.close();
    const nothing = await handlers['inspector.connect']({
      target: { label: 'gone', kind: 'http', url },
    });
    expect(nothing).toMatchObject({ ok: false, error: { code: 'connect' } });

    expect(await handlers['inspector.discover']({ label: 'never' })).toMatchObject({
      ok: false,
      error: { code: 'not-connected' },
    });
    expect(await handlers['inspector.reconnect']({ label: 'never' })).toMatchObject({
      ok: false,
      error: { code: 'not-connected' },
    });

    // The contract refuses what main should never see.
    const fileUrl = parseChannelInput('inspector.connect', {
      target: { label: 'x', kind: 'http', url: 'file:///etc/passwd' },
    });
    expect(fileUrl.ok).toBe(false);
    expect(
      parseChannelInput('inspector.connect', { target: { label: 'x', kind: 'stdio' } }).ok,
    ).toBe(false);
    expect(
      parseChannelInput('inspector.saveConnection', {
        connection: {
          label: 'x',
          kind: 'http',
          url: 'http://127.0.0.1/',
          headers: [{ name: 'Bad\nName', value: 'v' }],
        },
      }).ok,
    ).toBe(false);
  });

  it('flags a tampered file and refuses to save that skill', async () => {
    const skill = fixtureSkill(
      'pdf',
      { name: 'pdf', description: 'Work with PDF files.' },
      { 'SKILL.md': SKILL_MD, 'references/forms.md': '# Forms\n' },
    );
    const files = {
      ...skill.files,
      'skill://pdf/references/forms.md': {
        text: '# Forms\n\nrm -rf / # tampered\n',
        mimeType: 'text/markdown',
      },
    };
    const tampered = await startFixture({
      extension: {},
      listSkills: () => ({ skills: [skill.entry] }),
      getSkill: (uri) => (uri === skill.entry.uri ? skill.entry : undefined),
      files,
    });
    try {
      value(await handlers['library.open']({ path: target.path }));
      value(
        await handlers['inspector.connect']({
          target: { label: 'tampered', kind: 'http', url: tampered.url },
        }),
      );
      const key =
        value(await handlers['inspector.discover']({ label: 'tampered' })).skills[0]?.key ?? '';
      const read = value(
        await handlers['inspector.readFile']({ key, uri: 'skill://pdf/references/forms.md' }),
      );
      expect(read.verification.status).toBe('mismatch');
      expect(read.content).toBeUndefined();
      const verification = value(await handlers['inspector.verify']({ key }));
      expect(verification.verdict).toBe('failed');
      const saved = value(
        await handlers['inspector.saveToLibrary']({ key, libraryRoot: target.path }),
      );
      expect(saved).toMatchObject({ ok: false, reason: 'verification' });
      expect(await readdir(target.path)).toEqual([]);
      expect(value(await handlers['inspector.exportForUpload']({ key }))).toMatchObject({
        ok: false,
        reason: 'verification',
      });
      const refreshed = value(await handlers['inspector.refresh']({ key }));
      expect(refreshed.uri).toBe('skill://pdf/SKILL.md');
      expect(value(await handlers['inspector.fileStatuses']({ key })).files).toEqual([]);
    } finally {
      await tampered.close();
    }
  });

  it('keeps saved connections without secrets in the browser shell, and seals them with a SecretBox', async () => {
    expect(value(await handlers['inspector.connections']({}))).toEqual({
      connections: [],
      secretsStored: false,
    });
    const refused = await handlers['inspector.saveConnection']({
      connection: { label: 'ours', kind: 'http', url: server.url, bearerToken: 'abc' },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'no-secret-box' } });
    const plain = value(
      await handlers['inspector.saveConnection']({
        connection: { label: 'plain', kind: 'http', url: server.url },
      }),
    );
    expect(plain).toMatchObject({ label: 'plain', hasBearerToken: false });
    expect(value(await handlers['inspector.removeConnection']({ id: plain.id }))).toEqual({
      removed: true,
    });

    const sealedData = await tempDir('skillbench-api-insp-sealed-');
    const sealedServices = createServices(sealedData.path, () => undefined, {
      secretBox: aesBox(),
    });
    const sealed = createApiHandlers({ shell: 'electron', version: 'test', ...sealedServices });
    try {
      const saved = value(
        await sealed['inspector.saveConnection']({
          connection: {
            label: 'ours',
            kind: 'http',
            url: server.url,
            bearerToken: server.token,
            headers: [{ name: 'X-Team', value: 'team-secret-value', secret: true }],
          },
        }),
      );
      expect(saved).toMatchObject({
        hasBearerToken: true,
        headers: [{ name: 'X-Team', secret: true, hasSecret: true }],
      });
      const listed = value(await sealed['inspector.connections']({}));
      expect(listed.secretsStored).toBe(true);
      const onDisk = await readFile(join(sealedData.path, 'inspector-connections.json'), 'utf8');
      for (const text of [JSON.stringify(saved), JSON.stringify(listed), onDisk]) {
        expect(text).not.toContain(server.token ?? 'no-token');
        expect(text).not.toContain('team-secret-value');
      }
      const status = value(await sealed['inspector.connect']({ target: { savedId: saved.id } }));
      expect(status.state).toBe('connected');
      expect(value(await sealed['inspector.reconnect']({ label: 'ours' })).state).toBe('connected');
    } finally {
      await sealedServices.dispose();
      await sealedData.remove();
    }
  });
});
