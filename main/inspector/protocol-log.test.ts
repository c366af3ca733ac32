import { describe, expect, it } from 'vitest';
import { ProtocolLog } from './protocol-log';

describe('protocol log', () => {
  it('classifies messages, filters by server, direction, kind, method prefix and text, and exports JSON', () => {
    const log = new ProtocolLog();
    log.record('a', 'out', { jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} });
    log.record(
      'a',
      'in',
      { jsonrpc: '2.0', id: 1, result: { skills: [{ uri: 'skill://x/SKILL.md' }] } },
      3.2,
    );
    log.record('b', 'in', { jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
    log.record(
      'b',
      'in',
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Unknown skill' } },
      1,
    );
    expect(log.query().map((e) => e.kind)).toEqual([
      'request',
      'response',
      'notification',
      'error',
    ]);
    expect(log.query({ server: 'a' })).toHaveLength(2);
    expect(log.query({ direction: 'in', kind: 'error' })[0]?.durationMs).toBe(1);
    expect(log.query({ method: 'skills/' }).map((e) => e.method)).toEqual(['skills/list']);
    expect(log.query({ method: 'skills' })).toHaveLength(0);
    expect(log.query({ text: 'SKILL://X' })).toHaveLength(1);
    expect(log.query({ sinceSeq: 2 }).map((e) => e.seq)).toEqual([3, 4]);
    const doc = JSON.parse(log.exportJson({ limit: 1 })) as { entries: { seq: number }[] };
    expect(doc.entries.map((e) => e.seq)).toEqual([4]);
  });

  it('keeps large messages as a preview and stays within its capacity', () => {
    const log = new ProtocolLog(10);
    const big = log.record('a', 'in', {
      jsonrpc: '2.0',
      id: 9,
      result: { contents: [{ uri: 'u', text: 'x'.repeat(200_000) }] },
    });
    expect(big.truncated).toBe(true);
    expect(big.bytes).toBeGreaterThan(200_000);
    expect(JSON.stringify(big.message).length).toBeLessThan(4096);
    for (let i = 0; i < 100; i++) log.record('a', 'out', { jsonrpc: '2.0', id: i, method: 'ping' });
    const kept = log.query();
    expect(kept).toHaveLength(10);
    expect(kept.at(-1)?.id).toBe(99);
    let seen = 0;
    const off = log.subscribe(() => seen++);
    log.record('a', 'out', { jsonrpc: '2.0', id: 100, method: 'ping' });
    off();
    log.record('a', 'out', { jsonrpc: '2.0', id: 101, method: 'ping' });
    expect(seen).toBe(1);
  });
});
