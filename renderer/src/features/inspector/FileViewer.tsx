import { lazy, Suspense, useState } from 'react';
import { formatBytes } from '../../../../shared/text/bytes';
import { useInspectorStore } from './stores';
import { StatusBadge } from './StatusBadge';

const MarkdownPreview = lazy(() =>
  import('../../ui/MarkdownPreview').then((m) => ({ default: m.MarkdownPreview })),
);
const ReadOnlyCode = lazy(() =>
  import('../../ui/ReadOnlyCode').then((m) => ({ default: m.ReadOnlyCode })),
);

/** Image types shown inline; they load from a `data:` URL inside an <img>, which never runs script. */
const INLINE_IMAGES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
  'image/avif',
  'image/bmp',
]);

/** One file of a remote skill, read and verified when opened: Markdown rendered inert, code read-only, images, size for binaries. */
export function FileViewer() {
  const file = useInspectorStore((s) => s.openFile);
  const imageDataUrl = useInspectorStore((s) => s.imageDataUrl);
  const closeFile = useInspectorStore((s) => s.closeFile);
  const [allowRemote, setAllowRemote] = useState(false);
  const [asSource, setAsSource] = useState(false);
  if (!file) return null;
  const read = file.read;
  const content = read?.content;
  const mime = content?.mimeType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const isMarkdown = /\.(md|markdown)$/i.test(file.path) || mime === 'text/markdown';
  const basePath = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';

  return (
    <section
      aria-label="File"
      className="insp-block insp-file"
      data-state={file.state}
      data-path={file.path}
    >
      <div className="row insp-file-head">
        <h4>{file.path}</h4>
        {read ? <StatusBadge status={read.verification.status} /> : null}
        {content ? <span className="muted">{formatBytes(content.size)}</span> : null}
        {isMarkdown && content?.text !== undefined ? (
          <button type="button" aria-pressed={asSource} onClick={() => setAsSource(!asSource)}>
            {asSource ? 'Show rendered' : 'Show source'}
          </button>
        ) : null}
        <button type="button" onClick={closeFile} aria-label={`Close ${file.path}`}>
          Close
        </button>
      </div>
      {file.state === 'loading' ? <p role="status">Reading and checking {file.path}…</p> : null}
      {read && read.verification.status !== 'verified' ? (
        <div role={content ? 'status' : 'alert'} className={content ? 'insp-warn' : 'insp-error'}>
          {content
            ? 'This file could not be verified; it is shown for reading only.'
            : 'This file failed verification, so its content is not shown.'}
          <ul>
            {read.verification.reasons.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {content?.text !== undefined ? (
        isMarkdown && !asSource ? (
          <Suspense fallback={<p className="muted">Loading the preview…</p>}>
            <div className="insp-preview">
              <MarkdownPreview
                markdown={content.text}
                basePath={basePath}
                allowRemote={allowRemote}
                onAllowRemote={() => setAllowRemote(true)}
                resolveImage={imageDataUrl}
              />
            </div>
          </Suspense>
        ) : (
          <Suspense fallback={<pre className="insp-source">{content.text}</pre>}>
            <ReadOnlyCode path={file.path} text={content.text} />
          </Suspense>
        )
      ) : content?.base64 !== undefined ? (
        INLINE_IMAGES.has(mime) ? (
          <img
            className="insp-image"
            src={`data:${mime};base64,${content.base64}`}
            alt={`Image ${file.path}`}
          />
        ) : (
          <p>
            Binary file ({mime || 'unknown type'}), {formatBytes(content.size)}. It is not shown.
          </p>
        )
      ) : null}
    </section>
  );
}
