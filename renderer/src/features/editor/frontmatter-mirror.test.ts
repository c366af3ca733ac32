import { describe, expect, it } from 'vitest';
import { frontmatterLines } from './frontmatter-mirror';

describe('frontmatterLines: the hidden YAML model covers the lines validation reads as YAML', () => {
  it('mirrors the lines between the fences, one for one', () => {
    expect(frontmatterLines('---\nname: a\ndescription: b\n---\n# Body\n')).toBe(
      'name: a\ndescription: b',
    );
    expect(frontmatterLines('\uFEFF---\r\nname: a\r\n---\r\n')).toBe('name: a');
  });

  it('stops at a "..." closer and mirrors nothing without a first-line opener', () => {
    expect(frontmatterLines('---\nname: a\n...\nbody\n')).toBe('name: a');
    expect(frontmatterLines('\n---\nname: a\n---\n')).toBe('');
    expect(frontmatterLines('# Just a body\n')).toBe('');
  });

  it('takes only the YAML-looking lines of an unclosed frontmatter, never the body', () => {
    expect(frontmatterLines('---\nname: a\ndescription: b\n\n# Heading\nSome text.\n')).toBe(
      'name: a\ndescription: b',
    );
  });
});
