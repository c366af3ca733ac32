import { useEffect, useRef } from 'react';
import { monaco } from './monaco';

/** Monaco's language for a file name (Monaco's own highlighters, no language services). */
function languageOf(path: string): string {
  const ext = path.toLowerCase().split('.').pop() ?? '';
  const map: Record<string, string> = {
    py: 'python',
    js: 'javascript',
    mjs: 'javascript',
    cjs: 'javascript',
    ts: 'typescript',
    json: 'json',
    sh: 'shell',
    bash: 'shell',
    yaml: 'yaml',
    yml: 'yaml',
    md: 'markdown',
    html: 'html',
    css: 'css',
    toml: 'ini',
    ini: 'ini',
    xml: 'xml',
    sql: 'sql',
    rb: 'ruby',
    go: 'go',
    rs: 'rust',
    java: 'java',
    ps1: 'powershell',
  };
  return map[ext] ?? 'plaintext';
}

/** Code shown read-only in Monaco with syntax highlighting: the inspector's view of remote files. */
export function ReadOnlyCode({ path, text }: { path: string; text: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const model = monaco.editor.createModel(text, languageOf(path));
    const editor = monaco.editor.create(host.current, {
      model,
      readOnly: true,
      domReadOnly: true,
      automaticLayout: true,
      minimap: { enabled: false },
      theme: 'vs-dark',
      wordWrap: 'on',
      fontSize: 13,
      scrollBeyondLastLine: false,
      ariaLabel: `Contents of ${path} (read-only)`,
    });
    return () => {
      editor.dispose();
      model.dispose();
    };
  }, [path, text]);
  return <div className="read-only-code" ref={host} data-testid="read-only-code" />;
}
