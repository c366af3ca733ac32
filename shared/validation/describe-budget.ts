import { codePointLength } from '../skill/yaml-strings';

/** Total description characters above which agents start dropping skills from their listing. */
export const DESCRIPTION_BUDGET = 8000;

/** One skill's part of the description budget. */
export interface BudgetShare {
  name: string;
  characters: number;
  /** Fraction of the total, 0–1. */
  share: number;
}

/** The library's description budget: total characters, each skill's share, and a warning when over. */
export interface DescriptionBudget {
  total: number;
  limit: number;
  over: boolean;
  shares: BudgetShare[];
  /** A plain sentence when the total is over the limit. */
  warning?: string;
}

/** Compute the description budget of a library (pure; main/validate reports it). */
export function describeBudget(
  entries: readonly { name: string; description: string }[],
): DescriptionBudget {
  return budgetFromCounts(
    entries.map((e) => ({ name: e.name, characters: codePointLength(e.description ?? '') })),
  );
}

/** The budget from each skill's description length (the window updates one skill's after a save). */
export function budgetFromCounts(
  counts: readonly { name: string; characters: number }[],
): DescriptionBudget {
  const total = counts.reduce((s, c) => s + c.characters, 0);
  const shares = counts.map((c) => ({
    name: c.name,
    characters: c.characters,
    share: total > 0 ? c.characters / total : 0,
  }));
  const over = total > DESCRIPTION_BUDGET;
  const result: DescriptionBudget = { total, limit: DESCRIPTION_BUDGET, over, shares };
  if (over) {
    result.warning = `All skill descriptions together have ${total} characters, more than ${DESCRIPTION_BUDGET}. Agents may leave some skills out of their list; shorten the longest descriptions.`;
  }
  return result;
}
