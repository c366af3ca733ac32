// The worker of bench/growth: runs one case's measure in a plain worker thread (default
// resourceLimits, as the app's validation pool starts them) and posts the result.
import { parentPort, workerData } from 'node:worker_threads';
import { CASES, measure } from './cases';

const { id, runs } = workerData as { id: string; runs: number };
const c = CASES.find((x) => x.id === id);
parentPort?.postMessage(c ? measure(c.text(), runs) : null);
