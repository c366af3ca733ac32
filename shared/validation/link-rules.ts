import type { ParsedSkill } from '../skill/frontmatter-parser';
import type { FileView } from './types';
import type { RuleContext } from './rule-context';
import {
  classifyLinkTarget,
  findFileMentions,
  findMarkdownLinks,
  type FileMention,
  type MarkdownLink,
} from './markdown-links';

/** The body's links and file mentions, found once per text however many profiles are checked. */
const FOUND = new WeakMap<ParsedSkill, { links: MarkdownLink[]; mentions: FileMention[] }>();

function found(parsed: ParsedSkill): { links: MarkdownLink[]; mentions: FileMention[] } {
  let f = FOUND.get(parsed);
  if (!f) {
    // Why only the checked part: past VALIDATION_LIMITS.bodyBytes the core reports
    // file/too-complex; scanning a 50 MB body for links cost seconds and hundreds of MB.
    const body =
      parsed.checkedBodyEnd < parsed.text.length
        ? parsed.text.slice(parsed.bodyStart, parsed.checkedBodyEnd)
        : parsed.body;
    const links = findMarkdownLinks(body, parsed.bodyStart);
    f = { links, mentions: findFileMentions(body, parsed.bodyStart, links) };
    FOUND.set(parsed, f);
  }
  return f;
}

/** Look paths up in a file view: found, or the path that differs only in letter case. */
function lookUpIn(view: FileView): (path: string) => { found: boolean; other?: string } {
  let paths: Set<string> | undefined;
  let lower: Map<string, string> | undefined;
  return (path) => {
    paths ??= new Set(view.entries.map((e) => e.path));
    if (paths.has(path)) return { found: true };
    if (!lower) {
      lower = new Map();
      for (const e of view.entries)
        if (!lower.has(e.path.toLowerCase())) lower.set(e.path.toLowerCase(), e.path);
    }
    const other = lower.get(path.toLowerCase());
    return other === undefined ? { found: false } : { found: false, other };
  };
}

/**
 * Relative Markdown links in the body must resolve to a file or folder of the skill, and so must
 * the paths into its scripts/, references/ and assets/ folders that the instructions name
 * (docs/skill-format.md §2.8). Checked against the file view, so the answer is the same wherever
 * the skill is judged: the editor as it is typed, the library, an export's package, a server.
 * Ranges cover the path in SKILL.md.
 */
export function linkRules(ctx: RuleContext): void {
  const view = ctx.fileView;
  if (!view) return;
  if (
    !ctx.on('links/broken') &&
    !ctx.on('links/outside-skill') &&
    !ctx.on('links/mentioned-missing')
  )
    return;
  const { links, mentions } = found(ctx.parsed);
  if (links.length === 0 && mentions.length === 0) return;
  const lookUp = lookUpIn(view);
  for (const link of links) {
    if (!ctx.keeps('links/broken') && !ctx.keeps('links/outside-skill')) break;
    const t = classifyLinkTarget(link.target);
    if (t.kind === 'external') continue;
    const what = link.image ? 'image' : 'link';
    const at = { start: link.start, end: link.end };
    if (t.kind === 'relative') {
      const hit = lookUp(t.path);
      if (hit.found) continue;
      ctx.report('links/broken', {
        message:
          hit.other !== undefined
            ? `The ${what} "${link.target}" points at a file that is not in the skill folder. There is a "${hit.other}" that differs only in capital letters; most systems treat them as different files.`
            : `The ${what} "${link.target}" points at a file that is not in the skill folder, so the agent cannot open it. Add the file or fix the link.`,
        detail: `relative link target ${t.path} not found in the skill folder`,
        ...at,
      });
    } else {
      ctx.report('links/outside-skill', {
        message:
          t.kind === 'absolute'
            ? `The ${what} "${link.target}" is an absolute path on this computer. Once the skill is shared it points nowhere; copy the file into the skill and link to it relatively.`
            : `The ${what} "${link.target}" leaves the skill folder. Only the skill folder is packaged, so the link breaks once the skill is shared; copy the file into the skill.`,
        detail: `${t.kind} link target ${t.path} outside the skill folder`,
        ...at,
      });
    }
  }
  // Each missing path once, where the instructions first name it.
  const named = new Set<string>();
  for (const mention of mentions) {
    if (!ctx.keeps('links/mentioned-missing')) break;
    const t = classifyLinkTarget(mention.path);
    if (t.kind !== 'relative' || named.has(t.path)) continue;
    named.add(t.path);
    const hit = lookUp(t.path);
    if (hit.found) continue;
    const folder = t.path.slice(0, t.path.indexOf('/'));
    ctx.report('links/mentioned-missing', {
      message:
        hit.other !== undefined
          ? `The instructions name "${t.path}", but the skill holds "${hit.other}", which differs in capital letters; most systems treat them as different files.`
          : `The instructions name "${t.path}", but the skill's ${folder} folder has no such file, so the agent cannot ${folder === 'scripts' ? 'run' : 'open'} it. Add the file or correct the path.`,
      detail: `${t.path} named in the body, not found in the skill folder`,
      start: mention.start,
      end: mention.end,
    });
  }
}
