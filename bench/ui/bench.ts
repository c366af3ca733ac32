// The authoring UI benchmark: the real browser-shell host and a 5,000-skill
// library, driven in Debian Chromium. Prints a table with the goals beside the numbers; never
// asserts (docs/conventions.md §10). Bundled and started by bench/ui/run.mjs. Why no import of
// node:perf_hooks: the probes below run in the page, and a bundler-renamed import breaks them.
import { chromium } from '@playwright/test';
import type { Browser, Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { delimiter, join } from 'node:path';
import { validateLibrary } from '../../main/validate/service';
import { useBuiltWorkers } from '../../main/platform/worker-pool';
import { startBrowserShell } from '../../main/web/browser-shell';
import { median, percentile, prose, skillText } from '../support';

const SKILLS = Number(process.env.BENCH_SKILLS ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const EDITS = Number(process.env.BENCH_EDITS ?? 100);
const BIG = 'big-skill';

async function writeSkill(lib: string, name: string, i: number, text: string): Promise<void> {
  const dir = join(lib, name);
  await mkdir(join(dir, 'references'), { recursive: true });
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await mkdir(join(dir, 'assets'), { recursive: true });
  await Promise.all([
    writeFile(join(dir, 'SKILL.md'), text),
    writeFile(join(dir, 'references', 'guide.md'), `# Guide\n\n${prose(1500, i)}\n`),
    writeFile(join(dir, 'scripts', 'run.py'), `print("${name}")\n`),
    writeFile(join(dir, 'assets', 'template.txt'), prose(400, i + 1)),
  ]);
}

/** The library: SKILLS − 1 skills of ~3 KB plus one 20 KB SKILL.md (`big-skill`), each with three supporting files. Reused when the stamp matches. */
async function generate(lib: string, stamp: string): Promise<void> {
  const want = `${SKILLS} skills, generator v1`;
  if (existsSync(stamp) && (await readFile(stamp, 'utf8')) === want) {
    // The big skill is rewritten every run: an earlier run may have left a draft edit in it.
    await writeSkill(lib, BIG, 1, skillText(BIG, 1, 19_000));
    return;
  }
  await rm(lib, { recursive: true, force: true });
  await mkdir(lib, { recursive: true });
  const names = Array.from({ length: SKILLS - 1 }, (_, i) => `skill-${String(i).padStart(4, '0')}`);
  for (let start = 0; start < names.length; start += 200) {
    await Promise.all(
      names
        .slice(start, start + 200)
        .map((name, k) => writeSkill(lib, name, start + k, skillText(name, start + k))),
    );
  }
  await writeSkill(lib, BIG, 1, skillText(BIG, 1, 19_000));
  await writeFile(stamp, want);
}

function findChromium(): string {
  const fromEnv = process.env.SKILLBENCH_CHROMIUM;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
      if (existsSync(join(dir, name))) return join(dir, name);
    }
  }
  throw new Error(
    'No Chromium on the PATH (Debian: apt-get install -y chromium) and SKILLBENCH_CHROMIUM is not set.',
  );
}

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** What the in-page probe records (times from `performance.now()`, i.e. ms since navigation start). */
interface Probe {
  listReady: number | null;
  listRequest: { start: number; end: number } | null;
  click: number | null;
  editorReady: number | null;
  /** Every row in view shows its real badge (a large library's first listing arrives with badges pending). */
  checked: number | null;
}

declare global {
  interface Window {
    __sbProbe: Probe;
    __sbMarks: { key: number; dom: number; frame: number; present: boolean }[];
    __sbMarkerPresent: boolean;
  }
}

/**
 * Installed before any page script: watches the DOM from navigation on and notes when the list
 * is interactive (app ready, the full count shown, a row button present), when a row is clicked
 * and when the editor holds the skill. Measured in the page so no CDP round trip is counted.
 */
function listProbe(expectedCount: string): void {
  const probe: Probe = {
    listReady: null,
    listRequest: null,
    click: null,
    editorReady: null,
    checked: null,
  };
  window.__sbProbe = probe;
  const check = (): void => {
    const now = performance.now();
    if (probe.listReady === null) {
      const ready = document.querySelector('.app[data-state="ready"]');
      const count = document.querySelector('.list-count')?.textContent;
      const row = document.querySelector('.skill-list li button');
      if (ready && count === expectedCount && row) {
        probe.listReady = now;
        const entry = performance
          .getEntriesByType('resource')
          .find((e) => e.name.includes('/api/library.list'));
        if (entry)
          probe.listRequest = {
            start: entry.startTime,
            end: (entry as PerformanceResourceTiming).responseEnd,
          };
      }
    }
    if (
      probe.click !== null &&
      probe.editorReady === null &&
      document.querySelector('[data-testid="editor"][data-state="ready"]')
    )
      probe.editorReady = now;
    if (
      probe.listReady !== null &&
      probe.checked === null &&
      document.querySelector('.skill-list .badge') &&
      !document.querySelector('.skill-list .badge.pending')
    )
      probe.checked = now;
  };
  window.addEventListener(
    'click',
    (e) => {
      if (probe.click === null && (e.target as Element | null)?.closest?.('.skill-list'))
        probe.click = e.timeStamp;
    },
    true,
  );
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}

/**
 * Installed once the big skill is open: each key press time (the event's own timestamp) and
 * the moment the Problems panel gains or loses the `name/uppercase` row, plus the start of the
 * next frame (when it can be painted).
 */
function markerProbe(): void {
  window.__sbMarks = [];
  let lastKey = 0;
  const panel = document.querySelector('section.problems');
  const present = (): boolean => !!panel?.querySelector('li[data-rule="name/uppercase"]');
  window.__sbMarkerPresent = present();
  window.addEventListener(
    'keydown',
    (e) => {
      lastKey = e.timeStamp;
    },
    true,
  );
  new MutationObserver(() => {
    const now = present();
    if (now === window.__sbMarkerPresent) return;
    const dom = performance.now();
    window.__sbMarkerPresent = now;
    const mark = { key: lastKey, dom, frame: dom, present: now };
    window.__sbMarks.push(mark);
    requestAnimationFrame(() => {
      mark.frame = performance.now();
    });
  }).observe(document.body, { subtree: true, childList: true });
}

async function measureList(
  browser: Browser,
  url: string,
): Promise<{ probe: Probe; rowClickToEditor: number }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(listProbe, `${SKILLS} skills`);
  await page.goto(url);
  page.on('pageerror', (e) => process.stdout.write(`page error: ${e.message}\n`));
  try {
    await page.waitForFunction(() => window.__sbProbe.listReady !== null, null, {
      timeout: 120_000,
      polling: 50,
    });
  } catch (error) {
    const state = await page.evaluate(() => ({
      app: document.querySelector('.app')?.getAttribute('data-state'),
      count: document.querySelector('.list-count')?.textContent,
      rows: document.querySelectorAll('.skill-list li').length,
      probe: window.__sbProbe,
    }));
    process.stdout.write(`list never became interactive: ${JSON.stringify(state)}\n`);
    throw error;
  }
  await page.locator('.skill-list li button').first().click();
  await page.waitForFunction(() => window.__sbProbe.editorReady !== null, null, {
    timeout: 60_000,
    polling: 50,
  });
  await page.waitForFunction(() => window.__sbProbe.checked !== null, null, {
    timeout: 120_000,
    polling: 50,
  });
  const probe = await page.evaluate(() => window.__sbProbe);
  await context.close();
  return { probe, rowClickToEditor: (probe.editorReady ?? NaN) - (probe.click ?? NaN) };
}

async function measureMarkers(
  browser: Browser,
  url: string,
): Promise<{ dom: number[]; frame: number[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page: Page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('.app[data-state="ready"]', { timeout: 120_000 });
  await page.getByRole('button', { name: new RegExp(`^${BIG}\\b`) }).click();
  await page.waitForSelector('[data-testid="editor"][data-state="ready"]');
  await page.locator('.monaco-editor .view-lines').first().click();
  // Line 2 is `name: big-skill`: go there (Ctrl+G) and to its end, where a capital letter breaks name/uppercase.
  await page.keyboard.press('Control+g');
  await page.keyboard.type('2');
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
  await page.evaluate(markerProbe);
  const toggle = async (): Promise<void> => {
    await page.keyboard.press('Shift+X');
    await page.waitForFunction(() => window.__sbMarkerPresent, null, {
      polling: 'raf',
      timeout: 10_000,
    });
    await page.keyboard.press('Backspace');
    await page.waitForFunction(() => !window.__sbMarkerPresent, null, {
      polling: 'raf',
      timeout: 10_000,
    });
  };
  for (let i = 0; i < 5; i++) await toggle(); // warm-up
  await page.evaluate(() => {
    window.__sbMarks = [];
  });
  for (let i = 0; i < EDITS; i++) await toggle();
  await page.waitForTimeout(50); // let the last frame callback run
  const marks = await page.evaluate(() => window.__sbMarks);
  const size = await page.evaluate(
    () => document.querySelector('.monaco-editor')?.textContent?.length ?? 0,
  );
  if (size === 0) process.stdout.write('warning: the editor showed no text\n');
  await context.close();
  return { dom: marks.map((m) => m.dom - m.key), frame: marks.map((m) => m.frame - m.key) };
}

async function main(): Promise<void> {
  const repo = process.env.BENCH_REPO ?? process.cwd();
  const work = join(repo, 'bench', '.work');
  const lib = join(work, 'ui-lib');
  process.stdout.write(`Preparing ${SKILLS} skills in ${lib} …\n`);
  const g0 = performance.now();
  await generate(lib, join(work, 'ui-lib.stamp'));
  process.stdout.write(`library ready in ${fmt((performance.now() - g0) / 1000, 1)} s\n`);

  const userDataDir = join(work, 'ui-userdata');
  await rm(userDataDir, { recursive: true, force: true });
  await mkdir(userDataDir, { recursive: true });
  // As the CLI bundle's entry does for `npm start`: large libraries are validated by worker threads (out/main/worker.mjs).
  const startShell = (): Promise<Awaited<ReturnType<typeof startBrowserShell>>> => {
    useBuiltWorkers(join(repo, 'out', 'main'));
    return startBrowserShell({
      rendererDir: join(repo, 'out', 'renderer'),
      version: 'bench',
      userDataDir,
    });
  };
  let shell = await startShell();
  const rows: [string, string, string, string][] = [];
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--no-first-run',
    ],
  });
  try {
    // A returning user: the library is a remembered root before the page loads.
    const opened = await shell.services.library.open(lib);
    if (!opened.ok) throw new Error(opened.error.message);

    // First listing after a start: new services (nothing kept from an earlier listing) and new
    // validation workers, loading while the page does, as `npm start` does. (This process's own
    // compiled code stays warm between runs; a real first start also compiles the main side.)
    // First open ever: the same, with no findings kept on disk from an earlier run either.
    const firstStart: { probe: Probe; rowClickToEditor: number }[] = [];
    for (let r = 0; r < RUNS; r++) {
      await shell.close();
      await rm(join(userDataDir, 'cache'), { recursive: true, force: true });
      shell = await startShell();
      firstStart.push(await measureList(browser, shell.host.url));
    }
    // Restart: the findings of the last listing were kept on disk (main/library/listing-cache.ts).
    await shell.services.library.saveCache();
    const restart: { probe: Probe; rowClickToEditor: number }[] = [];
    for (let r = 0; r < RUNS; r++) {
      await shell.close();
      shell = await startShell();
      restart.push(await measureList(browser, shell.host.url));
    }

    // Where the server's time goes (the same work library.list does, measured in Node).
    const serverList: number[] = [];
    const validation: number[] = [];
    for (let r = 0; r < 3; r++) {
      let t = performance.now();
      await shell.services.library.list();
      serverList.push(performance.now() - t);
      t = performance.now();
      await validateLibrary(lib, { profiles: ['agentskills'] });
      validation.push(performance.now() - t);
    }

    // After an edit: a SKILL.md changed since the last listing, so the server checks that folder again
    // and reuses the rest. Warm: nothing changed.
    const cold: { probe: Probe; rowClickToEditor: number }[] = [];
    for (let r = 0; r < RUNS; r++) {
      const name = `skill-${String(r).padStart(4, '0')}`;
      await writeSkill(lib, name, r, `${skillText(name, r)}\n<!-- cold run ${Date.now()} -->\n`);
      cold.push(await measureList(browser, shell.host.url));
    }
    const runs: { probe: Probe; rowClickToEditor: number }[] = [];
    for (let r = 0; r < RUNS + 1; r++) runs.push(await measureList(browser, shell.host.url));
    const first = runs[0];
    const warm = runs.slice(1);
    const coldMs = median(cold.map((r) => r.probe.listReady ?? NaN));
    const ready = warm.map((r) => r.probe.listReady ?? NaN);
    const req = warm.map((r) =>
      r.probe.listRequest ? r.probe.listRequest.end - r.probe.listRequest.start : NaN,
    );
    const reqStart = warm.map((r) => r.probe.listRequest?.start ?? NaN);
    const afterReq = warm.map(
      (r) => (r.probe.listReady ?? NaN) - (r.probe.listRequest?.end ?? NaN),
    );
    const listMs = median(ready);
    const firstMs = median(firstStart.map((r) => r.probe.listReady ?? NaN));
    const restartMs = median(restart.map((r) => r.probe.listReady ?? NaN));
    const requestMs = (runs: { probe: Probe }[]): number =>
      median(
        runs.map((r) =>
          r.probe.listRequest ? r.probe.listRequest.end - r.probe.listRequest.start : NaN,
        ),
      );
    rows.push([
      `List interactive, app restarted, library unchanged (findings kept on disk): navigation → "${SKILLS} skills" shown, a row button present (median of ${RUNS})`,
      `${fmt(restartMs)} ms`,
      '< 1,500 ms',
      restartMs < 1500 ? 'met' : 'missed',
    ]);
    rows.push([
      `  of which: library.list request → response`,
      `${fmt(requestMs(restart))} ms`,
      '',
      '',
    ]);
    rows.push([
      `List interactive, first open ever (new services, new workers, nothing kept: the list comes at a glance; median of ${RUNS})`,
      `${fmt(firstMs)} ms`,
      '< 1,500 ms',
      firstMs < 1500 ? 'met' : 'missed',
    ]);
    rows.push([
      `  of which: library.list request → response (a glance: names and descriptions, badges pending)`,
      `${fmt(requestMs(firstStart))} ms`,
      '',
      '',
    ]);
    rows.push([
      `  navigation → every badge in view checked (the background check done)`,
      `${fmt(median(firstStart.map((r) => r.probe.checked ?? NaN)))} ms`,
      '',
      '',
    ]);
    rows.push([
      `List interactive, after an edit (one skill changed since the last listing; median of ${RUNS})`,
      `${fmt(coldMs)} ms`,
      '< 1,500 ms',
      coldMs < 1500 ? 'met' : 'missed',
    ]);
    rows.push([
      `List interactive, warm (nothing changed since the last listing; median of ${RUNS})`,
      `${fmt(listMs)} ms`,
      '< 1,500 ms',
      listMs < 1500 ? 'met' : 'missed',
    ]);
    rows.push([
      '  first warm navigation (fresh page cache; not in the median)',
      `${fmt(first?.probe.listReady ?? NaN)} ms`,
      '',
      '',
    ]);
    rows.push([
      '  of which: page start → library.list sent (HTML, JS, settings)',
      `${fmt(median(reqStart))} ms`,
      '',
      '',
    ]);
    rows.push([
      '  of which: library.list request → response (validation + JSON + transfer)',
      `${fmt(median(req))} ms`,
      '',
      '',
    ]);
    rows.push(['  of which: response → list rendered', `${fmt(median(afterReq))} ms`, '', '']);
    rows.push([
      '  server alone: services.library.list() in Node (median of 3)',
      `${fmt(median(serverList))} ms`,
      '',
      '',
    ]);
    rows.push([
      '  of that: validateLibrary(root) alone (median of 3)',
      `${fmt(median(validation))} ms`,
      '',
      '',
    ]);
    rows.push([
      'Row click → editor ready (median)',
      `${fmt(median(warm.map((r) => r.rowClickToEditor)))} ms`,
      '',
      '',
    ]);

    const marks = await measureMarkers(browser, shell.host.url);
    const p95 = percentile(marks.dom, 95);
    rows.push([
      `Keystroke → Problems row added/removed, 20 KB SKILL.md (${marks.dom.length} keystrokes)`,
      `p50 ${fmt(percentile(marks.dom, 50), 1)} ms, p95 ${fmt(p95, 1)} ms`,
      'p95 < 50 ms',
      p95 < 50 ? 'met' : 'missed',
    ]);
    rows.push([
      '  … to the next frame (when it can be painted)',
      `p50 ${fmt(percentile(marks.frame, 50), 1)} ms, p95 ${fmt(percentile(marks.frame, 95), 1)} ms`,
      '',
      '',
    ]);
  } finally {
    await browser.close();
    await shell.close();
  }
  const header: [string, string, string, string] = ['measure', 'result', 'goal', 'status'];
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: string[]): string =>
    `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  process.stdout.write(
    `\nNode ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${SKILLS} skills\n\n`,
  );
  process.stdout.write(
    `${[line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n')}\n`,
  );
}

await main();
