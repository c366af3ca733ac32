/**
 * `--trust-anyway REASON [--trust-days N]`: the command line's "Trust anyway", the same for every
 * command at a point of trust (import, install, pack, update). Why one place: the options, their checks
 * and the sentence that offers them must read the same in each command.
 */
import type { TrustRequest } from '../../../shared/safety';
import { TRUST_MAX_DAYS } from '../../safety/service';
import { UsageError } from './types';
import { parseNumber } from './words';

/** The options, for `parseArgs`. */
export const TRUST_OPTIONS = {
  'trust-anyway': { type: 'string' },
  'trust-days': { type: 'string' },
} as const;

/**
 * The usage lines, for a command that does `verb` ("import", "install", "pack"), with their
 * descriptions starting at `column` like the command's other options (23 unless it says).
 */
export function trustUsage(verb: string, column = 23): string {
  const option = (name: string): string => `  ${name}`.padEnd(column - 1) + ' ';
  const more = ' '.repeat(column);
  return `${option('--trust-anyway TEXT')}${verb} a skill the safety review calls "Don't trust" anyway, for this
${more}reason (recorded in the user-data folder, tied to the content: a changed
${more}skill asks again; docs/safety-review.md)
${option('--trust-days N')}how long that holds (default 30 days)`;
}

/** The line offering the options under a refusal. */
export function trustHint(verb: string): string {
  return `  --trust-anyway "REASON" [--trust-days N]  ${verb} it anyway (asked again when it changes)`;
}

/** The user's "Trust anyway" from the parsed options, or undefined; a reason too short or days out of range is a usage error. */
export function trustRequest(values: {
  'trust-anyway'?: string;
  'trust-days'?: string;
}): TrustRequest | undefined {
  const reason = values['trust-anyway'];
  if (reason === undefined) {
    if (values['trust-days'] !== undefined)
      throw new UsageError('--trust-days goes with --trust-anyway "REASON".');
    return undefined;
  }
  if (reason.trim().length < 3)
    throw new UsageError('--trust-anyway needs a reason of at least three characters.');
  return {
    reason,
    days:
      values['trust-days'] !== undefined
        ? parseNumber('--trust-days', values['trust-days'], {
            min: 1,
            max: TRUST_MAX_DAYS,
            whole: true,
            unit: 'days',
          })
        : 30,
  };
}
