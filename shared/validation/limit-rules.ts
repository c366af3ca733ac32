import type { LimitExceeded } from '../skill/limits';
import { formatBytes } from '../text/bytes';
import { grouped } from '../text/words';
import type { RuleContext } from './rule-context';

const RULE = 'file/too-complex';

/** What went past the bound, in words ("its frontmatter is 307.2 KB (the limit is 262.1 KB)"). */
export function limitWords(o: LimitExceeded): string {
  const found = (n: number, unit: (x: number) => string): string =>
    o.exact ? unit(n) : `more than ${unit(o.max)}`;
  switch (o.limit) {
    case 'frontmatterBytes':
      return `its frontmatter is ${found(o.found, formatBytes)} (the limit is ${formatBytes(o.max)})`;
    case 'bodyBytes':
      return `its instructions (the body) are ${found(o.found, formatBytes)} (the limit is ${formatBytes(o.max)}), so only the first ${formatBytes(o.max)} were checked for placeholders and shell commands`;
    case 'depth':
      return `its frontmatter is nested ${o.exact ? `about ${grouped(o.found)}` : `more than ${grouped(o.max)}`} levels deep (the limit is ${grouped(o.max)})`;
    case 'nodes':
      return `its frontmatter has ${o.exact ? `about ${grouped(o.found)}` : `more than ${grouped(o.max)}`} keys, values and list items (the limit is ${grouped(o.max)})`;
    case 'aliases':
      return `its frontmatter has ${found(o.found, grouped)} YAML anchors and aliases (the limit is ${grouped(o.max)})`;
    case 'findings':
      return `more than ${grouped(o.max)} problems were found for this target, and only ${grouped(o.max)} are listed`;
  }
}

/** The finding for one bound a file went past (shared/skill/limits.ts VALIDATION_LIMITS). */
export function reportLimit(ctx: RuleContext, o: LimitExceeded): void {
  const unread = o.limit !== 'bodyBytes' && o.limit !== 'findings';
  ctx.report(RULE, {
    message: `This file is too large or complex to check fully: ${limitWords(o)}.${unread ? ' Its fields were not read, so only the rest of the file was checked.' : ''}`,
    detail: `VALIDATION_LIMITS.${o.limit} = ${o.max}; found ${o.exact ? o.found : `> ${o.max}`}`,
    start: o.start,
    end: o.end,
  });
}

/** The bounds the file went past before anything expensive was done (docs/skill-format.md §1 applies to what was read). */
export function limitRules(ctx: RuleContext): void {
  for (const o of ctx.parsed.overLimits) reportLimit(ctx, o);
}
