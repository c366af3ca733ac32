import { describe, expect, it } from 'vitest';
import { readCommandLine } from './command-line';
import { UsageError } from './types';

const OPTIONS = {
  http: { type: 'string', multiple: true },
  'token-file': { type: 'string', multiple: true },
  format: { type: 'string', short: 'f' },
  verify: { type: 'boolean' },
} as const;

function refusal(args: string[], takes = { positionals: true }): string {
  try {
    readCommandLine('demo', args, OPTIONS, takes);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${args.join(' ')} was read`);
}

describe('readCommandLine', () => {
  it('reads --name=value as --name value, and keeps the order of what it read', () => {
    const a = readCommandLine(
      'demo',
      ['lib', '--format=json', '--http', 'u1', '--token-file=t1'],
      OPTIONS,
    );
    const b = readCommandLine(
      'demo',
      ['lib', '--format', 'json', '--http=u1', '--token-file', 't1'],
      OPTIONS,
    );
    expect(a.values).toEqual(b.values);
    expect(a.values).toEqual({ format: 'json', http: ['u1'], 'token-file': ['t1'] });
    expect(a.positionals).toEqual(['lib']);
    // Why the order matters: a --token-file belongs to the --http before it.
    const names = (r: typeof a): string[] =>
      r.tokens.flatMap((t) => (t.kind === 'option' ? [t.name] : []));
    expect(names(a)).toEqual(['format', 'http', 'token-file']);
    expect(names(b)).toEqual(['format', 'http', 'token-file']);
  });

  it('gives what follows a bare -- apart, as positionals too, options and all', () => {
    const r = readCommandLine(
      'demo',
      ['--verify', 'x', '--', 'node', '--verify', '-e', '1'],
      OPTIONS,
    );
    expect(r.afterDashes).toEqual(['node', '--verify', '-e', '1']);
    expect(r.positionals).toEqual(['x', 'node', '--verify', '-e', '1']);
    expect(r.values.verify).toBe(true);
    expect(readCommandLine('demo', ['x'], OPTIONS).afterDashes).toBeUndefined();
    expect(readCommandLine('demo', ['--'], OPTIONS).afterDashes).toEqual([]);
  });

  it('answers each mistake in a sentence that names the command and what to do', () => {
    expect(refusal(['--bogus'])).toBe(
      'There is no option --bogus. Run `skillbench demo --help` to see the options.',
    );
    expect(refusal(['-my-skill'])).toBe(
      'There is no option -my-skill. If it is a file or folder whose name starts with "-", put -- before it: skillbench demo [options] -- -my-skill',
    );
    expect(refusal(['--format'])).toBe('--format needs a value after it.');
    // Why the long name for -f: it is the name the usage lists and --help explains.
    expect(refusal(['-f'])).toBe('--format needs a value after it.');
    expect(refusal(['--format', '-x'])).toBe(
      '--format needs a value after it; a value that starts with "-" is written --format=-x.',
    );
    expect(refusal(['--verify=yes'])).toBe('--verify takes no value; write --verify alone.');
    expect(refusal(['extra'], { positionals: false })).toBe(
      'skillbench demo takes no folder or name; "extra" is one too many. Run `skillbench demo --help` to see the options.',
    );
  });
});
