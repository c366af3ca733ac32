/**
 * `mcp-serve` = what hosts accept (docs/skills-over-mcp.md §3, "What is served"): a skill that a
 * host built on the official SDK v2 (`SkillsClient`) would refuse is not served, and says why;
 * numbers leave the server exactly as the SKILL.md wrote them. The judge is the real client:
 * the same library is served once with the gate and once without it, and the client's verdict
 * on the ungated server must match the gate's, skill by skill, on both protocol revisions.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { parseSkill } from '../../shared/skill';
import { buildSnapshot } from './catalog';
import { frontmatterJson, sameNumber } from './frontmatter-json';
import { startHttpHost } from './http-host';
import type { HttpHost } from './http-host';
import { LiveCatalog } from './live-catalog';
import { HOST_RULE } from './skill-check';
import type { SkillCheck } from './skill-check';
import { skillMd, tempDir, writeTree } from '../testing/skill-library';

function json(frontmatter: string): Record<string, unknown> | undefined {
  return frontmatterJson(parseSkill(skillMd(`name: n\ndescription: d\n${frontmatter}`)))?.value;
}

describe('frontmatter numbers go out as the SKILL.md wrote them', () => {
  it('a number a double holds exactly stays a number; one it cannot hold goes out as its text', () => {
    expect(
      json(
        [
          'big: 12345678901234567890',
          'safe: 9007199254740991',
          'unsafe: 9007199254740993',
          'version: 1.50',
          'mask: 0x1F',
          'mode: 0o17',
          'tiny: 1e-400',
          'huge: 1e400',
          'tenth: 0.1',
          'long: 0.1000000000000000055511151231257827',
          'list: [1, 12345678901234567890, 2.5]',
          'nested:',
          '  deeper: 98765432109876543210',
        ].join('\n'),
      ),
    ).toEqual({
      name: 'n',
      description: 'd',
      big: '12345678901234567890',
      safe: 9007199254740991,
      unsafe: '9007199254740993',
      version: 1.5,
      mask: 31,
      mode: 15,
      tiny: '1e-400',
      huge: '1e400',
      tenth: 0.1,
      long: '0.1000000000000000055511151231257827',
      list: [1, '12345678901234567890', 2.5],
      nested: { deeper: '98765432109876543210' },
    });
  });

  it('reports where each inexact number is and what a reader would get instead', () => {
    const parsed = parseSkill(skillMd('name: n\ndescription: d\nbig: 12345678901234567890'));
    expect(frontmatterJson(parsed)?.inexact).toEqual([
      { path: 'big', text: '12345678901234567890', read: 12345678901234567000 },
    ]);
  });

  it('never serves a number other than the one written (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^-?[1-9][0-9]{0,24}(\.[0-9]{1,20})?(e-?[0-9]{1,3})?$/),
        (written) => {
          const value = json(`x: ${written}`)?.x;
          if (typeof value === 'number') {
            // A number goes out only when its JSON text denotes exactly the value written.
            expect(sameNumber(written, value)).toBe(true);
            expect(sameNumber(JSON.stringify(value), Number(written))).toBe(true);
          } else expect(value).toBe(written);
        },
      ),
    );
  });
});

interface Case {
  name: string;
  /** Frontmatter lines after name and description; or the whole SKILL.md. */
  extra?: string;
  file?: string;
}

const LONG = 'x'.repeat(1025);
const DEEP = Array.from({ length: 34 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' leaf';

/** Frontmatters hosts read, and frontmatters they refuse. */
const CASES: Case[] = [
  { name: 'plain' },
  { name: 'decimal', extra: 'version: 1.50' },
  { name: 'hex', extra: 'mask: 0x1F' },
  { name: 'quoted-big', extra: 'big: "12345678901234567890"' },
  { name: 'folded', extra: 'notes: >\n  one\n  two' },
  { name: 'literal', extra: 'notes: |\n  one\n  two' },
  { name: 'unicode', extra: 'title: "Café ✓ 日本"' },
  { name: 'meta-text', extra: 'metadata:\n  owner: team-a\n  version: "2"' },
  { name: 'flow-one-line', extra: 'tags: [a, b]' },
  {
    name: 'crlf',
    file: '---\r\nname: crlf\r\ndescription: Windows line endings.\r\n---\r\nBody.\r\n',
  },
  { name: 'bom', file: '\uFEFF---\nname: bom\ndescription: Starts with a byte-order mark.\n---\n' },
  { name: 'big', extra: 'big: 12345678901234567890' },
  { name: 'big-in-list', extra: 'sizes: [1, 12345678901234567890]' },
  { name: 'anchor', extra: 'a: &x hi\nb: *x' },
  { name: 'tag', extra: 'a: !!str 123' },
  { name: 'meta-number', extra: 'metadata:\n  version: 2' },
  { name: 'meta-nested', extra: 'metadata:\n  a:\n    b: c' },
  { name: 'multi-line-quote', extra: 'a: "one\n  two"' },
  { name: 'multi-line-flow', extra: 'a: [one,\n  two]' },
  { name: 'block-indicator', extra: 'a: |2\n    text' },
  { name: 'compat-number', extra: 'compatibility: 3' },
  { name: 'long-description', file: `---\nname: long-description\ndescription: ${LONG}\n---\n` },
  { name: 'proto', extra: '__proto__: x' },
  { name: 'deep', extra: DEEP },
  { name: 'infinity', extra: 'a: .inf' },
  { name: 'number-key', extra: '1: one' },
];

function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of CASES)
    out[`${c.name}/SKILL.md`] =
      c.file ?? skillMd(`name: ${c.name}\ndescription: Case ${c.name}.\n${c.extra ?? ''}`);
  return out;
}

/** Serve everything that can be served at all: no profile, no hosts' view. */
const noGate: SkillCheck = () => ({ servable: true, reasons: [], warnings: [] });

/** What a SkillsClient on `url` accepts: listed as valid, and SKILL.md read back verified. */
async function accepted(url: string, token: string, era: 'legacy' | 'auto'): Promise<string[]> {
  const client = new Client(
    { name: 'host-acceptance', version: '1' },
    { versionNegotiation: { mode: era } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  try {
    expect(client.getNegotiatedProtocolVersion()).toBe(
      era === 'auto' ? '2026-07-28' : '2025-11-25',
    );
    const skills = new SkillsClient(client, { skipInvalid: true });
    const listing = await skills.list();
    const ok: string[] = [];
    for (const entry of listing.skills) {
      const read = await skills.read(entry).then(
        () => true,
        () => false,
      );
      if (read) ok.push(String(entry.frontmatter.name));
    }
    return ok.sort();
  } finally {
    await client.close();
  }
}

function rawList(host: HttpHost): Promise<string> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'skills/list',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: host.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          authorization: `Bearer ${host.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'skills/list',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a skill the official SDK v2 SkillsClient would refuse is not served', () => {
  let lib: Awaited<ReturnType<typeof tempDir>>;
  let gated: LiveCatalog;
  let open: LiveCatalog;
  let openHost: HttpHost;
  let gatedHost: HttpHost;

  beforeAll(async () => {
    lib = await tempDir('sb-hosts-');
    await writeTree(lib.path, files());
    gated = new LiveCatalog([lib.path], { watch: false });
    await gated.load();
    open = new LiveCatalog([lib.path], { watch: false, check: noGate });
    await open.load();
    openHost = await startHttpHost(open);
    gatedHost = await startHttpHost(gated);
  });

  afterAll(async () => {
    await openHost?.close();
    await gatedHost?.close();
    gated?.close();
    open?.close();
    await lib?.remove();
  });

  for (const era of ['legacy', 'auto'] as const)
    it(`serves exactly the skills the client accepts, among those the profile passes (${era === 'auto' ? '2026-07-28' : '2025-11-25'})`, async () => {
      const clientAccepts = await accepted(openHost.url, openHost.token as string, era);
      const served = gated.current.skills.map((s) => s.name).sort();
      // Skills the profile itself refuses are left out on both sides: that verdict is its own.
      const profileRefuses = new Set(
        gated.current.excluded
          .filter((e) => e.reasons.some((r) => !r.endsWith(`[${HOST_RULE}]`)))
          .map((e) => e.relativeDir),
      );
      expect(served).toEqual(clientAccepts.filter((n) => !profileRefuses.has(n)));
      // What the gate serves, the client accepts from the gated server too.
      expect(await accepted(gatedHost.url, gatedHost.token as string, era)).toEqual(served);
      // The cases are not trivial: both kinds are there.
      expect(served).toEqual(expect.arrayContaining(['plain', 'decimal', 'crlf', 'unicode']));
      expect(clientAccepts).not.toContain('big');
      expect(clientAccepts).not.toContain('anchor');
      expect(clientAccepts).not.toContain('deep');
      expect(clientAccepts).toContain('quoted-big');
    });

  it('lists each refused skill with the reason in plain words', () => {
    const reasons = (dir: string): string =>
      gated.current.excluded.find((e) => e.relativeDir === dir)?.reasons.join(' ') ?? '(served)';
    expect(reasons('big')).toContain(
      '"big" is the number 12345678901234567890, which MCP clients cannot hold exactly: they would read 12345678901234567000. Put it in quotes',
    );
    expect(reasons('anchor')).toContain('uses a YAML anchor, alias or tag');
    expect(reasons('tag')).toContain('uses a YAML anchor, alias or tag');
    expect(reasons('meta-number')).toContain('Every value in "metadata" must be text');
    expect(reasons('meta-nested')).toContain('Every value in "metadata" must be text');
    expect(reasons('multi-line-quote')).toContain(
      'MCP clients cannot read line 4 of the frontmatter: a quoted value must close on the same line',
    );
    expect(reasons('compat-number')).toContain('"compatibility" only as text');
    for (const e of gated.current.excluded)
      for (const r of e.reasons) expect(r, e.relativeDir).not.toMatch(/^\s*$/);
  });

  it('never rounds a number on the wire: without the gate, the big number goes out as its text', async () => {
    const wire = await rawList(openHost);
    expect(wire).toContain('"big":"12345678901234567890"');
    expect(wire).toContain('"sizes":[1,"12345678901234567890"]');
    expect(wire).not.toContain('12345678901234567000');
    expect(wire).toContain('"version":1.5');
  });

  it('serves the big number once it is quoted, as the text it is', async () => {
    const snap = await buildSnapshot([lib.path]);
    const quoted = snap.skills.find((s) => s.name === 'quoted-big');
    expect(quoted?.entry.frontmatter.big).toBe('12345678901234567890');
    expect(snap.excluded.map((e) => e.relativeDir)).toContain('big');
  });
});
