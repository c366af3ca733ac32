/**
 * What a file is by its bytes (docs/safety-review.md, "Files"): magic numbers against the name,
 * so a program named `logo.png` or an archive named `notes.txt` is seen for what it is.
 */

/** What the first bytes say a file is. */
export type MagicKind =
  | { kind: 'executable'; what: string }
  | { kind: 'archive'; what: string }
  | { kind: 'compiled-python' }
  | { kind: 'image' | 'document' | 'font' | 'media'; what: string };

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0): boolean =>
  head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b);

/** The kind of a file from its first bytes, or undefined when they say nothing known. */
export function magicKind(head: Uint8Array): MagicKind | undefined {
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46]))
    return { kind: 'executable', what: 'a Linux program (ELF)' };
  if (startsWith(head, [0x4d, 0x5a])) return { kind: 'executable', what: 'a Windows program (PE)' };
  for (const m of [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
  ])
    if (startsWith(head, m)) return { kind: 'executable', what: 'a macOS program (Mach-O)' };
  if (startsWith(head, [0xca, 0xfe, 0xba, 0xbe]))
    return { kind: 'executable', what: 'a macOS universal program or Java class' };
  if (startsWith(head, [0x00, 0x61, 0x73, 0x6d]))
    return { kind: 'executable', what: 'WebAssembly code' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]))
    return { kind: 'archive', what: 'a zip archive' };
  if (startsWith(head, [0x1f, 0x8b])) return { kind: 'archive', what: 'a gzip archive' };
  if (startsWith(head, [0x42, 0x5a, 0x68])) return { kind: 'archive', what: 'a bzip2 archive' };
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))
    return { kind: 'archive', what: 'an xz archive' };
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]))
    return { kind: 'archive', what: 'a 7-Zip archive' };
  if (startsWith(head, [0x52, 0x61, 0x72, 0x21])) return { kind: 'archive', what: 'a RAR archive' };
  if (startsWith(head, [0x75, 0x73, 0x74, 0x61, 0x72], 257))
    return { kind: 'archive', what: 'a tar archive' };
  // Why bytes 2–3: every CPython .pyc starts with a two-byte version magic followed by \r\n.
  if (
    head.length >= 16 &&
    head[2] === 0x0d &&
    head[3] === 0x0a &&
    (head[1] ?? 0) < 0x10 &&
    (head[1] ?? 0) > 0x02
  )
    return { kind: 'compiled-python' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47])) return { kind: 'image', what: 'a PNG image' };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: 'image', what: 'a JPEG image' };
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return { kind: 'image', what: 'a GIF image' };
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8))
    return { kind: 'image', what: 'a WebP image' };
  if (startsWith(head, [0x00, 0x00, 0x01, 0x00])) return { kind: 'image', what: 'an icon' };
  if (startsWith(head, [0x42, 0x4d])) return { kind: 'image', what: 'a bitmap image' };
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46]))
    return { kind: 'document', what: 'a PDF document' };
  if (
    startsWith(head, [0x77, 0x4f, 0x46, 0x46]) ||
    startsWith(head, [0x77, 0x4f, 0x46, 0x32]) ||
    startsWith(head, [0x00, 0x01, 0x00, 0x00]) ||
    startsWith(head, [0x4f, 0x54, 0x54, 0x4f])
  )
    return { kind: 'font', what: 'a font' };
  if (
    startsWith(head, [0x49, 0x44, 0x33]) ||
    startsWith(head, [0x4f, 0x67, 0x67, 0x53]) ||
    startsWith(head, [0x66, 0x4c, 0x61, 0x43]) ||
    startsWith(head, [0x66, 0x74, 0x79, 0x70], 4)
  )
    return { kind: 'media', what: 'audio or video' };
  return undefined;
}

/** What a file name's extension promises: the same kinds, or `text`. */
export function extensionKind(
  path: string,
):
  | 'executable'
  | 'archive'
  | 'compiled-python'
  | 'image'
  | 'document'
  | 'font'
  | 'media'
  | 'text'
  | 'none'
  | 'other' {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return 'none';
  const ext = name.slice(dot + 1);
  if (/^(?:exe|dll|so|dylib|bin|wasm|node|out|elf|app|o|a|class)$/.test(ext)) return 'executable';
  if (
    /^(?:zip|gz|tgz|bz2|xz|7z|rar|tar|whl|jar|war|apk|egg|skill|docx|xlsx|pptx|odt|ods|odp|epub|nupkg|vsix|crx|xpi)$/.test(
      ext,
    )
  )
    return 'archive';
  if (/^(?:pyc|pyo)$/.test(ext)) return 'compiled-python';
  if (/^(?:png|jpe?g|gif|webp|bmp|ico|tiff?|avif|heic)$/.test(ext)) return 'image';
  if (/^(?:pdf)$/.test(ext)) return 'document';
  if (/^(?:ttf|otf|woff2?|eot)$/.test(ext)) return 'font';
  if (/^(?:mp3|wav|ogg|flac|mp4|mov|webm|m4a|mkv)$/.test(ext)) return 'media';
  if (
    /^(?:md|markdown|mdx|txt|rst|adoc|json|jsonl|ya?ml|toml|ini|cfg|conf|csv|tsv|xml|html?|css|svg|sh|bash|zsh|py|js|mjs|cjs|ts|tsx|jsx|ps1|bat|cmd|rb|pl|php|lua|sql|env|log|lock|example|sample|template|tmpl|j2|jinja|tex|bib|r|go|rs|java|kt|swift|c|h|cpp|hpp|cs)$/.test(
      ext,
    )
  )
    return 'text';
  return 'other';
}
