import { useCallback, useEffect, useState, type DragEvent } from 'react';
import type { ChannelOutput } from '../../../shared/ipc/contract';
import { api } from '../platform/api';
import { useEditorStore } from '../state/editor-store';
import { useLibraryStore } from '../state/library-store';

type Entry = ChannelOutput<'skill.files'>['entries'][number];
type Preview = ChannelOutput<'file.preview'>;

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A skill's files: open, create, rename or move, delete (with undo), drop files in, preview images. */
export function FileTree({ skillDir }: { skillDir: string }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [selected, setSelected] = useState<string>('SKILL.md');
  const [newName, setNewName] = useState('');
  const [undo, setUndo] = useState<{ token: string; path: string } | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [dragging, setDragging] = useState(false);
  const showError = useLibraryStore((s) => s.showError);
  const openFile = useEditorStore((s) => s.open);
  const openPath = useEditorStore((s) => s.path);

  const reload = useCallback(async () => {
    const result = await api['skill.files']({ skillDir });
    if (result.ok) setEntries(result.value.entries);
    else showError(result.error);
  }, [skillDir, showError]);

  useEffect(() => {
    void reload();
    setPreview(null);
    setUndo(null);
  }, [reload]);

  const selectedEntry = entries.find((e) => e.path === selected);
  const absolute = (path: string) => `${skillDir}/${path}`;

  async function open(entry: Entry) {
    setSelected(entry.path);
    if (entry.kind !== 'file') return;
    if (entry.view === 'text') {
      setPreview(null);
      await openFile(absolute(entry.path), skillDir);
      return;
    }
    const result = await api['file.preview']({ skillDir, path: entry.path });
    if (result.ok) setPreview(result.value);
    else showError(result.error);
  }

  async function run<T>(promise: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>): Promise<T | null> {
    const result = await promise;
    if (!result.ok) {
      showError(result.error);
      return null;
    }
    showError(null);
    await reload();
    return result.value;
  }

  const base = selectedEntry?.kind === 'directory' ? `${selectedEntry.path}/` : '';

  async function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    for (const file of Array.from(event.dataTransfer.files)) {
      await run(api['file.import']({ skillDir, path: `${base}${file.name}`, base64: toBase64(await file.arrayBuffer()) }));
    }
  }

  return (
    <div
      className={dragging ? 'file-tree dragging' : 'file-tree'}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => void onDrop(e)}
      aria-label="Skill files"
      role="region"
    >
      <ul role="tree" aria-label="Files">
        {entries.map((entry) => {
          const depth = entry.path.split('/').length - 1;
          const name = entry.path.split('/').pop();
          const isOpen = openPath === absolute(entry.path);
          return (
            <li key={entry.path} role="treeitem" aria-selected={selected === entry.path} style={{ paddingLeft: depth * 14 }}>
              <button type="button" className={isOpen ? 'file open' : 'file'} onClick={() => void open(entry)} title={`${entry.path} · ${formatSize(entry.size)}`}>
                {entry.kind === 'directory' ? '📁' : entry.view === 'image' ? '🖼' : entry.view === 'binary' ? '📦' : '📄'} {name}
              </button>
            </li>
          );
        })}
      </ul>
      <div className="file-actions">
        <label htmlFor="file-name">Name or path</label>
        <input id="file-name" value={newName} placeholder={`${base}new-file.md`} onChange={(e) => setNewName(e.target.value)} spellCheck={false} />
        <div className="row wrap">
          <button type="button" disabled={!newName} onClick={() => void run(api['file.create']({ skillDir, path: newName.includes('/') ? newName : `${base}${newName}`, kind: 'file' })).then((v) => v && setNewName(''))}>
            New file
          </button>
          <button type="button" disabled={!newName} onClick={() => void run(api['file.create']({ skillDir, path: newName.includes('/') ? newName : `${base}${newName}`, kind: 'directory' })).then((v) => v && setNewName(''))}>
            New folder
          </button>
          <button type="button" disabled={!newName || !selectedEntry || selected === 'SKILL.md'} onClick={() => void run(api['file.rename']({ skillDir, from: selected, to: newName })).then((v) => v && (setSelected(v.path), setNewName('')))}>
            Rename / move selected
          </button>
          <button
            type="button"
            disabled={!selectedEntry || selected === 'SKILL.md'}
            onClick={() =>
              void run(api['file.delete']({ skillDir, path: selected })).then((v) => {
                if (v) setUndo({ token: v.undoToken, path: selected });
              })
            }
          >
            Delete selected
          </button>
        </div>
        <p className="help">Drop files here to add them{base ? ` to ${base}` : ''}.</p>
        {undo ? (
          <p role="status">
            Moved {undo.path} to Skillbench’s trash.{' '}
            <button type="button" onClick={() => void run(api['file.restore']({ undoToken: undo.token })).then((v) => v && setUndo(null))}>
              Undo
            </button>
          </p>
        ) : null}
      </div>
      {preview ? (
        <figure className="file-preview" aria-label={`Preview of ${preview.path}`}>
          {preview.view === 'image' && preview.dataUrl ? <img src={preview.dataUrl} alt={preview.path} /> : <p>{preview.path} is a binary file ({formatSize(preview.size)}); it is not opened as text.</p>}
          <figcaption>
            {preview.path} · {formatSize(preview.size)}
          </figcaption>
        </figure>
      ) : null}
    </div>
  );
}
