import { useEffect, useMemo, useRef } from 'react';
import type { MouseEvent } from 'react';
import { renderMarkdownSafe } from './markdown-render';
import './markdown-preview.css';

export { stripFrontmatter } from './markdown-render';

/** Props of the sanitised Markdown preview. */
export interface MarkdownPreviewProps {
  /** The Markdown body (use `stripFrontmatter` on a whole SKILL.md). */
  markdown: string;
  /** A `data:` URL for an image inside the skill (path relative to the skill folder), or null. */
  resolveImage: (relativePath: string) => Promise<string | null>;
  /** Whether `http(s)` images may load. */
  allowRemote: boolean;
  /** The user asked to load remote images. */
  onAllowRemote: () => void;
  /** A relative link inside the skill was activated (path relative to the skill folder). */
  onOpenLink?: (relativePath: string) => void;
  /** An `http(s)` link was activated; the preview itself never navigates. */
  onOpenExternal?: (url: string) => void;
  /** Folder of the previewed file inside the skill ('' for SKILL.md). */
  basePath?: string;
}

/** Resolved image data URLs by skill path, so re-rendering on each keystroke does not flicker. */
type ImageCache = Map<string, string | null>;

/** Sanitised Markdown preview: no scripts, no navigation, no remote loads unless allowed. */
export function MarkdownPreview({
  markdown,
  resolveImage,
  allowRemote,
  onAllowRemote,
  onOpenLink,
  onOpenExternal,
  basePath = '',
}: MarkdownPreviewProps) {
  const { html, blockedRemoteImages } = useMemo(
    () => renderMarkdownSafe(markdown, { allowRemote, basePath }),
    [markdown, allowRemote, basePath],
  );
  const hostRef = useRef<HTMLDivElement>(null);
  const cache = useRef<ImageCache>(new Map());
  const resolveRef = useRef(resolveImage);
  resolveRef.current = resolveImage;

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let live = true;
    for (const img of host.querySelectorAll<HTMLImageElement>('img[data-skill-src]')) {
      const path = img.dataset.skillSrc ?? '';
      const show = (url: string | null): void => {
        // Why only data:image/ URLs: the page must not fetch anything itself (CSP img-src
        // 'self' data:), and an image element never runs script from its source.
        if (url !== null && url.startsWith('data:image/')) img.src = url;
        else {
          img.classList.add('md-image-missing');
          img.title = `${path} — this image could not be found in the skill folder.`;
        }
      };
      if (cache.current.has(path)) {
        show(cache.current.get(path) ?? null);
        continue;
      }
      resolveRef
        .current(path)
        .catch(() => null)
        .then((url) => {
          cache.current.set(path, url);
          if (live) show(url);
        })
        .catch(() => undefined);
    }
    return () => {
      live = false;
    };
  }, [html]);

  /** Every link activation lands here: nothing navigates the window (Electron security checklist, "Disable or limit navigation"). */
  const activate = (event: MouseEvent<HTMLDivElement>): void => {
    const anchor = (event.target as Element).closest('a');
    if (!anchor || !hostRef.current?.contains(anchor)) return;
    event.preventDefault();
    const kind = anchor.getAttribute('data-link');
    if (kind === 'external') onOpenExternal?.(anchor.getAttribute('href') ?? '');
    else if (kind === 'skill') onOpenLink?.(anchor.getAttribute('data-skill-path') ?? '');
  };

  return (
    <div className="markdown-preview-wrap">
      {blockedRemoteImages > 0 && !allowRemote ? (
        <div className="md-remote-bar" role="status">
          <span>
            {blockedRemoteImages === 1 ? 'One image comes' : `${blockedRemoteImages} images come`}{' '}
            from the internet and {blockedRemoteImages === 1 ? 'is' : 'are'} not loaded, so no
            server learns that you opened this skill.
          </span>
          <button type="button" onClick={onAllowRemote}>
            Load remote images
          </button>
        </div>
      ) : null}
      <div
        ref={hostRef}
        className="markdown-preview"
        data-state="ready"
        onClick={activate}
        onAuxClick={activate}
        // Safe to inject: markdown-it (html: false) then DOMPurify in renderMarkdownSafe.
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </div>
  );
}
