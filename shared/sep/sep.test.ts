import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  detectIndexShape,
  digestHex,
  encodeRelativePath,
  formatDigest,
  isDigest,
  isSafeSegment,
  joinSkillUri,
  ListSkillsResultSchema,
  parseAprilIndex,
  parseFastMcpManifest,
  parseJuneIndex,
  parseSkillUri,
  skillFileUri,
  skillMdUri,
  skillPathOf,
} from './index';

const HEX = 'a'.repeat(64);

describe('parseSkillUri', () => {
  it('accepts skill URIs and returns decoded segments and a canonical spelling', () => {
    const r = parseSkillUri('SKILL://acme/billing/refunds/SKILL.md');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.uri.segments).toEqual(['acme', 'billing', 'refunds', 'SKILL.md']);
    expect(r.uri.href).toBe('skill://acme/billing/refunds/SKILL.md');
    const spaced = parseSkillUri('skill://my%20team/x/SKILL.md');
    expect(spaced.ok && spaced.uri.segments[0]).toBe('my team');
  });

  it.each([
    ['skill://a/../b/SKILL.md', 'parent'],
    ['skill://a/%2e%2e/b/SKILL.md', 'parent'],
    ['skill://a/%2E%2E/SKILL.md', 'parent'],
    ['skill://a/./SKILL.md', 'parent'],
    ['skill://a/b%2fc/SKILL.md', 'slash'],
    ['skill://a/b%5Cc/SKILL.md', 'slash'],
    ['skill://a\\b/SKILL.md', 'backslash'],
    ['skill://a/SKILL.md?x=1', 'query'],
    ['skill://a/SKILL.md#top', 'fragment'],
    ['skill://a//SKILL.md', 'empty'],
    ['skill://a/', 'empty'],
    ['skill:///a/SKILL.md', 'empty'],
    ['file:///etc/passwd', 'Only'],
    ['https://a/SKILL.md', 'Only'],
    ['skill:a/SKILL.md', '//'],
    ['skill://user@a/SKILL.md', 'not allowed'],
    ['skill://a:80/SKILL.md', 'not allowed'],
    ['skill://a/%zz/SKILL.md', 'not allowed'],
    ['skill://a/%c3%28/SKILL.md', 'percent'],
    ['skill://a/b%00/SKILL.md', 'not allowed in a file name'],
    ['skill://a/b c/SKILL.md', 'spaces'],
    ['', 'empty'],
  ])('refuses %s', (uri, why) => {
    const r = parseSkillUri(uri);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain(why);
  });

  it('refuses non-strings and overlong URIs', () => {
    expect(parseSkillUri(42).ok).toBe(false);
    expect(parseSkillUri(`skill://a/${'b'.repeat(5000)}`).ok).toBe(false);
  });

  it('refuses half a surrogate pair (JSON can carry one) instead of throwing', () => {
    for (const uri of ['skill://a/\ud800/SKILL.md', 'skill://\udfff/SKILL.md', 'skill://a/b\ud800'])
      expect(parseSkillUri(uri)).toEqual({
        ok: false,
        reason: 'The URI contains characters that are not allowed in a file name.',
      });
    expect(isSafeSegment('b\ud800')).toBe(false);
    // A whole pair is one character and is encoded as usual.
    const emoji = parseSkillUri('skill://a/\u{1f600}/SKILL.md');
    expect(emoji.ok && emoji.uri.href).toBe('skill://a/%F0%9F%98%80/SKILL.md');
  });

  it('never throws, and what it accepts it spells back the same way', () => {
    const unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
    const piece = fc.oneof(
      fc.constantFrom(
        'a',
        'Z',
        '9',
        '.',
        '..',
        '%',
        '%2e',
        '%2F',
        '%c3%a9',
        '/',
        '\\',
        '?',
        '#',
        ':',
        '@',
      ),
      fc.constantFrom('\ud800', '\udc00', '\u{1f600}', 'é', ' ', '\u0000'),
      unit,
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const r = parseSkillUri(`skill://${parts.join('')}`);
        if (r.ok) expect(parseSkillUri(r.uri.href)).toEqual(r);
      }),
      { numRuns: 2000 },
    );
  });

  it('encodes a relative path segment by segment, and never throws on half a surrogate pair', () => {
    expect(encodeRelativePath('my refs/a#b.md')).toBe('my%20refs/a%23b.md');
    expect(encodeRelativePath('x/b\ud800.md')).toBe('x/b%EF%BF%BD.md');
  });

  it('accepts other schemes only when asked', () => {
    expect(parseSkillUri('resource://skills/x/document').ok).toBe(false);
    expect(parseSkillUri('resource://skills/x/document', { schemes: ['resource:'] }).ok).toBe(true);
  });
});

describe('joining', () => {
  it('builds canonical URIs and round-trips through the parser', () => {
    const uri = skillFileUri('team a/refunds', 'references/guide #1.md');
    expect(uri).toBe('skill://team%20a/refunds/references/guide%20%231.md');
    const r = parseSkillUri(uri);
    expect(r.ok && r.uri.segments).toEqual(['team a', 'refunds', 'references', 'guide #1.md']);
    expect(skillMdUri('refunds')).toBe('skill://refunds/SKILL.md');
    expect(skillPathOf('skill://acme/refunds/SKILL.md')).toEqual({
      skillPath: 'acme/refunds',
      name: 'refunds',
    });
    expect(skillPathOf('skill://SKILL.md')).toBeUndefined();
    expect(skillPathOf('skill://acme/refunds/notes.md')).toBeUndefined();
  });

  it('gives a canonical URI back unchanged when it is parsed (the server looks served URIs up as sent)', () => {
    const awkward = [
      'team a',
      'guide #1.md',
      'café ✓',
      '100%',
      '%41',
      'a?b',
      'x\u00a0y',
      "it's (1)",
      'a+b=c;d,e',
      '@home:8080',
      '~tilde',
      '.hidden',
      '..x',
      '日本語',
      '😀',
      'UPPER.MD',
    ];
    for (const seg of awkward) {
      for (const uri of [joinSkillUri([seg, 'SKILL.md']), joinSkillUri(['lib', seg, seg])]) {
        const r = parseSkillUri(uri);
        expect(r.ok && r.uri.href).toBe(uri);
      }
    }
  });

  it('encodes every segment as encodeURIComponent does, plain names and others alike', () => {
    const names = [
      'refunds',
      'a.b_c-d~e',
      'team a',
      'café',
      '100%',
      "it's",
      'x?y#z',
      '...',
      '.hidden',
    ];
    for (const a of names)
      for (const b of names)
        expect(joinSkillUri([a, b, 'SKILL.md'])).toBe(
          `skill://${encodeURIComponent(a)}/${encodeURIComponent(b)}/SKILL.md`,
        );
  });

  it('refuses unsafe segments', () => {
    expect(() => joinSkillUri(['.', 'SKILL.md'])).toThrow();
    expect(() => joinSkillUri(['a', '.', 'b'])).toThrow();
    expect(() => joinSkillUri(['a', '..'])).toThrow();
    expect(() => joinSkillUri(['a', ''])).toThrow();
    expect(() => joinSkillUri(['a/b'])).toThrow();
    expect(() => joinSkillUri([])).toThrow();
  });
});

describe('digests', () => {
  it('formats and checks sha256 digests', () => {
    expect(formatDigest(HEX.toUpperCase())).toBe(`sha256:${HEX}`);
    expect(isDigest(`sha256:${HEX}`)).toBe(true);
    expect(isDigest(`sha256:${HEX.toUpperCase()}`)).toBe(false);
    expect(isDigest(`sha256:${HEX}0`)).toBe(false);
    expect(isDigest(`sha512:${HEX}`)).toBe(false);
    expect(digestHex(`sha256:${HEX}`)).toBe(HEX);
    expect(() => formatDigest('xyz')).toThrow();
  });
});

describe('schemas', () => {
  it('accepts a valid listing and refuses a bad digest', () => {
    const entry = {
      uri: 'skill://a/SKILL.md',
      frontmatter: { name: 'a', description: 'd', extra: [1] },
      resources: [{ uri: 'skill://a/SKILL.md', digest: `sha256:${HEX}`, size: 3 }],
    };
    expect(ListSkillsResultSchema.safeParse({ skills: [entry] }).success).toBe(true);
    expect(
      ListSkillsResultSchema.safeParse({ skills: [{ ...entry, resources: 'dynamic' }] }).success,
    ).toBe(true);
    expect(
      ListSkillsResultSchema.safeParse({
        skills: [{ ...entry, resources: [{ uri: 'x', digest: 'sha256:AB', size: 1 }] }],
      }).success,
    ).toBe(false);
  });
});

describe('legacy parsers', () => {
  it('reads the April 2026 draft index', () => {
    const doc = {
      $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
      skills: [
        {
          name: 'git-workflow',
          type: 'skill-md',
          description: 'd',
          url: 'skill://git-workflow/SKILL.md',
          digest: `sha256:${HEX}`,
        },
        {
          name: 'pdf',
          type: 'archive',
          description: 'd',
          url: 'skill://pdf.tar.gz',
          digest: 'md5:1',
        },
        { type: 'mcp-resource-template', description: 'd', url: 'skill://docs/{product}/SKILL.md' },
        { type: 'unknown-kind', url: 'x' },
      ],
    };
    const r = parseAprilIndex(JSON.stringify(doc));
    expect(r.items.map((i) => i.type)).toEqual(['skill-md', 'archive', 'mcp-resource-template']);
    expect(r.problems).toHaveLength(2);
    expect(detectIndexShape(doc)).toBe('april-2026');
  });

  it('reads the June 2026 index and drops entries with neither url nor archives', () => {
    const doc = {
      skills: [
        {
          url: 'skill://acme/refunds/SKILL.md',
          digest: `sha256:${HEX}`,
          frontmatter: { name: 'refunds', description: 'd' },
          archives: [
            {
              url: 'skill://acme/refunds.tar.gz',
              mimeType: 'application/gzip',
              digest: `sha256:${HEX}`,
            },
          ],
        },
        { frontmatter: { name: 'x', description: 'd' }, archives: [] },
      ],
    };
    const r = parseJuneIndex(doc);
    expect(r.items).toHaveLength(1);
    expect(r.items[0]?.archives[0]?.mimeType).toBe('application/gzip');
    expect(r.problems[0]).toContain('neither a url nor any archive');
    expect(detectIndexShape(doc)).toBe('june-2026');
    expect(parseJuneIndex('{nope').problems[0]).toContain('not valid JSON');
  });

  it('reads a FastMCP manifest and drops escaping paths', () => {
    const r = parseFastMcpManifest({
      skill: 'pdf',
      files: [
        { path: 'SKILL.md', size: 10, hash: `sha256:${HEX}` },
        { path: '../etc/passwd' },
        { path: '/abs' },
        { path: 'a/./b' },
        { path: 'a\\b' },
        { path: 'bad\u0000name' },
        { path: 'half\ud800.md' },
        { path: 'references/ok.md' },
      ],
    });
    expect(r.items[0]?.files.map((f) => f.path)).toEqual(['SKILL.md', 'references/ok.md']);
    expect(r.problems).toHaveLength(6);
  });
});
