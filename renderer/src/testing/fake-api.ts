import {
  CHANNEL_NAMES,
  type ApiClient,
  type ApiError,
  type ChannelInput,
  type ChannelName,
  type ChannelOutput,
  type Result,
} from '../../../shared/ipc/contract';

/** One channel's fake: what the test wants it to answer for an input. */
export type FakeChannel<K extends ChannelName> = (
  input: ChannelInput<K>,
) => Result<ChannelOutput<K>> | Promise<Result<ChannelOutput<K>>>;

/** The channels a test fakes; any other channel fails the test when a store calls it. */
export type FakeChannels = { [K in ChannelName]?: FakeChannel<K> };

/** A recorded call. */
export interface FakeCall {
  channel: ChannelName;
  input: unknown;
}

/** A fake API client for store tests: answers from `channels`, and records every call in order. */
export interface FakeApi {
  api: ApiClient;
  calls: FakeCall[];
  /** The inputs of every call to one channel, in order. */
  inputs<K extends ChannelName>(channel: K): ChannelInput<K>[];
  /** Replace or add channels after the store was made. */
  answer(channels: FakeChannels): void;
}

/** Build a fake API client (the stores' only boundary) from per-channel functions. */
export function fakeApi(channels: FakeChannels = {}): FakeApi {
  const table: FakeChannels = { ...channels };
  const calls: FakeCall[] = [];
  const api = Object.fromEntries(
    CHANNEL_NAMES.map((channel) => [
      channel,
      async (input: unknown) => {
        calls.push({ channel, input });
        const answer = table[channel] as ((input: unknown) => unknown) | undefined;
        // Why throw: a store calling a channel the test did not expect is a failure worth seeing.
        if (!answer) throw new Error(`The store called ${channel}, which this test does not fake.`);
        return answer(input);
      },
    ]),
  ) as unknown as ApiClient;
  return {
    api,
    calls,
    inputs: <K extends ChannelName>(channel: K) =>
      calls.filter((c) => c.channel === channel).map((c) => c.input as ChannelInput<K>),
    answer(more) {
      Object.assign(table, more);
    },
  };
}

/** A success result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failure result. */
export function failure(code: string, message: string): { ok: false; error: ApiError } {
  return { ok: false, error: { code, message } };
}

/** What platform/api turns a rejected or thrown call into (the stores only ever see this shape). */
export const INTERNAL = failure('internal', 'Something went wrong inside Skillbench.');

/** A promise the test settles when it chooses, to order answers that race. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

/** Make a deferred answer. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
