/**
 * The Markdown structure the review judges instructions by (docs/safety-review.md, "Context"):
 * which lines are prose, which sit in a fenced block or a quote, whether the document teaches
 * security, and what is hidden from a rendered view (HTML comments, link titles, alt text).
 * Line-based and linear: one pass over the lines, `indexOf` for comments.
 */
import type { Lines } from './text-lines';

/** Where a line sits in the document. */
export type LineContext = 'prose' | 'fence' | 'quote';

/** One Markdown document, analysed. */
export interface MarkdownDoc {
  /** Per 1-based line (index 0 unused): its context. */
  context: LineContext[];
  /** Per line: the fence's language (lower case, '' when none), for fenced lines. */
  lang: string[];
  /** Per line: the nearby prose presents what follows as an example or a warning. */
  presented: boolean[];
  /** The document talks about security (prompt injection, attacks, malware …). */
  teaching: boolean;
  /** HTML comments: offset of the text after `<!--`, and the text. */
  comments: { offset: number; text: string }[];
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const QUOTE = /^ {0,3}>/;
/** Words that present a block as an example to learn from, not an instruction to follow. */
const PRESENTING =
  /\b(?:examples?|e\.g\.|such as|like this|looks like|avoid|never|don't|do not|bad|malicious|attacks?|attackers?|injection|dangerous|red flags?|warnings?|warning signs?|detect|flags?|anti-patterns?|insecure|vulnerable|suspicious|phishing|payloads?|samples?|illustrat\w*|(?:watch|look) (?:out )?for)\b/i;
/** Whether a line presents what it shows as an example or a warning ("never run …", "such as …"). */
export function presents(line: string): boolean {
  return PRESENTING.test(line);
}
const TEACHING =
  /\b(?:prompt[- ]injection|security|attack|attacker|malicious|malware|threat|red[- ]team|jailbreak|phishing|vulnerab\w*|exploit\w*|scanner|audit)\b/i;

/** Analyse `lines` as Markdown. */
export function analyseMarkdown(lines: Lines): MarkdownDoc {
  const n = lines.count;
  const context: LineContext[] = ['prose'];
  const lang: string[] = [''];
  const presented: boolean[] = [false];
  let teaching = false;
  let fence: { char: string; len: number } | null = null;
  let fenceLang = '';
  let fencePresented = false;
  // The last few prose lines before a block, to see whether it is presented as an example.
  const recent: string[] = [];
  for (let i = 1; i <= n; i++) {
    const line = lines.line(i);
    if (fence) {
      context.push('fence');
      lang.push(fenceLang);
      presented.push(fencePresented);
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]?.[0] === fence.char && (close[1]?.length ?? 0) >= fence.len)
        fence = null;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      fence = { char: open[1]?.[0] ?? '`', len: open[1]?.length ?? 3 };
      fenceLang = (open[2] ?? '').toLowerCase();
      fencePresented = recent.some((r) => PRESENTING.test(r));
      context.push('fence');
      lang.push(fenceLang);
      presented.push(fencePresented);
      continue;
    }
    if (QUOTE.test(line)) {
      context.push('quote');
      lang.push('');
      presented.push(recent.some((r) => PRESENTING.test(r)) || PRESENTING.test(line));
      continue;
    }
    context.push('prose');
    lang.push('');
    presented.push(false);
    if (line.trim() !== '') {
      if (!teaching && TEACHING.test(line)) teaching = true;
      recent.push(line.length > 400 ? line.slice(0, 400) : line);
      if (recent.length > 3) recent.shift();
    }
  }
  const comments: { offset: number; text: string }[] = [];
  const text = lines.text;
  let at = text.indexOf('<!--');
  while (at !== -1 && comments.length < 500) {
    const end = text.indexOf('-->', at + 4);
    const stop = end === -1 ? text.length : end;
    comments.push({ offset: at + 4, text: text.slice(at + 4, stop) });
    if (end === -1) break;
    at = text.indexOf('<!--', end + 3);
  }
  return { context, lang, presented, teaching, comments };
}

/** A link or image in Markdown with what a rendered view hides: its title, or an image's alt text. */
export interface MdLink {
  image: boolean;
  /** Offset of the `[` (or `!`). */
  offset: number;
  text: string;
  url: string;
  title?: string;
}

// Why `[^[\]\n]` and not `[^\]\n]`: excluding the opener keeps each scan from the next `[`, so a
// line of ten thousand `[` costs linear time, not quadratic.
const LINK =
  /(!?)\[([^[\]\n]{0,1000})\]\(\s*<?([^\s()<>]{0,4000})>?(?:\s+(?:"([^"\n]{0,2000})"|'([^'\n]{0,2000})'))?\s*\)/g;
const IMG_TAG = /<img\b([^<>]{0,4000})>/gi;

/** Every inline link and image of a text (reference links aside), and HTML `<img>` tags. */
export function findLinks(text: string): MdLink[] {
  const out: MdLink[] = [];
  if (text.indexOf('](') !== -1) {
    LINK.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = LINK.exec(text)) !== null && out.length < 5000) {
      const title = m[4] ?? m[5];
      out.push({
        image: m[1] === '!',
        offset: m.index,
        text: m[2] ?? '',
        url: m[3] ?? '',
        ...(title !== undefined ? { title } : {}),
      });
    }
  }
  if (/<img\b/i.test(text)) {
    IMG_TAG.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = IMG_TAG.exec(text)) !== null && out.length < 5000) {
      const attrs = m[1] ?? '';
      const src = /\bsrc\s*=\s*["']([^"']{0,4000})["']/i.exec(attrs)?.[1] ?? '';
      const alt = /\balt\s*=\s*["']([^"']{0,2000})["']/i.exec(attrs)?.[1] ?? '';
      out.push({ image: true, offset: m.index, text: alt, url: src });
    }
  }
  return out;
}

/** Text an HTML element hides from a rendered view by its style or its `hidden` attribute. */
export interface StyledHidden {
  /** Offset of the element's opening tag. */
  offset: number;
  /** The element's text (its tags removed), as an agent reads it. */
  text: string;
  /** How it is hidden, in words: `display:none`, `font-size:1px` … */
  how: string;
}

const OPEN_TAG = /<([A-Za-z][\w-]{0,20})\b([^<>]{0,2000})>/g;
/** Style declarations that make text invisible or too small to read on a page. */
const HIDING_STYLE =
  /\b(?:display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0(?:\.0+)?(?![\d.])|font-size\s*:\s*(?:0(?:\.\d+)?(?:px|pt|em|rem|%)?|[01](?:\.\d+)?(?:px|pt))(?![\w.])|(?:max-)?(?:height|width)\s*:\s*0(?:px)?(?![\w.])|(?:left|top|text-indent|margin-left)\s*:\s*-\d{3,}(?:px|em|rem|pt|%)?)/i;
const WHITE_TEXT =
  /(?:^|[;\s"'])color\s*:\s*(?:white|#fff(?:fff)?\b|rgba?\(\s*255\s*,\s*255\s*,\s*255)/i;
const BACKGROUND = /background(?:-color)?\s*:\s*([^;"']{1,60})/i;

/**
 * Elements whose text a rendered page does not show: `display:none`, `visibility:hidden`, zero
 * opacity or size, a font of a pixel or less, text pushed off screen, white text on no background
 * or a white one, and the `hidden` attribute. Bounded: each tag and text is read at most 4000
 * characters far.
 */
export function findStyledHidden(text: string): StyledHidden[] {
  const out: StyledHidden[] = [];
  if (!/style\s*=|\shidden\b/i.test(text)) return out;
  OPEN_TAG.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = OPEN_TAG.exec(text)) !== null && out.length < 500) {
    const tag = (m[1] ?? '').toLowerCase();
    const attrs = m[2] ?? '';
    const style = /\bstyle\s*=\s*(?:"([^"]{0,2000})"|'([^']{0,2000})')/i.exec(attrs);
    const css = style ? (style[1] ?? style[2] ?? '') : '';
    let how = HIDING_STYLE.exec(css)?.[0].replace(/\s+/g, '');
    if (!how && WHITE_TEXT.test(css)) {
      const background = BACKGROUND.exec(css)?.[1]?.trim().toLowerCase();
      if (
        background === undefined ||
        /^(?:white|#fff(?:fff)?|rgba?\(\s*255\s*,\s*255\s*,\s*255)/.test(background)
      )
        how = 'white text on a white page';
    }
    // Why values removed first: `class="note hidden"` is a class name, not the attribute.
    const names = attrs.replace(/"[^"]{0,2000}"|'[^']{0,2000}'/g, '""');
    if (!how && /(?:^|\s)hidden(?:\s|=|\/|$)/i.test(names)) how = 'the hidden attribute';
    if (!how) continue;
    const start = m.index + m[0].length;
    const window = text.slice(start, start + 4000);
    const close = window.search(new RegExp(`</${tag}\\s*>`, 'i'));
    const inner = (close === -1 ? window : window.slice(0, close)).replace(/<[^<>]{0,2000}>/g, ' ');
    const shown = inner.replace(/\s+/g, ' ').trim();
    if (shown !== '') out.push({ offset: m.index, text: shown, how });
  }
  return out;
}
