import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './e2e/chromium';

/** `npm run screenshots`: the README's screenshots, from the built app in the browser shell. */
export default defineConfig({
  testDir: './e2e/screenshots',
  outputDir: 'out/test-results/screenshots',
  timeout: 240_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
  },
});
