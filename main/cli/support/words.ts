/** Small pieces of wording every command shares, so the CLI speaks one way. */
import { UsageError } from './types';

export { count } from '../../../shared/text/words';

/** What to say about an option nobody knows: one with a single "-" may be a folder's name. */
export function unknownOption(option: string, command: string): string {
  if (option.startsWith('--'))
    return `There is no option ${option}. Run \`skillbench ${command} --help\` to see the options.`;
  return `There is no option ${option}. If it is a file or folder whose name starts with "-", put -- before it: skillbench ${command} [options] -- ${option}`;
}

/**
 * The value of an option that takes one of a few words (`--format text|json`), or a usage error
 * naming the option, the words it takes and what was given: the one check of such options.
 */
export function parseChoice<T extends string>(
  option: string,
  text: string,
  choices: readonly T[],
): T {
  if ((choices as readonly string[]).includes(text)) return text as T;
  const list =
    choices.length <= 1
      ? (choices[0] ?? '')
      : `${choices.slice(0, -1).join(', ')} or ${choices[choices.length - 1]}`;
  throw new UsageError(`${option} must be ${list}, not "${text}".`);
}

/** What a numeric option accepts (see {@link parseNumber}). */
export interface NumberRule {
  /** Smallest and largest value accepted. */
  min: number;
  max: number;
  /** Whole numbers only (a count, a port), or decimals too (seconds, a score). */
  whole: boolean;
  /** What the number counts, for the message: "seconds", "pages" (none for a bare number). */
  unit?: string;
}

/**
 * The value of a numeric option, or a usage error in words naming the option, the range and what
 * was given: the one parser of numbers on the command line. Why plain decimal digits only:
 * `Number` reads "", " 80 ", "0x50" and "1e3" as numbers too, so a typo would pass unseen.
 */
export function parseNumber(option: string, text: string, rule: NumberRule): number {
  const pattern = rule.whole ? /^\d{1,15}$/ : /^\d{1,15}(\.\d{1,15})?$/;
  const n = pattern.test(text) ? Number(text) : NaN;
  if (n >= rule.min && n <= rule.max) return n;
  const kind = rule.whole ? 'a whole number' : 'a number';
  const of = rule.unit ? ` of ${rule.unit}` : '';
  throw new UsageError(
    `${option} must be ${kind}${of} from ${plainNumber(rule.min)} to ${plainNumber(rule.max)}, not "${text}".`,
  );
}

/** A bound as a person writes it: digits, no grouping, no exponent. */
function plainNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, '');
}

/** The port a `--port` value names (0: any free port), or a usage error in words. */
export function parsePort(text: string): number {
  return parseNumber('--port', text, { min: 0, max: 65535, whole: true });
}
