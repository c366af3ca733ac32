import { describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../../shared/ipc/contract';
import type { Subscribe } from '../platform/api';
import { routeEvents, type EventTargets } from './route-events';

/** A fake main: records subscriptions and delivers events to them. */
function fakeMain() {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const subscribe: Subscribe = (event, listener) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    const wrapped = listener as (payload: unknown) => void;
    set.add(wrapped);
    return () => set.delete(wrapped);
  };
  return {
    subscribe,
    emit<K extends EventName>(event: K, payload: EventPayload<K>) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    count: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  };
}

/** Targets that record which action each event called, with what. */
function recorder() {
  const calls: [string, ...unknown[]][] = [];
  const targets: EventTargets = {
    editor: () => ({
      externalChange: async (...args) => void calls.push(['editor.externalChange', ...args]),
      folderChanged: async () => void calls.push(['editor.folderChanged']),
    }),
    library: () => ({ refresh: async () => void calls.push(['library.refresh']) }),
    server: () => ({
      serverChanged: async () => void calls.push(['server.serverChanged']),
      requestLogged: (entry) => void calls.push(['server.requestLogged', entry]),
    }),
    inspector: () => ({
      connectionChanged: (status) => void calls.push(['inspector.connectionChanged', status]),
      logged: (entry) => void calls.push(['inspector.logged', entry]),
      fileChecked: (key, verification) =>
        void calls.push(['inspector.fileChecked', key, verification]),
      verified: (verification) => void calls.push(['inspector.verified', verification]),
    }),
    agentView: () => ({ refresh: async () => void calls.push(['agentView.refresh']) }),
  };
  return { calls, targets };
}

describe('routeEvents: the one place that listens to main', () => {
  it('sends each event to the store it concerns', () => {
    const main = fakeMain();
    const { calls, targets } = recorder();
    routeEvents(main.subscribe, targets);
    const request = {
      time: 1,
      transport: 'http' as const,
      method: 'skills/list',
      status: 'ok' as const,
      ms: 2,
    };
    const status = {
      label: 'a',
      state: 'connected' as const,
      kind: 'http' as const,
      target: 'x',
      skillsExtension: true,
      directoryRead: false,
    };
    const entry = {
      seq: 1,
      server: 'a',
      direction: 'in' as const,
      time: 1,
      kind: 'response' as const,
      bytes: 1,
      truncated: false,
    };
    const verification = { uri: 'skill://a/SKILL.md', status: 'verified' as const, reasons: [] };
    const verdict = {
      key: 'k',
      uri: 'u',
      verdict: 'verified' as const,
      files: [],
      problems: [],
      bytesRead: 0,
      durationMs: 0,
    };

    main.emit('skill.changed', { path: '/lib/a/SKILL.md', version: 'v2' });
    main.emit('library.changed', { root: '/lib' });
    main.emit('server.changed', {});
    main.emit('server.requested', request);
    main.emit('inspector.changed', status);
    main.emit('inspector.logged', entry);
    main.emit('inspector.fileChecked', { key: 'k', verification });
    main.emit('inspector.verified', verdict);
    main.emit('inspector.discovered', {
      server: 'a',
      steps: [],
      skills: [],
      templates: [],
      partial: false,
      problems: [],
      durationMs: 1,
    });
    main.emit('inspector.changed', { ...status, state: 'disconnected' });

    expect(calls).toEqual([
      ['editor.externalChange', '/lib/a/SKILL.md', 'v2'],
      ['agentView.refresh'],
      ['library.refresh'],
      ['editor.folderChanged'],
      ['agentView.refresh'],
      ['server.serverChanged'],
      ['server.requestLogged', request],
      ['inspector.connectionChanged', status],
      ['inspector.logged', entry],
      ['inspector.fileChecked', 'k', verification],
      ['inspector.verified', verdict],
      ['agentView.refresh'],
      ['inspector.connectionChanged', { ...status, state: 'disconnected' }],
      ['agentView.refresh'],
    ]);
  });

  it('subscribes once per event and stops listening when asked', () => {
    const main = fakeMain();
    const { calls, targets } = recorder();
    const stop = routeEvents(main.subscribe, targets);
    expect(main.count()).toBe(9);
    stop();
    expect(main.count()).toBe(0);
    main.emit('library.changed', { root: '/lib' });
    expect(calls).toEqual([]);
  });

  it('reaches the store as it is when the event arrives', () => {
    const main = fakeMain();
    const seen: string[] = [];
    let current = 'first';
    const { targets } = recorder();
    routeEvents(main.subscribe, {
      ...targets,
      library: () => {
        const name = current;
        return { refresh: async () => void seen.push(name) };
      },
    });
    main.emit('library.changed', { root: '/lib' });
    current = 'second';
    main.emit('library.changed', { root: '/lib' });
    expect(seen).toEqual(['first', 'second']);
  });
});
