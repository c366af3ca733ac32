import { expect, type Locator, type Page } from '@playwright/test';

/** The "What the agent sees" tab and the Hosts panel, as a user sees them (docs/conventions.md §8). */
export class AgentViewPage {
  readonly tab: Locator;
  readonly view: Locator;
  readonly catalog: Locator;
  readonly block: Locator;
  readonly claudeCodeTab: Locator;
  readonly claudeCodeList: Locator;
  readonly codexTab: Locator;
  readonly codexList: Locator;
  readonly codexLeftOut: Locator;
  readonly geminiTab: Locator;
  readonly geminiList: Locator;
  readonly geminiLeftOut: Locator;
  readonly copy: Locator;
  readonly footprint: Locator;
  readonly perSkill: Locator;
  readonly sameNames: Locator;
  readonly budget: Locator;
  readonly tester: Locator;
  readonly prompt: Locator;
  readonly files: Locator;
  readonly intents: Locator;
  readonly threshold: Locator;
  readonly picked: Locator;
  readonly notPicked: Locator;
  readonly examples: Locator;
  readonly hosts: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tab', { name: 'What the agent sees' });
    this.view = page.getByRole('region', { name: 'What the agent sees' });
    this.catalog = this.view.getByRole('region', { name: 'Catalog' });
    this.block = this.catalog.getByLabel('The available_skills block');
    this.claudeCodeTab = this.catalog.getByRole('tab', { name: 'Claude Code' });
    this.claudeCodeList = this.catalog.getByLabel("Claude Code's skill list");
    this.codexTab = this.catalog.getByRole('tab', { name: 'Codex' });
    this.codexList = this.catalog.getByLabel("Codex's skill list");
    this.codexLeftOut = this.catalog.getByRole('list', { name: "Not in Codex's list" });
    this.geminiTab = this.catalog.getByRole('tab', { name: 'Gemini CLI' });
    this.geminiList = this.catalog.getByLabel("Gemini CLI's skill list");
    this.geminiLeftOut = this.catalog.getByRole('list', { name: "Not in Gemini CLI's list" });
    this.copy = this.catalog.getByRole('button', { name: 'Copy the skills list' });
    this.footprint = this.catalog.getByTestId('footprint-total');
    this.perSkill = this.catalog.getByRole('table', { name: 'Footprint per skill' });
    this.sameNames = this.catalog.getByRole('list', { name: 'Same names' });
    this.budget = this.catalog.getByLabel('Budget (tokens)');
    this.tester = this.view.getByRole('region', { name: 'Trigger tester' });
    this.prompt = this.tester.getByLabel('Prompt');
    this.files = this.tester.getByLabel('Attached file names');
    this.intents = this.tester.getByLabel('Intents the host detected');
    this.threshold = this.tester.getByLabel('Threshold');
    this.picked = this.tester.getByRole('list', { name: 'Picked skills' });
    this.notPicked = this.tester.getByRole('list', { name: 'Skills not picked' });
    this.examples = this.view.getByRole('region', { name: 'Trigger examples' });
    this.hosts = page.getByRole('region', { name: 'Hosts' });
  }

  /** Switch to the tab and wait until the catalog is read. */
  async open(): Promise<void> {
    await this.tab.click();
    await expect(this.view).toHaveAttribute('data-state', 'ready');
  }

  /** One result of the tester, by skill name. */
  result(list: Locator, name: string): Locator {
    return list.locator(`li.agent-result[data-skill="${name}"]`);
  }

  /** Open the Hosts panel under Problems (it starts folded, showing one line per host). */
  async openHosts(): Promise<void> {
    await this.hosts.locator('summary').click();
    await expect(this.hosts.locator('ul.hosts')).toBeVisible();
  }

  /** One host's card in the Hosts panel. */
  host(id: 'claude-api' | 'claude-code' | 'mcp' | 'openai-strict'): Locator {
    return this.hosts.locator(`li[data-host="${id}"]`);
  }
}
