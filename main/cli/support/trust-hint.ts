/**
 * The line under a skill held back for safety where nothing is being written (serve, catalog):
 * how to read its findings and trust it from the command line. Why a file of its own: `serve`
 * prints it, and must not load the safety review's modules at start for one sentence.
 */
import { term } from '../../security/terminal-text';

/** `dir`: the skill's folder. */
export function trustInPlaceHint(dir: string): string {
  return term`    to trust it: read the findings with skillbench scan ${dir}, then add --trust-anyway "REASON" to that command`;
}
