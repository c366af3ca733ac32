import { useEffect, useState, type DragEvent } from 'react';
import type { ChannelOutput } from '../../../../shared/ipc/contract';
import { formatBytes } from '../../../../shared/text/bytes';
import { useEditorStore, useFilesStore } from './stores';

type Entry = ChannelOutput<'skill.files'>['entries'][number];

/** A skill's files: open, create, rename or move, delete (with undo), drop files in, preview images. */
export function FileTree({ skillDir }: { skillDir: string }) {
  const entries = useFilesStore((s) => s.entries);
  const preview = useFilesStore((s) => s.preview);
  const undo = useFilesStore((s) => s.undo);
  const files = useFilesStore.getState();
  const [selected, setSelected] = useState<string>('SKILL.md');
  const [newName, setNewName] = useState('');
  const [dragging, setDragging] = useState(false);
  const openFile = useEditorStore((s) => s.open);
  const openPath = useEditorStore((s) => s.path);

  useEffect(() => {
    void useFilesStore.getState().load(skillDir);
  }, [skillDir]);

  const selectedEntry = entries.find((e) => e.path === selected);
  const absolute = (path: string) => `${skillDir}/${path}`;
  const base = selectedEntry?.kind === 'directory' ? `${selectedEntry.path}/` : '';
  const target = newName.includes('/') ? newName : `${base}${newName}`;

  async function open(entry: Entry) {
    setSelected(entry.path);
    if (entry.kind !== 'file') return;
    if (entry.view === 'text') {
      files.clearPreview();
      await openFile(absolute(entry.path), skillDir);
      return;
    }
    await files.showPreview(entry.path);
  }

  async function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    event.stopPropagation();
    setDragging(false);
    for (const file of Array.from(event.dataTransfer.files))
      await files.importFile(`${base}${file.name}`, file);
  }

  return (
    <div
      className={dragging ? 'file-tree dragging' : 'file-tree'}
      onDragOver={(e) => {
        e.preventDefault();
        e.stopPropagation();
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
            <li
              key={entry.path}
              role="treeitem"
              aria-selected={selected === entry.path}
              style={{ paddingLeft: depth * 14 }}
            >
              <button
                type="button"
                className={isOpen ? 'file open' : 'file'}
                onClick={() => void open(entry)}
                title={
                  entry.withheld
                    ? `${entry.path} · ${formatBytes(entry.size)} · Not shared: ${entry.withheld}`
                    : `${entry.path} · ${formatBytes(entry.size)}`
                }
              >
                <span
                  className={`file-kind ${entry.kind === 'directory' ? 'folder' : entry.view}`}
                  aria-hidden="true"
                />
                {name}
                {entry.kind === 'file' && entry.view !== 'text' ? (
                  <span className="file-tag">{entry.view}</span>
                ) : null}
                {entry.kind === 'symlink' ? <span className="file-tag">link</span> : null}
                {/* Why say it here: the file stays in the folder but exports and the server leave it out. */}
                {entry.withheld ? <span className="file-tag withheld">not shared</span> : null}
              </button>
            </li>
          );
        })}
      </ul>
      <div className="file-actions">
        <label htmlFor="file-name">Name or path</label>
        <input
          id="file-name"
          value={newName}
          placeholder={`${base}new-file.md`}
          onChange={(e) => setNewName(e.target.value)}
          spellCheck={false}
        />
        <div className="row wrap">
          <button
            type="button"
            disabled={!newName}
            onClick={() => void files.create(target, 'file').then((done) => done && setNewName(''))}
          >
            New file
          </button>
          <button
            type="button"
            disabled={!newName}
            onClick={() =>
              void files.create(target, 'directory').then((done) => done && setNewName(''))
            }
          >
            New folder
          </button>
          <button
            type="button"
            disabled={!newName || !selectedEntry || selected === 'SKILL.md'}
            onClick={() =>
              void files.rename(selected, newName).then((path) => {
                if (path) {
                  setSelected(path);
                  setNewName('');
                }
              })
            }
          >
            Rename / move selected
          </button>
          <button
            type="button"
            disabled={!selectedEntry || selected === 'SKILL.md'}
            onClick={() => void files.remove(selected)}
          >
            Delete selected
          </button>
        </div>
        <p className="help">Drop files here to add them{base ? ` to ${base}` : ''}.</p>
        {undo ? (
          <p role="status">
            Deleted {undo.path}.{' '}
            <button type="button" onClick={() => void files.restore()}>
              Undo
            </button>
          </p>
        ) : null}
      </div>
      {preview ? (
        <figure className="file-preview" aria-label={`Preview of ${preview.path}`}>
          {preview.view === 'image' && preview.dataUrl ? (
            <img src={preview.dataUrl} alt={preview.path} />
          ) : (
            <p>
              {preview.path} is a binary file ({formatBytes(preview.size)}); it is not opened as
              text.
            </p>
          )}
          <figcaption>
            {preview.path} · {formatBytes(preview.size)}
          </figcaption>
        </figure>
      ) : null}
    </div>
  );
}
