import { isMap, isScalar } from 'yaml';
import { eolOf, lineEndingFix, replaceFix } from './fixes';
import type { RuleContext } from './rule-context';

/** Boundary traps of docs/skill-format.md §1: BOM, missing/late/unclosed frontmatter, `...` closer, `--- `. */
export function frontmatterBoundaryRules(ctx: RuleContext): void {
  const p = ctx.parsed;
  for (const issue of p.boundaryIssues) {
    switch (issue.kind) {
      case 'bom':
        // docs/skill-format.md §1: the official validators reject a UTF-8 BOM before `---`;
        // gray-matter (agentskills-mcp) strips it.
        ctx.report('frontmatter/bom', {
          message:
            ctx.sev('frontmatter/bom') === 'error'
              ? 'The file starts with an invisible byte-order mark (BOM). This reader rejects the file because of it. Remove it.'
              : 'The file starts with an invisible byte-order mark (BOM). This reader skips it, but the official validators and Claude upload reject the file. Remove it.',
          detail: 'U+FEFF before the opening ---',
          start: 0,
          end: 1,
          fixes: [replaceFix('Remove the byte-order mark', 0, 1, '', true)],
        });
        break;
      case 'missing':
        // Spec §1: frontmatter must start at byte 0 with a `---` line.
        ctx.report('frontmatter/missing', {
          message:
            'This file has no frontmatter. SKILL.md must start with a line "---", then fields such as name and description, then another "---" line.',
          detail: 'The first line is not ---',
          start: issue.start,
          end:
            p.lines.positionAt(issue.start).line === 1
              ? Math.min(p.text.length, lineEndOf(p.text, issue.start))
              : issue.start,
        });
        break;
      case 'not-at-start': {
        // Spec §1: a blank line or comment before `---` is rejected everywhere.
        const blankOnly = p.text.slice(issue.start, issue.end).trim() === '';
        ctx.report('frontmatter/not-at-start', {
          message:
            'There is text or an empty line before the opening "---". The "---" must be the very first line, or the frontmatter is ignored.',
          detail: `${issue.end - issue.start} characters before the opening ---`,
          start: issue.start,
          end: issue.end,
          fixes: [
            replaceFix(
              blankOnly ? 'Remove the empty lines before ---' : 'Remove the lines before ---',
              issue.start,
              issue.end,
              '',
              blankOnly,
            ),
          ],
        });
        break;
      }
      case 'unclosed': {
        // Spec §1: unclosed frontmatter is rejected.
        const eol = eolOf(p);
        const needsBreak = issue.start > 0 && !/[\r\n]/.test(p.text[issue.start - 1] ?? '');
        ctx.report('frontmatter/unclosed', {
          message:
            'The frontmatter is never closed. Add a line with exactly "---" after the last field.',
          detail: 'No closing --- line after the opening ---',
          start: p.frontmatter?.openStart ?? 0,
          end: p.frontmatter?.openEnd ?? 0,
          fixes: [
            replaceFix(
              'Add the closing ---',
              issue.start,
              issue.start,
              `${needsBreak ? eol : ''}---${eol}`,
              false,
            ),
          ],
        });
        break;
      }
      case 'dots-closer':
        // Spec §1: `...` instead of `---` is rejected.
        ctx.report('frontmatter/dots-closer', {
          message: 'The frontmatter is closed with "..." instead of "---". Use "---".',
          detail: 'YAML document end marker ... used as the frontmatter closer',
          start: issue.start,
          end: issue.end,
          fixes: [replaceFix('Replace ... with ---', issue.start, issue.end, '---', true)],
        });
        break;
      case 'delimiter-whitespace': {
        // docs/skill-format.md §1: `--- ` with trailing spaces is accepted by the reference
        // validator; skill-creator matches the opening line as exactly `---` and a line break.
        const opener = issue.start < (p.frontmatter?.openEnd ?? 0) + 1;
        ctx.report(opener ? 'frontmatter/opener-whitespace' : 'frontmatter/delimiter-whitespace', {
          message: opener
            ? 'The first "---" line has spaces after it. Claude upload does not find the frontmatter then and rejects the skill. Remove the spaces.'
            : 'The closing "---" line has spaces after it. Some tools then do not see where the frontmatter ends. Remove the spaces.',
          detail: `Trailing whitespace after the ${opener ? 'opening' : 'closing'} ---`,
          start: issue.start,
          end: issue.end,
          fixes: [replaceFix('Remove the trailing spaces', issue.start, issue.end, '', true)],
        });
        break;
      }
    }
  }
  const doc = p.document;
  const fm = p.frontmatter;
  if (doc && fm) {
    const c = doc.contents;
    // Spec §1: frontmatter must be a mapping.
    if (c !== null && !isMap(c) && !(isScalar(c) && c.value === null)) {
      const s = p.nodeSpan(c);
      ctx.report('frontmatter/not-mapping', {
        message:
          'The frontmatter must be a list of "field: value" lines, but it is something else (a plain text or a list).',
        detail: 'Frontmatter root is not a YAML mapping',
        start: s?.start ?? fm.contentStart,
        end: s?.end ?? fm.contentEnd,
        pointer: '',
      });
    }
  }
}

function lineEndOf(text: string, from: number): number {
  let i = from;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

/** File-level traps: CRLF / mixed line endings and a lowercase `skill.md` (docs/skill-format.md §1). */
export function fileRules(ctx: RuleContext): void {
  const p = ctx.parsed;
  if (p.lineEnding === 'crlf' || p.lineEnding === 'mixed' || p.lineEnding === 'cr') {
    // Spec §1: CRLF is accepted by official validators, broken in many third-party loaders.
    const first = p.text.indexOf('\r');
    const kind =
      p.lineEnding === 'mixed'
        ? 'mixed line endings'
        : p.lineEnding === 'cr'
          ? 'old Mac (CR) line endings'
          : 'Windows line endings (CRLF)';
    ctx.report('file/line-endings', {
      message: `The file uses ${kind}. Many tools that load skills expect plain LF line endings; export converts them.`,
      detail: `line endings: ${p.lineEnding}`,
      start: first,
      end: first + (p.text.charCodeAt(first + 1) === 10 ? 2 : 1),
      fixes: [lineEndingFix(p.text)],
    });
  }
  const name = ctx.fileView?.fileName;
  if (name !== undefined && name !== 'SKILL.md' && name.toLowerCase() === 'skill.md') {
    // Spec §1: a file named `skill.md` is accepted by skills-ref only.
    ctx.report('file/wrong-name', {
      message: `The file is named "${name}". It must be named "SKILL.md" in capital letters; upload targets do not find it otherwise.`,
      detail: `file name ${name}, expected SKILL.md`,
    });
  }
}
