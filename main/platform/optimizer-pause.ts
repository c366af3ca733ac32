// V8's optimizing compiler (TurboFan), paused while a short burst of start-up work runs.
//
// Why: `skillbench serve` builds its catalog once at start (every skill assembled from the kept
// checks) and answers its first `skills/list`. Most of that code runs once, yet TurboFan compiles
// what gets warm on the second core, about 280 ms of CPU for 1,000 skills, which then competes
// with the read-ahead worker and the garbage collector on a two-core machine. Without it the first
// list comes ~40 ms sooner (bench/speed/README.md, "Start-up without the optimizing compiler").
// Once the burst is over the compiler is switched back on, so a long-running server's reads run
// optimized code as before.
import { setFlagsFromString } from 'node:v8';

/** V8 options the user gave that decide the optimizing compiler: theirs are left alone. */
const USER_TIER_OPTION = /(^|\s)--(no-)?(opt|turbofan|jitless|max-opt)(=|\s|$)/;

/**
 * Pause the optimizing compiler until the returned function is called (once; later calls do
 * nothing). Nothing is paused when the process was started with its own choice about it
 * (`--no-opt`, `--jitless`, … on the command line or in NODE_OPTIONS).
 */
export function pauseOptimizer(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): () => void {
  const given = `${execArgv.join(' ')} ${nodeOptions ?? ''}`;
  if (USER_TIER_OPTION.test(given)) return () => undefined;
  setFlagsFromString('--no-turbofan');
  let resumed = false;
  return () => {
    if (resumed) return;
    resumed = true;
    setFlagsFromString('--turbofan');
  };
}
