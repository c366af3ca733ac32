/**
 * Building review inputs in tests: text files, bytes, links. The caller passes the parser
 * (shared/skill `parseSkill`): this folder imports nothing of shared/skill at run time.
 */
import type { ParsedSkill } from '../../skill/frontmatter-parser';
import { frontmatterForReview } from '../frontmatter';
import { reviewSkill } from '../review';
import type { ReviewFile, ReviewInput, SafetyReport } from '../types';

/** The parser tests pass in. */
export type Parse = (text: string) => Pick<ParsedSkill, 'data' | 'bodyStartLine'>;

/** A file in a test skill: text, bytes (a binary's head), a link, or a file not examined. */
export type TestFile =
  string | Uint8Array | { link: string; inside: boolean } | { notExamined: string; size: number };

/** The review input for `files` (path → content). */
export function inputOf(files: Record<string, TestFile>, parse: Parse): ReviewInput {
  const out: ReviewFile[] = [];
  for (const [path, c] of Object.entries(files)) {
    if (typeof c === 'string') out.push({ path, kind: 'file', size: c.length, text: c });
    else if (c instanceof Uint8Array) out.push({ path, kind: 'file', size: c.length, head: c });
    else if ('link' in c)
      out.push({ path, kind: 'symlink', size: 0, link: { target: c.link, inside: c.inside } });
    else out.push({ path, kind: 'file', size: c.size, notExamined: c.notExamined });
  }
  const skill = files['SKILL.md'];
  return typeof skill === 'string'
    ? { files: out, frontmatter: frontmatterForReview(parse(skill)) }
    : { files: out };
}

/** Review `files`. */
export function review(files: Record<string, TestFile>, parse: Parse): SafetyReport {
  return reviewSkill(inputOf(files, parse));
}

/** A SKILL.md with frontmatter (extra lines after `description`) and a body. */
export function skillMd(body: string, extra = ''): string {
  return `---\nname: sample\ndescription: A sample skill for tests.\n${extra}---\n\n# Sample\n\n${body}\n`;
}

/** Text hidden in Unicode tag characters. */
export function tagged(s: string): string {
  return [...s].map((c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) ?? 0))).join('');
}

/** Text as zero-width binary digits (U+200B = 0, U+200C = 1). */
export function zeroWidthBinary(s: string): string {
  return [...s]
    .map((c) =>
      (c.codePointAt(0) ?? 0)
        .toString(2)
        .padStart(8, '0')
        .replace(/0/g, '\u200b')
        .replace(/1/g, '\u200c'),
    )
    .join('');
}

/** Bytes as variation selectors (one per byte). */
export function variationSelectors(s: string): string {
  return [...s]
    .map((c) => {
      const b = c.codePointAt(0) ?? 0;
      return String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16);
    })
    .join('');
}

/** The first bytes of a Linux program. */
export const ELF_HEAD = new Uint8Array([
  0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);
/** The first bytes of a PNG image. */
export const PNG_HEAD = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);
/** The first bytes of a zip archive. */
export const ZIP_HEAD = new Uint8Array([
  0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0,
]);
