/**
 * The one dispatch both shells use: parse the input with the channel's schema, call the
 * handler, catch what it throws, and give back the contract's Result. The Electron IPC
 * registrar and the browser-shell HTTP host are thin adapters over it, so a handler behaves the
 * same in both (the Electron shell cannot be run on every machine, which is why it shares this
 * code path rather than resembling it).
 */
import {
  isChannelName,
  parseChannelInput,
  type ApiError,
  type ApiHandlers,
  type Result,
} from '../../shared/ipc/contract';

/** Call a channel by name with an untrusted input; always resolves to a Result, never throws. */
export type Dispatch = ((name: string, raw: unknown) => Promise<Result<unknown>>) & {
  /**
   * Resolves once no call is under way (calls made meanwhile included). Why: a shell that closes
   * waits for the work it was asked to do (an update writing an agent's folder, its lock file and
   * merge base) before the process ends or its folders are removed.
   */
  settle(): Promise<void>;
};

/** What the dispatch reports about a handler that threw (for the log; the window gets a plain sentence). */
export type DispatchFailure = (channel: string, error: unknown) => void;

/** The error a handler that threw turns into: a plain sentence, the technical detail apart. */
export function internalError(channel: string, error: unknown): ApiError {
  // Why the message and not the stack: the stack goes to the log (onFailure); the window shows what happened.
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    code: 'internal',
    message: `Skillbench hit an unexpected problem while handling "${channel}". Nothing else was changed; try again, and if it keeps happening, report it with the details.`,
    detail,
  };
}

/** Build the dispatch over the handlers (see the module comment). */
export function createDispatch(handlers: ApiHandlers, onFailure?: DispatchFailure): Dispatch {
  const call = async (name: string, raw: unknown): Promise<Result<unknown>> => {
    if (!isChannelName(name))
      return {
        ok: false,
        error: { code: 'unknown-channel', message: `There is no request called ${name}.` },
      };
    const parsed = parseChannelInput(name, raw);
    if (!parsed.ok) return parsed;
    const handler = handlers[name] as (input: unknown) => Promise<Result<unknown>>;
    try {
      return await handler(parsed.value);
    } catch (error) {
      onFailure?.(name, error);
      return { ok: false, error: internalError(name, error) };
    }
  };
  const running = new Set<Promise<Result<unknown>>>();
  return Object.assign(
    (name: string, raw: unknown): Promise<Result<unknown>> => {
      const result = call(name, raw);
      running.add(result);
      // Why no catch: `call` never rejects (a handler that throws becomes a Result above).
      void result.finally(() => running.delete(result));
      return result;
    },
    {
      async settle(): Promise<void> {
        while (running.size > 0) await Promise.allSettled([...running]);
      },
    },
  );
}
