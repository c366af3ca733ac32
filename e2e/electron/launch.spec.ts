import { _electron as electron, expect, test } from '@playwright/test';
import { join } from 'node:path';

// Runs only where the Electron runtime exists (playwright.config.ts adds this project then).
test('the Electron window opens hardened and shows the app', async ({}, testInfo) => {
  const executablePath = testInfo.project.metadata.electronBinary as string;
  const app = await electron.launch({
    executablePath,
    args: [join(import.meta.dirname, '..', '..', 'out', 'main', 'electron.cjs')],
  });
  const window = await app.firstWindow();
  await expect(window.locator('.app[data-state="ready"]')).toBeVisible();
  expect(window.url()).toBe('app://skillbench/index.html');
  expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe(
    'undefined',
  );
  expect(
    await window.evaluate(() =>
      Object.keys((window as unknown as { skillbench: object }).skillbench).sort(),
    ),
  ).toEqual(['api', 'on']);
  await app.close();
});
