import { expect, type Page } from '@playwright/test';

/**
 * Fill and confirm the "Trust anyway" dialog as a user does: the button waits for a reason, the
 * trust lasts 7 days. With `shot`, a screenshot of the filled dialog is taken before confirming.
 */
export async function trustAnyway(
  page: Page,
  name: string,
  reason: string,
  shot?: string,
): Promise<void> {
  const dialog = page.getByRole('dialog', { name: `Trust ${name} anyway?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Trust anyway' })).toBeDisabled();
  await dialog.getByLabel('Why do you trust it?').fill(reason);
  await dialog.getByLabel('For how long').selectOption({ label: '7 days' });
  if (shot) await page.screenshot({ path: shot });
  await dialog.getByRole('button', { name: 'Trust anyway' }).click();
  await expect(dialog).toBeHidden();
}
