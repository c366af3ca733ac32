import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import {
  CHANNEL_NAMES,
  IPC_PREFIX,
  parseChannelInput,
  type ApiHandlers,
} from '../../shared/ipc/contract';
import { isTrustedSender } from './policy';

/**
 * Register one ipcMain handler per contract channel. Each checks the sender frame (our top
 * frame on app://skillbench) and parses the input with the channel's zod schema before the
 * handler runs; results go back as data, never as throws (CONVENTIONS 2).
 */
export function registerIpcHandlers(handlers: ApiHandlers): void {
  for (const name of CHANNEL_NAMES) {
    ipcMain.handle(`${IPC_PREFIX}${name}`, async (event: IpcMainInvokeEvent, raw: unknown) => {
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
      const parsed = parseChannelInput(name, raw);
      if (!parsed.ok) return parsed;
      const handler = handlers[name] as (input: unknown) => Promise<unknown>;
      return handler(parsed.value);
    });
  }
}
