/**
 * The problems shown under a skill's heading: the entry's own and the verification's, each
 * once. Why: a verification repeats the entry's structural faults (a name that is not its URI's
 * last segment) as its reasons, so listing both showed that sentence twice.
 */
export function problemLines(
  skillProblems: readonly string[],
  verificationProblems: readonly string[] = [],
): string[] {
  return [...new Set([...skillProblems, ...verificationProblems])];
}
