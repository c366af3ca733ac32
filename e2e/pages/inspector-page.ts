import { expect, type Locator, type Page } from '@playwright/test';

/** The Inspector tab, as a user sees it (docs/conventions.md §8: locators live in page modules). */
export class InspectorPage {
  readonly tab: Locator;
  readonly view: Locator;
  readonly form: Locator;
  readonly connections: Locator;
  readonly skill: Locator;
  readonly files: Locator;
  readonly keepIt: Locator;
  /** "Install into agents…" in the Keep it section. */
  readonly installButton: Locator;
  /** The problems listed under the skill's heading. */
  readonly problems: Locator;
  /** "Save to my library" in the Keep it section. */
  readonly saveButton: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tab', { name: 'Inspector', exact: true });
    this.view = page.getByRole('region', { name: 'Inspector', exact: true });
    this.form = this.view.getByRole('form', { name: 'New connection' });
    this.connections = this.view.getByRole('region', { name: 'Connections', exact: true });
    this.skill = this.view.getByRole('region', { name: 'Skill', exact: true });
    this.files = this.skill.getByRole('region', { name: 'Files', exact: true });
    this.keepIt = this.skill.getByRole('region', { name: 'Keep it', exact: true });
    this.installButton = this.keepIt.getByRole('button', { name: 'Install into agents…' });
    this.problems = this.skill.locator('.insp-problems li');
    this.saveButton = this.keepIt.getByRole('button', { name: 'Save to my library' });
  }

  /** The dialog asked when the library already has a skill of this name: Keep both, Replace or Cancel. */
  nameConflict(name: string): Locator {
    return this.page.getByRole('dialog', { name: `${name} is already in your library` });
  }

  /** Switch to the Inspector tab. */
  async open(): Promise<void> {
    await this.tab.click();
    await expect(this.view).toHaveAttribute('data-state', 'ready');
  }

  /** One live connection, by its name. */
  connection(name: string): Locator {
    return this.connections.locator(`li[data-label="${name}"]`);
  }

  /** Connect over Streamable HTTP, typing the address and (optionally) a bearer token, and wait until skills are listed. */
  async connectHttp(name: string, url: string, token?: string): Promise<void> {
    await this.form.getByLabel('Connection name').fill(name);
    await this.form.getByRole('radio', { name: 'Streamable HTTP' }).check();
    await this.form.getByLabel('Server address').fill(url);
    await this.form.getByLabel('Bearer token (optional)').fill(token ?? '');
    await this.form.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(this.connection(name)).toHaveAttribute('data-state', 'connected');
  }

  /** The skills found on one server. */
  skillsOn(server: string): Locator {
    return this.view.getByRole('region', { name: `Skills on ${server}`, exact: true });
  }

  /** Open a skill of a server and wait until its SKILL.md was read and checked. */
  async openSkill(server: string, name: string): Promise<void> {
    await this.skillsOn(server)
      .getByRole('button', { name: new RegExp(`^${name}\\b`) })
      .click();
    await expect(this.skill).toHaveAttribute('data-state', 'ready');
    await expect(this.skill.getByRole('heading', { level: 3 })).toContainText(name);
  }

  /** A file of the open skill's tree, by its path inside the skill. */
  file(path: string): Locator {
    return this.files.locator(`li[data-path="${path}"]`);
  }
}
