import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { parseSkill } from '../../../shared/skill';

/** Options for one preview render. */
export interface MarkdownRenderOptions {
  /** Load `https:` images; off by default so opening a skill tells no server anything. Plain `http:` images are never loaded. */
  allowRemote: boolean;
  /** Folder of the Markdown file inside the skill, `/` separated ('' for SKILL.md at the root). */
  basePath?: string;
}

/** The rendered preview and what was held back from it. */
export interface MarkdownRenderResult {
  html: string;
  /** Remote images shown as placeholders because `allowRemote` is off. */
  blockedRemoteImages: number;
}

/** Where a link or image in the preview points. */
export type PreviewTarget =
  | { kind: 'skill'; path: string }
  | { kind: 'remote'; url: string }
  | { kind: 'anchor'; id: string }
  | { kind: 'data'; url: string }
  | { kind: 'blocked'; reason: string };

/** The Markdown of a SKILL.md without its frontmatter (the whole text when it has none or it is not closed). */
export function stripFrontmatter(text: string): string {
  const parsed = parseSkill(text);
  return parsed.frontmatter && parsed.frontmatter.closer !== null
    ? parsed.body
    : text.replace(/^\ufeff/, '');
}

/**
 * Resolve `target` (as written in the Markdown) against `basePath` inside the skill folder.
 * Returns the normalised `/`-separated path, or null when it is absolute, names a drive, or
 * climbs out of the skill folder with `..` (the same traversal rule as shared/sep skill-uri).
 */
export function resolveSkillPath(basePath: string, target: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(target.replace(/[?#].*$/s, ''));
  } catch {
    return null;
  }
  // Why: a backslash is a separator on Windows and `C:`/`//server` are absolute there; a
  // preview must never reach a file the skill does not contain.
  const unified = decoded.replace(/\\/g, '/');
  if (
    unified === '' ||
    unified.startsWith('/') ||
    /^[A-Za-z]:/.test(unified) ||
    unified.includes('\0')
  )
    return null;
  const parts: string[] = basePath.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return null;
  for (const part of unified.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length > 0 ? parts.join('/') : null;
}

/** Classify a link or image address from the Markdown. */
export function classifyTarget(url: string, basePath = ''): PreviewTarget {
  const trimmed = url.trim();
  if (trimmed === '') return { kind: 'blocked', reason: 'This link has no target.' };
  if (trimmed.startsWith('#')) return { kind: 'anchor', id: trimmed.slice(1) };
  if (trimmed.startsWith('//')) return { kind: 'remote', url: `https:${trimmed}` };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return { kind: 'remote', url: trimmed };
  // markdown-it's validateLink only lets image data: URLs through (gif/png/jpeg/webp); they
  // are inline bytes, not a network load.
  if (scheme === 'data')
    return /^data:image\/(?:gif|png|jpeg|webp);/i.test(trimmed)
      ? { kind: 'data', url: trimmed }
      : { kind: 'blocked', reason: 'Only inline images are shown.' };
  if (scheme !== undefined && !/^[a-z]$/i.test(scheme))
    return {
      kind: 'blocked',
      reason: `Links of type "${scheme}:" are not opened from the preview.`,
    };
  const path = resolveSkillPath(basePath, trimmed);
  return path === null
    ? {
        kind: 'blocked',
        reason: 'This points outside the skill folder, so the preview does not open it.',
      }
    : { kind: 'skill', path };
}

interface RenderEnv {
  allowRemote: boolean;
  basePath: string;
  blockedRemoteImages: number;
}

/** One markdown-it instance for the preview. */
function createRenderer(): MarkdownIt {
  // Why html: false — raw HTML in a skill (script, iframe, onerror=…) is escaped as text rather
  // than passed through (markdown-it docs, "Security": html is off by default for this reason).
  // linkify: false — bare URLs stay text, so nothing becomes clickable that the author did not
  // write as a link. markdown-it's validateLink still drops javascript:/vbscript:/file: and
  // non-image data: URLs.
  const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
  const escape = md.utils.escapeHtml;

  md.renderer.rules.link_open = (tokens, idx, options, env: RenderEnv, self) => {
    const token = tokens[idx];
    const href = token.attrGet('href') ?? '';
    const target = classifyTarget(href, env.basePath);
    token.attrs = [];
    // Why keep href: it gives the link its role and keyboard focus; clicks are intercepted in
    // MarkdownPreview, so nothing navigates the app window (Electron security checklist:
    // "Disable or limit navigation").
    if (target.kind === 'remote') {
      token.attrSet('href', target.url);
      token.attrSet('title', target.url);
      // Why: no Referer and no window.opener if a link ever escapes the click handler
      // (OWASP HTML5 Security Cheat Sheet, "Tabnabbing").
      token.attrSet('rel', 'noreferrer noopener');
      token.attrSet('data-link', 'external');
    } else if (target.kind === 'skill') {
      token.attrSet('href', href);
      token.attrSet('title', target.path);
      token.attrSet('data-link', 'skill');
      token.attrSet('data-skill-path', target.path);
    } else if (target.kind === 'anchor') {
      token.attrSet('href', href);
      token.attrSet('data-link', 'anchor');
    } else {
      token.attrSet('href', '#');
      token.attrSet('title', target.kind === 'blocked' ? `${href} — ${target.reason}` : href);
      token.attrSet('data-link', 'blocked');
    }
    return self.renderToken(tokens, idx, options);
  };

  md.renderer.rules.image = (tokens, idx, options, env: RenderEnv, self) => {
    const token = tokens[idx];
    const src = token.attrGet('src') ?? '';
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    const title = token.attrGet('title');
    const titleAttr = title ? ` title="${escape(title)}"` : '';
    const target = classifyTarget(src, env.basePath);
    if (target.kind === 'skill') {
      // No src yet: MarkdownPreview asks resolveImage for a data: URL, so the page itself never
      // fetches a path (the CSP allows only 'self' and data: images).
      return `<img alt="${escape(alt)}"${titleAttr} data-skill-src="${escape(target.path)}">`;
    }
    if (target.kind === 'data')
      return `<img src="${escape(target.url)}" alt="${escape(alt)}"${titleAttr}>`;
    if (target.kind === 'remote') {
      // Why https only: a plain http image can be read and changed by anyone on the network,
      // so it is never loaded (and not offered to be).
      if (!/^https:/i.test(target.url))
        return `<span class="md-image-placeholder" title="${escape(`${target.url} — plain http: images are never loaded; use https:`)}">${escape(alt || 'Remote image')}</span>`;
      if (env.allowRemote) {
        // Why no-referrer: the image host learns nothing about where it is shown.
        return `<img src="${escape(target.url)}" alt="${escape(alt)}"${titleAttr} referrerpolicy="no-referrer" loading="lazy">`;
      }
      env.blockedRemoteImages++;
      return `<span class="md-image-placeholder" data-remote-src="${escape(target.url)}" title="${escape(target.url)}">${escape(alt || 'Remote image')}</span>`;
    }
    const reason = target.kind === 'blocked' ? target.reason : 'This image is not shown.';
    return `<span class="md-image-placeholder" title="${escape(`${src} — ${reason}`)}">${escape(alt || 'Image')}</span>`;
  };
  return md;
}

let renderer: MarkdownIt | null = null;

/** Markdown to HTML with the preview's link and image rules, not yet sanitised (pure: no DOM). */
export function renderMarkdownHtml(
  markdown: string,
  options: MarkdownRenderOptions,
): MarkdownRenderResult {
  renderer ??= createRenderer();
  const env: RenderEnv = {
    allowRemote: options.allowRemote,
    basePath: options.basePath ?? '',
    blockedRemoteImages: 0,
  };
  const html = renderer.render(markdown, env);
  return { html, blockedRemoteImages: env.blockedRemoteImages };
}

let purifier: ReturnType<typeof DOMPurify> | null = null;
let allowRemoteNow = false;

/** A DOMPurify instance with the preview's policy; created on first use because it needs `window`. */
function getPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const instance = DOMPurify(window);
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      // Why: links never open a new browsing context (OWASP "Tabnabbing"); the click handler
      // decides what happens.
      node.removeAttribute('target');
      if (node.getAttribute('data-link') === 'external')
        node.setAttribute('rel', 'noreferrer noopener');
    }
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src');
      // Defence in depth: markdown-it already held remote images back; a remote src that got
      // here anyway is dropped unless the user allowed remote images.
      if (
        src !== null &&
        !src.startsWith('data:image/') &&
        !(allowRemoteNow && /^https:/i.test(src))
      )
        node.removeAttribute('src');
    }
  });
  purifier = instance;
  return instance;
}

/**
 * Sanitise preview HTML with DOMPurify (needs a DOM: the renderer in Chromium). Defence in
 * depth behind `html: false`: whatever markdown-it emits, no script, event handler, style,
 * frame, object or form survives (DOMPurify README, "USE_PROFILES", "FORBID_TAGS", "FORBID_ATTR").
 */
export function sanitizePreviewHtml(html: string, allowRemote: boolean): string {
  // Why: DOMPurify returns its input unchanged where it cannot run (no DOM); refuse instead.
  if (!DOMPurify.isSupported) throw new Error('The preview needs a browser to sanitise HTML.');
  const instance = getPurifier();
  allowRemoteNow = allowRemote;
  return instance.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      'style',
      'script',
      'iframe',
      'frame',
      'frameset',
      'object',
      'embed',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'option',
      'link',
      'meta',
      'base',
      'svg',
      'math',
    ],
    FORBID_ATTR: ['style', 'target', 'srcset', 'action', 'formaction', 'ping', 'background'],
    ALLOW_DATA_ATTR: false,
    ADD_ATTR: [
      'data-link',
      'data-skill-path',
      'data-skill-src',
      'data-remote-src',
      'referrerpolicy',
      'loading',
    ],
    ALLOWED_URI_REGEXP:
      /^(?:https?:|mailto:|data:image\/(?:gif|png|jpeg|webp);|#|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  });
}

/** Render and sanitise in one go: what MarkdownPreview puts on screen. */
export function renderMarkdownSafe(
  markdown: string,
  options: MarkdownRenderOptions,
): MarkdownRenderResult {
  const result = renderMarkdownHtml(markdown, options);
  return {
    html: sanitizePreviewHtml(result.html, options.allowRemote),
    blockedRemoteImages: result.blockedRemoteImages,
  };
}
