import { readdirSync } from 'node:fs';
import { helperWorkers } from '../../platform/worker-pool';

/**
 * Fewest entries in a library folder for which `skillbench validate` checks it on helper worker
 * threads as well as on its own thread (see helperWorkers). Below it the command's own thread is
 * done about as soon as a worker would have started and loaded the rules, and a worker started
 * for nothing costs a small library's check ~15 ms (bench/speed/README.md, "Validate on two
 * threads").
 */
export const CLI_SHARED_FROM = 300;

/**
 * Start the helper workers, before the command's modules load, when a PATH is a folder with
 * enough entries to be shared; they load the rules meanwhile. Only a hint, read from this
 * process's working folder: whether a PATH is a skill or a library is the command's own decision
 * (an option's value is tried too, and is no folder), and a worker started here and not used
 * ends with the process.
 */
export function prepareValidate(args: readonly string[]): void {
  for (const arg of args) {
    if (arg.startsWith('-')) continue;
    let entries: number;
    try {
      entries = readdirSync(arg).length;
    } catch {
      continue;
    }
    if (entries >= CLI_SHARED_FROM) {
      helperWorkers()?.warm();
      return;
    }
  }
}
