// V8's optimizing compiler (TurboFan), paused for a short burst of start-up work.
//
// Why: `skillbench serve` builds its catalog once at start (every skill assembled from the kept
// checks) and answers its first `skills/list`. Much of that code runs once, yet TurboFan compiles
// what gets warm on the second core, about 280 ms of CPU for 1,000 skills, which competes with the
// read-ahead worker and the garbage collector on a two-core machine. Without it the first list of
// 1,000 skills comes ~40 ms sooner. Why a bound as well: code that runs per skill does pay for
// its optimizing once a library is large or every skill is checked (paused for the whole build,
// the first list of 10,000 skills came ~400 ms later, and a first start of 1,000 skills with
// nothing kept ~200 ms later), so the compiler comes back on at the bound even if the work is
// not done. Measured in bench/speed/README.md, "Start-up without the optimizing compiler".
//
// Why this flag may change while running, though Node's documentation warns that V8 flags set
// after start may behave unpredictably: `--turbofan` is read each time V8 decides whether to
// optimize a warm function, and only that decision changes. Code runs the same optimized or not,
// and optimizing resumes when it is switched on again (both observed in optimizer-pause.test.ts,
// in a process of its own). Nothing else is changed, and a user's own choice is left as it is.
import { setFlagsFromString } from 'node:v8';

/** V8 options the user gave that decide the optimizing compiler: theirs are left alone. */
const USER_TIER_OPTION = /(^|\s)--(no-)?(opt|turbofan|jitless|max-opt)(=|\s|$)/;

export interface OptimizerPauseOptions {
  /** Switch the compiler on again after this long even if nobody resumed it (an unref'd timer). */
  atMostMs?: number;
  /**
   * Pause only once this settles (if not resumed before): threads still loading code with a code
   * cache must have loaded it first, because V8 refuses a cache made under other flags (and Node
   * its own modules' cache), so a flag changed meanwhile makes them compile it all again.
   */
  after?: PromiseLike<unknown>;
}

/**
 * Pause the optimizing compiler until the returned function is called or `atMostMs` has passed,
 * whichever comes first (later calls do nothing). Nothing is paused when the process was started
 * with its own choice about it (`--no-opt`, `--jitless`, … on the command line or in NODE_OPTIONS).
 * Only speed depends on this: optimized or not, the code computes the same.
 */
export function pauseOptimizer(options: OptimizerPauseOptions = {}): () => void {
  const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (USER_TIER_OPTION.test(given)) return () => undefined;
  let paused = false;
  let resumed = false;
  let timer: NodeJS.Timeout | undefined;
  const pause = (): void => {
    if (resumed || paused) return;
    paused = true;
    setFlagsFromString('--no-turbofan');
  };
  const resume = (): void => {
    if (resumed) return;
    resumed = true;
    clearTimeout(timer);
    if (paused) setFlagsFromString('--turbofan');
  };
  if (options.after) options.after.then(pause, pause);
  else pause();
  if (options.atMostMs !== undefined) timer = setTimeout(resume, options.atMostMs).unref();
  return resume;
}
