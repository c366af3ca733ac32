import { deflateRawSync, type ZlibOptions } from 'node:zlib';

/** zlib's MIN_LOOKAHEAD (deflate.h): a match can reach back at most the window minus this. */
const MIN_LOOKAHEAD = 258 + 3 + 1;

/**
 * deflateRawSync options for `size` input bytes. Why a window and output chunk fitted to small
 * inputs: deflateRawSync sets up a fresh zlib stream per call, and for files of a few kB setting
 * up the 32 kB window and the 16 kB output chunk is a visible share of the work (2,000 files of
 * 0.5–3 kB: ~15 % less CPU). The compressed bytes are the same (checked byte for byte on those
 * files and in the tests): with a window of at least the input plus MIN_LOOKAHEAD every match
 * distance stays allowed, and the output chunk size only splits the output.
 */
export function deflateOptions(level: number, size: number): ZlibOptions {
  // Why 9: zlib's deflateInit2 turns a raw window of 2^8 into 2^9, so 9 is the smallest there is.
  const windowBits = Math.max(9, Math.min(15, Math.ceil(Math.log2(size + MIN_LOOKAHEAD))));
  // Why + 64: room for deflate's block headers when the bytes do not shrink; 64 is zlib's smallest chunk.
  const chunkSize = Math.max(64, Math.min(16 * 1024, size + 64));
  return { level, windowBits, chunkSize };
}

/** Raw-deflate each buffer with {@link deflateOptions} (the zip encoder's own settings), in order. */
export function deflateAll(buffers: readonly Uint8Array[], level: number): Buffer[] {
  return buffers.map((b) => deflateRawSync(b, deflateOptions(level, b.length)));
}
