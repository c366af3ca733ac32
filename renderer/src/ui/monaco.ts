import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker?worker';

/** Workers for language labels other than the editor's own (the editor feature adds monaco-yaml's). */
const workers = new Map<string, () => Worker>();

// Why `?worker`: Vite bundles each worker as its own file served from our origin, which the
// CSP allows (worker-src 'self').
self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    return workers.get(label)?.() ?? new EditorWorker();
  },
};

/** Serve the worker for a language label (Monaco asks for it by label when a model needs it). */
export function registerMonacoWorker(label: string, start: () => Worker): void {
  workers.set(label, start);
}

/** The Monaco API, its workers served from our origin. */
export { monaco };
