import { expect, type Locator, type Page } from '@playwright/test';

/** The Skillbench window, as a user sees it (docs/conventions.md §8: locators live in page modules). */
export class SkillbenchPage {
  readonly openFolderButton: Locator;
  readonly folderPathInput: Locator;
  readonly openThisFolderButton: Locator;
  readonly skillList: Locator;
  readonly editor: Locator;
  readonly saveButton: Locator;
  readonly status: Locator;
  readonly alert: Locator;
  readonly newSkillButton: Locator;
  readonly problems: Locator;
  readonly search: Locator;
  readonly skillViewport: Locator;

  constructor(readonly page: Page) {
    this.openFolderButton = page.getByRole('button', { name: 'Open folder…' });
    this.folderPathInput = page.getByLabel('Folder path');
    this.openThisFolderButton = page.getByRole('button', { name: 'Open this folder' });
    this.skillList = page.getByRole('list', { name: 'Skills' });
    this.editor = page.getByTestId('editor');
    this.saveButton = page.getByRole('button', { name: 'Save' });
    this.status = page.getByRole('status');
    this.alert = page.getByRole('alert');
    this.newSkillButton = page.getByRole('button', { name: 'New skill…' });
    this.problems = page.getByRole('region', { name: 'Problems' });
    this.search = page.getByRole('searchbox', { name: 'Search skills' });
    this.skillViewport = page.getByTestId('skill-viewport');
  }

  /** A marker (squiggle) of a severity in the editor. */
  squiggles(severity: 'error' | 'warning' | 'info' = 'error'): Locator {
    return this.page.locator(`.monaco-editor .squiggly-${severity}`);
  }

  /** A problem row in the Problems panel, by rule id. */
  problem(ruleId: string): Locator {
    return this.problems.locator(`li[data-rule="${ruleId}"]`);
  }

  /** Create a skill through the wizard. */
  async createSkill(name: string, description: string, template = 'Blank'): Promise<void> {
    await this.newSkillButton.click();
    const wizard = this.page.getByRole('dialog', { name: 'New skill' });
    await wizard.getByLabel('Name', { exact: true }).fill(name);
    await wizard.getByLabel('Description', { exact: true }).fill(description);
    await wizard.getByRole('radio', { name: new RegExp(`^${template}`) }).check();
    await wizard.getByRole('button', { name: 'Create skill' }).click();
    await expect(wizard).toBeHidden();
    await expect(this.editor).toHaveAttribute('data-state', 'ready');
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

  /** The list's button of the skill named exactly `name` (not `name-2` beside it). */
  skillNamed(name: string): Locator {
    return this.skillList.getByRole('button', { name: new RegExp(`^${name}(?![\\w-])`) });
  }

  /** Open a skill and wait until the editor holds it. */
  async openSkill(name: string): Promise<void> {
    await this.skill(name).click();
    await expect(this.editor).toHaveAttribute('data-state', 'ready');
    await expect(this.page.locator('.monaco-editor .view-lines').first()).toBeVisible();
  }

  /**
   * Replace the whole text of line `lineNumber` (1-based) by typing, as a user would: Go to
   * Line (Ctrl+G), select the logical line (Ctrl+L, then give back its line break), type.
   * Why not Home/End: with word wrap they act on the visual line.
   */
  async replaceLine(lineNumber: number, text: string): Promise<void> {
    await this.page.locator('.monaco-editor .view-lines').first().click();
    await this.page.keyboard.press('ControlOrMeta+g');
    await this.page.keyboard.type(String(lineNumber));
    await this.page.keyboard.press('Enter');
    await this.page.keyboard.press('ControlOrMeta+l');
    await this.page.keyboard.press('Shift+ArrowLeft');
    await this.page.keyboard.type(text);
  }
}
