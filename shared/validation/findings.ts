import type { Diagnostic, Severity } from './types';

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** What grouping needs of a finding (a diagnostic, or a library-wide finding). */
export type FindingLike = Pick<Diagnostic, 'ruleId' | 'severity' | 'message' | 'file' | 'range'>;

/** One problem as people see it: the same finding raised by several profiles, counted once. */
export interface FindingGroup<T extends FindingLike = Diagnostic> {
  /** The most severe of the group's findings. */
  d: T;
  /** Every finding of the group (one per profile that raised it). */
  all: T[];
}

/**
 * Group the same finding (rule, place, file and sentence) raised by several profiles into one.
 * The one answer to "how many problems": the Problems panel lists these groups and the library
 * list's badges count them, so the two never disagree.
 */
export function groupFindings<T extends FindingLike>(diagnostics: readonly T[]): FindingGroup<T>[] {
  const groups = new Map<string, FindingGroup<T>>();
  for (const d of diagnostics) {
    const key = `${d.ruleId}|${d.file ?? ''}|${d.range?.start.offset ?? -1}|${d.message}`;
    const group = groups.get(key);
    if (group) {
      group.all.push(d);
      if (ORDER[d.severity] < ORDER[group.d.severity]) group.d = d;
    } else groups.set(key, { d, all: [d] });
  }
  return [...groups.values()];
}

/** Errors, warnings and notes, each problem counted once at its most severe (see {@link groupFindings}). */
export function countFindings(diagnostics: readonly FindingLike[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const g of groupFindings(diagnostics)) counts[g.d.severity]++;
  return counts;
}
