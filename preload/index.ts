import { contextBridge, ipcRenderer } from 'electron';
import {
  CHANNEL_NAMES,
  EVENT_NAMES,
  IPC_PREFIX,
  type ApiClient,
  type EventName,
} from '../shared/ipc/contract';

// Why no raw ipcRenderer: the page gets one function per contract channel and a filtered
// event subscription, nothing else (Electron security checklist 3, 17).

const api = Object.fromEntries(
  CHANNEL_NAMES.map((name) => [
    name,
    (input: unknown) => ipcRenderer.invoke(`${IPC_PREFIX}${name}`, input),
  ]),
) as unknown as ApiClient;

/** Subscribe to a main-process event; returns the unsubscribe function. */
function on(event: EventName, listener: (payload: unknown) => void): () => void {
  if (!EVENT_NAMES.includes(event)) throw new Error(`Unknown event ${String(event)}`);
  const wrapped = (_e: unknown, name: EventName, payload: unknown) => {
    if (name === event) listener(payload);
  };
  ipcRenderer.on(`${IPC_PREFIX}event`, wrapped);
  return () => ipcRenderer.removeListener(`${IPC_PREFIX}event`, wrapped);
}

contextBridge.exposeInMainWorld('skillbench', { api, on });
