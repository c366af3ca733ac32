import type { Locator, Page } from '@playwright/test';

/** The Agents view and the install dialog, as a user sees them (docs/conventions.md §8). */
export class AgentsPage {
  readonly tab: Locator;
  readonly view: Locator;
  readonly projectInput: Locator;
  readonly addProjectButton: Locator;
  readonly chooseProjectButton: Locator;
  readonly installButton: Locator;
  readonly dialog: Locator;
  readonly undoButton: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tab', { name: 'Agents' });
    this.view = page.getByRole('region', { name: 'Agents' });
    this.projectInput = page.getByLabel('Project folder');
    this.addProjectButton = page.getByRole('button', { name: 'Add project' });
    this.chooseProjectButton = page.getByRole('button', { name: 'Choose…' });
    this.installButton = page.getByRole('button', { name: 'Install…' });
    this.dialog = page.getByRole('dialog', { name: 'Install into your agents' });
    this.undoButton = page.getByRole('button', { name: 'Undo' });
  }

  /** One agent's section. */
  agent(name: string): Locator {
    return this.view.getByRole('region', { name: new RegExp(`^${name}`) });
  }

  /** The row of a skill in an agent's section. */
  row(agent: string, skill: string): Locator {
    return this.agent(agent).getByRole('row', { name: new RegExp(`^${skill}\\b`) });
  }

  async open(): Promise<void> {
    await this.tab.click();
  }

  async addProject(dir: string): Promise<void> {
    await this.projectInput.fill(dir);
    await this.addProjectButton.click();
  }

  /** In the install dialog: tick a skill or an agent by its label. */
  async tick(label: string): Promise<void> {
    await this.dialog.getByRole('checkbox', { name: new RegExp(`^${label}`) }).check();
  }
}
