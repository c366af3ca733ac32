import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeResult {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
}

/** Run axe-core on the page and return the serious and critical violations, with their targets. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Why evaluate, not a script tag: the app's CSP forbids inline scripts, and it should stay that way.
  await page.evaluate(await axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResult> } }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
