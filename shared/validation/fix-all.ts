import { applyEdits } from '../skill/text-edits';
import type { Diagnostic, TextEdit, ValidateOptions } from './types';
import { validateSkill } from './validate-skill';

/** Upper bound on fix rounds, so a fix that re-creates its own finding cannot loop forever. */
const MAX_ROUNDS = 10;

function overlaps(a: TextEdit, b: TextEdit): boolean {
  return (
    (a.start < b.end && b.start < a.end) ||
    (a.start === b.start && (a.start === a.end || b.start === b.end))
  );
}

function sameEdits(a: readonly TextEdit[], b: readonly TextEdit[]): boolean {
  return (
    a.length === b.length &&
    a.every((e, i) => e.start === b[i]?.start && e.end === b[i]?.end && e.newText === b[i]?.newText)
  );
}

/** Apply every safe text-only fix, re-validating between rounds until none remain (bounded). */
export function fixAllSafe(
  text: string,
  options: ValidateOptions = {},
): { text: string; applied: Diagnostic[] } {
  let current = text;
  const applied: Diagnostic[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { diagnostics } = validateSkill(current, options);
    const chosen: TextEdit[][] = [];
    for (const d of diagnostics) {
      const fix = d.fixes?.find((f) => f.safe && !f.fileOperations?.length && f.edits.length > 0);
      if (!fix) continue;
      if (chosen.some((c) => sameEdits(c, fix.edits))) {
        applied.push(d);
        continue;
      }
      if (chosen.some((c) => c.some((a) => fix.edits.some((b) => overlaps(a, b))))) continue;
      chosen.push(fix.edits);
      applied.push(d);
    }
    if (chosen.length === 0) break;
    current = applyEdits(current, chosen.flat());
  }
  return { text: current, applied };
}
