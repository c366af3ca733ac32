import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '../fixtures';

test.setTimeout(180_000);

test('a library of 5,000 skills lists, gets its badges, narrows with search, and scrolls to the end', async ({
  app,
  library,
}) => {
  const count = 5000;
  for (let start = 0; start < count; start += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, count - start) }, async (_, i) => {
        const n = String(start + i).padStart(4, '0');
        const dir = join(library.dir, `skill-${n}`);
        await mkdir(dir);
        await writeFile(
          join(dir, 'SKILL.md'),
          `---\nname: skill-${n}\ndescription: Generated skill number ${n} for the list test.\n---\n# Skill ${n}\n`,
        );
      }),
    );
  }
  await app.openFolder(library.dir);
  await expect(app.page.getByText(`${count} skills`)).toBeVisible({ timeout: 60_000 });
  // A library this large is listed at a glance first; its badges arrive when the checks are done.
  await expect(app.skillList.getByLabel('Being checked')).toHaveCount(0, { timeout: 60_000 });
  await expect(app.skillList.getByLabel('No problems').first()).toBeVisible();
  // Virtualised: far fewer rows in the DOM than skills.
  expect(await app.skillList.locator('li').count()).toBeLessThan(100);

  await app.search.fill('skill-4321');
  await expect(app.page.getByText(`1 of ${count} skills`)).toBeVisible();
  await expect(app.skill('skill-4321')).toBeVisible();

  await app.search.fill('');
  await app.skillViewport.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(app.skill('skill-4999')).toBeVisible();
  await app.skill('skill-4999').click();
  await expect(app.editor).toHaveAttribute('data-state', 'ready');
});
