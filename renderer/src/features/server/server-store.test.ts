import { describe, expect, it } from 'vitest';
import type { ChannelOutput, EventPayload, Result } from '../../../../shared/ipc/contract';
import { createNoticesStore } from '../../app/state/notices-store';
import { deferred, fakeApi, INTERNAL, ok, type FakeChannels } from '../../testing/fake-api';
import { createServerStore, REQUEST_LIMIT } from './server-store';

type Panel = ChannelOutput<'server.panel'>;
type State = Panel['status']['state'];

function panel(state: State, requests: Panel['requests'] = []): Panel {
  return {
    status: {
      state,
      roots: ['/lib'],
      sessions: 0,
      features: { legacy: false, personalMcp: false, tools: true, prompts: true },
    },
    catalog: null,
    requests,
    clientSetup: [],
    tokenStored: true,
  };
}

function request(n: number): EventPayload<'server.requested'> {
  return { time: n, transport: 'http', method: 'skills/list', status: 'ok', ms: 1 };
}

function setup(channels: FakeChannels) {
  const fake = fakeApi(channels);
  const notices = createNoticesStore();
  const server = createServerStore({ api: fake.api, notices: notices.getState() });
  return { fake, notices, server };
}

describe('server store: actions', () => {
  it('loads the panel, busy while the call is out', async () => {
    const { server } = setup({ 'server.panel': () => ok(panel('stopped')) });
    const loading = server.getState().load();
    expect(server.getState().busy).toBe(true);
    await loading;
    expect(server.getState()).toMatchObject({ busy: false, panel: panel('stopped') });
  });

  it('starts, stops and renews the token, showing the panel each answers with', async () => {
    const { server, fake } = setup({
      'server.start': () => ok(panel('running')),
      'server.stop': () => ok(panel('stopped')),
      'server.regenerateToken': () => ok(panel('running')),
    });
    await server.getState().start();
    expect(server.getState().panel?.status.state).toBe('running');
    await server.getState().regenerateToken();
    await server.getState().stop();
    expect(server.getState().panel?.status.state).toBe('stopped');
    expect(fake.calls.map((c) => c.channel)).toEqual([
      'server.start',
      'server.regenerateToken',
      'server.stop',
    ]);
  });

  it('is no longer busy, and shows the error, when a call fails', async () => {
    const { server, notices } = setup({
      'server.panel': () => ok(panel('stopped')),
      'server.start': () => INTERNAL,
    });
    await server.getState().load();
    await server.getState().start();
    expect(server.getState()).toMatchObject({ busy: false, panel: panel('stopped') });
    expect(notices.getState().error?.code).toBe('internal');
  });

  it('stays busy until the last of two overlapping calls is back, and keeps the newer panel', async () => {
    const started = deferred<Result<Panel>>();
    const loaded = deferred<Result<Panel>>();
    const { server } = setup({
      'server.start': () => started.promise,
      'server.panel': () => loaded.promise,
    });
    const starting = server.getState().start();
    const loading = server.getState().load();
    loaded.resolve(ok(panel('running')));
    await loading;
    expect(server.getState()).toMatchObject({ busy: true, panel: panel('running') });
    started.resolve(ok(panel('starting')));
    await starting;
    expect(server.getState()).toMatchObject({ busy: false, panel: panel('running') });
  });
});

describe('server store: events', () => {
  it('reloads on a change only once the panel was shown', async () => {
    const { server, fake } = setup({ 'server.panel': () => ok(panel('running')) });
    await server.getState().serverChanged();
    expect(fake.calls).toEqual([]);
    await server.getState().load();
    await server.getState().serverChanged();
    expect(fake.inputs('server.panel')).toHaveLength(2);
  });

  it('adds requests to the log, keeping the latest ones', async () => {
    const full = Array.from({ length: REQUEST_LIMIT }, (_, i) => request(i));
    const { server } = setup({ 'server.panel': () => ok(panel('running', full)) });
    server.getState().requestLogged(request(-1));
    expect(server.getState().panel).toBeNull();
    await server.getState().load();
    server.getState().requestLogged(request(REQUEST_LIMIT));
    const times = server.getState().panel?.requests.map((r) => r.time) ?? [];
    expect(times).toHaveLength(REQUEST_LIMIT);
    expect(times[0]).toBe(1);
    expect(times.at(-1)).toBe(REQUEST_LIMIT);
  });
});
