import { expect, type Locator, type Page } from '@playwright/test';

/** The Skillbench window, as a user sees it (CONVENTIONS 8: locators live in page modules). */
export class SkillbenchPage {
  readonly openFolderButton: Locator;
  readonly folderPathInput: Locator;
  readonly openThisFolderButton: Locator;
  readonly skillList: Locator;
  readonly editor: Locator;
  readonly saveButton: Locator;
  readonly status: Locator;
  readonly alert: Locator;

  constructor(readonly page: Page) {
    this.openFolderButton = page.getByRole('button', { name: 'Open folder…' });
    this.folderPathInput = page.getByLabel('Folder path');
    this.openThisFolderButton = page.getByRole('button', { name: 'Open this folder' });
    this.skillList = page.getByRole('list', { name: 'Skills' });
    this.editor = page.getByTestId('editor');
    this.saveButton = page.getByRole('button', { name: 'Save' });
    this.status = page.getByRole('status');
    this.alert = page.getByRole('alert');
  }

  /** Load the app and wait until it has talked to main once. */
  async goto(url: string): Promise<void> {
    await this.page.goto(url);
    await expect(this.page.locator('.app[data-state="ready"]')).toBeVisible();
  }

  /** Open a library through the browser shell's path field. */
  async openFolder(path: string): Promise<void> {
    await this.openFolderButton.click();
    await this.folderPathInput.fill(path);
    await this.openThisFolderButton.click();
  }

  /** The list entry of a skill, by its name. */
  skill(name: string): Locator {
    return this.skillList.getByRole('button', { name: new RegExp(`^${name}\\b`) });
  }

  /** Open a skill and wait until the editor holds it. */
  async openSkill(name: string): Promise<void> {
    await this.skill(name).click();
    await expect(this.editor).toHaveAttribute('data-state', 'ready');
    await expect(this.page.locator('.monaco-editor .view-lines')).toBeVisible();
  }

  /** Replace the whole text of line `lineNumber` (1-based) in the editor by typing, as a user would. */
  async replaceLine(lineNumber: number, text: string): Promise<void> {
    await this.page.locator('.monaco-editor .view-lines').click();
    await this.page.keyboard.press('ControlOrMeta+Home');
    for (let i = 1; i < lineNumber; i++) await this.page.keyboard.press('ArrowDown');
    await this.page.keyboard.press('End');
    await this.page.keyboard.press('Shift+Home');
    await this.page.keyboard.press('Shift+Home');
    await this.page.keyboard.type(text);
  }
}
