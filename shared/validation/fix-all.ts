import { applyEdits } from '../skill/text-edits';
import type { Diagnostic, TextEdit, ValidateOptions } from './types';
import { validateSkill } from './validate-skill';

/** Upper bound on fix rounds, so a fix that re-creates its own finding cannot loop forever. */
const MAX_ROUNDS = 10;

/**
 * The edits of the fixes chosen in one round, kept sorted by start, with the test of whether a
 * new edit collides with one of them: they overlap, or one is an insertion where the other
 * starts. Why not a scan of every chosen edit per candidate: the same fix comes from each
 * profile and a hostile file has thousands of findings, so that was quadratic.
 */
class ChosenEdits {
  private readonly edits: TextEdit[] = [];

  /** Index of the first edit starting at or after `at`. */
  private lowerBound(at: number): number {
    let lo = 0;
    let hi = this.edits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.edits[mid]?.start ?? 0) < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Whether `b` collides with a chosen edit. Chosen edits of different fixes never collide (each
   * fix was tested before it was taken), so only the neighbours of `b.start` can.
   */
  collides(b: TextEdit): boolean {
    const i = this.lowerBound(b.start);
    // Edits starting before `b`: the last of them reaches furthest (they do not overlap).
    for (let k = i - 1; k >= 0; k--) {
      const a = this.edits[k];
      if (!a) break;
      if (a.end > b.start) return true;
      if (a.start !== this.edits[i - 1]?.start) break;
    }
    // Edits starting where `b` starts always collide; the first starting after must start past its end.
    const at = this.edits[i];
    if (at && at.start === b.start) return true;
    return at !== undefined && at.start < b.end;
  }

  add(e: TextEdit): void {
    const i = this.lowerBound(e.start + 1);
    this.edits.splice(i, 0, e);
  }
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
    // The same fix (equal edits) reported by several profiles is applied once.
    const seen = new Set<string>();
    const taken = new ChosenEdits();
    for (const d of diagnostics) {
      const fix = d.fixes?.find((f) => f.safe && !f.fileOperations?.length && f.edits.length > 0);
      if (!fix) continue;
      const key = JSON.stringify(fix.edits.map((e) => [e.start, e.end, e.newText]));
      if (seen.has(key)) {
        applied.push(d);
        continue;
      }
      if (fix.edits.some((b) => taken.collides(b))) continue;
      chosen.push(fix.edits);
      seen.add(key);
      for (const e of fix.edits) taken.add(e);
      applied.push(d);
    }
    if (chosen.length === 0) break;
    current = applyEdits(current, chosen.flat());
  }
  return { text: current, applied };
}
