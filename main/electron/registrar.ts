import type { IpcMainInvokeEvent } from 'electron';
import { CHANNEL_NAMES, IPC_PREFIX } from '../../shared/ipc/contract';
import type { Dispatch } from '../api/dispatch';
import { isTrustedSender } from './policy';

/** The part of Electron's `ipcMain` the registrar uses (so the adapter can be exercised without Electron). */
export interface IpcRegistry {
  handle(
    channel: string,
    listener: (event: Pick<IpcMainInvokeEvent, 'senderFrame'>, raw: unknown) => Promise<unknown>,
  ): void;
}

/**
 * Register one ipcMain handler per contract channel. Each checks the sender frame (our top
 * frame on app://skillbench), then hands the input to the one dispatch the browser shell uses
 * too (schema parse, handler, errors caught and returned as data: docs/conventions.md §2).
 */
export function registerIpcHandlers(ipc: IpcRegistry, dispatch: Dispatch): void {
  for (const name of CHANNEL_NAMES) {
    ipc.handle(`${IPC_PREFIX}${name}`, async (event, raw) => {
      const frame = event.senderFrame;
      if (!frame || !isTrustedSender(frame.url, frame === frame.top)) {
        return {
          ok: false,
          error: {
            code: 'forbidden',
            message: 'This request did not come from the Skillbench window.',
          },
        };
      }
      return dispatch(name, raw);
    });
  }
}
