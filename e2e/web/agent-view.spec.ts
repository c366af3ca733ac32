import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeAgentLibrary, makeServedLibrary } from '../../main/testing/agent-library';
import { startEmbeddedHttp, type RunningServer } from '../../main/testing/inspector-servers';
import { seriousViolations } from '../axe';
import { expect, test as base } from '../fixtures';
import { AgentViewPage } from '../pages/agent-view-page';
import { InspectorPage } from '../pages/inspector-page';

/** Where the screenshots of the new views go (looked at by a person, never compared). */
const SHOTS = join(import.meta.dirname, '..', '..', 'out', 'screenshots');

/** A library on disk, and a second library served by Skillbench's own server on 127.0.0.1. */
const test = base.extend<{ served: RunningServer; agent: AgentViewPage; local: string }>({
  local: async ({ library }, use) => {
    const local = join(library.dir, 'mine');
    await makeAgentLibrary(local);
    await use(local);
  },
  served: async ({ library }, use) => {
    const dir = join(library.dir, 'team');
    await makeServedLibrary(dir);
    const server = await startEmbeddedHttp(dir);
    await use(server);
    await server.close();
  },
  agent: async ({ app }, use) => {
    await app.page.setViewportSize({ width: 1280, height: 800 });
    await use(new AgentViewPage(app.page));
  },
});

test('the catalog shows what the agent sees from a library and a connected server, and copies it', async ({
  app,
  agent,
  local,
  served,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await app.openFolder(local);
  await expect(app.skill('pdf-forms')).toBeVisible();
  const inspector = new InspectorPage(app.page);
  await inspector.open();
  await inspector.connectHttp('team', served.url, served.token);
  await expect(inspector.skillsOn('team')).toContainText('remote-only');

  await agent.open();
  await expect(agent.block).toContainText(`<location>${local}/pdf-forms/SKILL.md</location>`);
  await expect(agent.block).toContainText('<location>skill://remote-only/SKILL.md</location>');
  await expect(agent.block).toContainText('<directory>skill://remote-only</directory>');
  await expect(agent.block).toContainText('Fill in PDF forms &amp; check &lt;fields&gt;.');
  await expect(agent.block).not.toContainText('The server copy of notes');
  await expect(agent.sameNames).toContainText('notes: the agent sees the copy at');
  await expect(agent.sameNames).toContainText('A skill on disk wins a name collision');
  await expect(agent.perSkill.getByRole('row')).toHaveCount(5);
  await expect(agent.perSkill.getByRole('row', { name: /remote-only/ })).toContainText(
    'read from the server when picked',
  );
  await expect(agent.footprint).toContainText('of your budget of 2,000 tokens. Within budget.');

  await agent.copy.click();
  await expect(agent.copy).toHaveText('Copied');
  const copied = await app.page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await agent.block.textContent());
  expect(copied.startsWith('<available_skills>')).toBe(true);

  await agent.budget.fill('100');
  await agent.catalog.getByRole('button', { name: 'Set budget' }).click();
  await expect(agent.footprint).toContainText('of your budget of 100 tokens. Over budget');

  await mkdir(SHOTS, { recursive: true });
  await app.page.screenshot({ path: join(SHOTS, 'agent-catalog.png') });
  await agent.sameNames.scrollIntoViewIfNeeded();
  await app.page.screenshot({ path: join(SHOTS, 'agent-footprint.png') });
  expect(await seriousViolations(app.page), 'what the agent sees').toEqual([]);

  // Disconnecting the server takes its skills out of the list.
  await inspector.open();
  await inspector
    .connection('team')
    .getByRole('button', { name: /Disconnect/ })
    .click();
  await agent.open();
  await expect(agent.block).not.toContainText('remote-only');
});

test('the trigger tester explains each pick and the example prompts give precision and recall', async ({
  app,
  agent,
  local,
}) => {
  await app.openFolder(local);
  await agent.open();
  await agent.prompt.fill('Please fill in the form for the meeting notes');
  await agent.files.fill('scan.PDF');
  await agent.intents.fill('fill-form');
  const pdf = agent.result(agent.picked, 'pdf-forms');
  await expect(pdf).toContainText('1. pdf-forms');
  await expect(pdf).toContainText('score 8');
  await expect(pdf).toContainText('The attached file “scan.PDF” is a .pdf file (+3).');
  await expect(pdf).toContainText('The prompt mentions “fill in” (mention “fill in”, +2).');
  await expect(pdf).toContainText(
    "The host's intent “fill-form” is one of this skill's intents (+1).",
  );
  await expect(pdf).toContainText('First: the highest score (8).');
  const notes = agent.result(agent.notPicked, 'notes');
  await expect(notes).toContainText('It has no when_to_use triggers.');
  await expect(notes).toContainText(
    'Hint, not part of the selection rules: its description shares “meeting”, “notes” with the prompt',
  );

  // Naming a skill picks it first, whatever its score; a threshold of 2 lets invoices in too.
  await agent.prompt.fill('/notes: an invoice, please');
  await agent.files.fill('');
  await agent.threshold.fill('2');
  await expect(agent.picked.locator('li.agent-result')).toHaveCount(2);
  await expect(agent.result(agent.picked, 'notes')).toContainText('The prompt names this skill');
  await expect(agent.result(agent.picked, 'invoices')).toContainText(
    'skills the prompt names come before skills chosen by score',
  );

  // The examples run at the tester's threshold: back to the default 3.
  await agent.threshold.fill('');
  await agent.examples.getByRole('button', { name: 'Run the examples' }).click();
  await expect(agent.examples.getByTestId('evals-library')).toContainText(
    'Whole library: precision 100%, recall 67% (threshold 3)',
  );
  const row = agent.examples.locator('tr[data-skill="pdf-forms"]');
  await expect(row).toContainText('100%');
  await expect(row).toContainText('50%');
  await expect(row).toContainText('Not picked for “a form”');

  await app.page.screenshot({ path: join(SHOTS, 'agent-tester.png') });
  expect(await seriousViolations(app.page), 'trigger tester and examples').toEqual([]);
});

test('the Hosts panel shows each host and fixes a tool schema OpenAI strict mode would refuse', async ({
  app,
  agent,
  local,
}) => {
  await app.openFolder(local);
  await app.openSkill('pdf-forms');
  await expect(agent.hosts.locator('summary')).toContainText(
    'OpenAI (strict tools): would be refused',
  );
  await agent.openHosts();
  await expect(agent.host('openai-strict')).toHaveAttribute('data-verdict', 'problem');
  await expect(agent.host('openai-strict')).toContainText(
    'does not say “additionalProperties: false”, which strict mode requires',
  );
  await expect(agent.host('claude-code')).toContainText(
    'Claude Code does not turn frontmatter tools',
  );
  await expect(agent.host('claude-api')).toContainText('of the 8 MB a skill may have');
  await expect(agent.host('claude-api')).toContainText(
    'Export rewrites the frontmatter for the upload',
  );
  await app.page.screenshot({ path: join(SHOTS, 'hosts-panel.png') });
  expect(await seriousViolations(app.page), 'hosts panel').toEqual([]);

  await agent
    .host('openai-strict')
    .getByRole('button', { name: /Add “additionalProperties: false”/ })
    .click();
  await expect(agent.host('openai-strict')).toHaveAttribute('data-verdict', 'ok');
  await expect(agent.host('openai-strict')).toContainText('Strict mode accepts all 1 tool schema.');
  // Each host's form of the tools, copied from its row (what `pack --target tools-*` writes).
  await app.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const copyFor = async (
    host: Parameters<AgentViewPage['host']>[0],
    label: string,
  ): Promise<unknown> => {
    const button = agent.host(host).getByRole('button', { name: label });
    await button.click();
    await expect(button).toHaveText('Copied');
    return JSON.parse(await app.page.evaluate(() => navigator.clipboard.readText())) as unknown;
  };
  const openai = (await copyFor('openai-strict', 'Copy the tools as OpenAI function tools')) as {
    type: string;
    function: { name: string; strict: boolean; parameters: unknown };
  }[];
  expect(openai.map((t) => [t.type, t.function.name, t.function.strict])).toEqual([
    ['function', 'fill', true],
  ]);
  expect(openai[0]?.function.parameters).toMatchObject({ additionalProperties: false });
  const mcp = (await copyFor('mcp', 'Copy the tools as MCP tools/list entries')) as {
    name: string;
    inputSchema: unknown;
  }[];
  expect(mcp.map((t) => t.name)).toEqual(['fill']);
  expect(mcp[0]?.inputSchema).toMatchObject({ type: 'object' });
  const claude = (await copyFor('claude-api', 'Copy the tools as Claude API tools')) as {
    name: string;
    input_schema: unknown;
  }[];
  expect(claude.map((t) => t.name)).toEqual(['fill']);
  await app.saveButton.click();
  await expect(app.saveButton).toBeDisabled();
});

test('a listed skill that strict readers skip says so under its name, in the words the Server tab uses', async ({
  app,
  agent,
  library,
}) => {
  await library.addSkill(
    'folder-a',
    '---\nname: other-name\ndescription: Does a. Use when asked for a.\n---\n# A\n',
  );
  await library.addSkill('fine', '---\nname: fine\ndescription: Does fine things.\n---\n# Fine\n');
  const long = 'a'.repeat(65);
  await library.addSkill(long, `---\nname: ${long}\ndescription: Does long things.\n---\n# L\n`);
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await app.openFolder(library.dir);
  await agent.open();
  const row = agent.perSkill.getByRole('row', { name: /^other-name/ });
  // A long name and long notes leave the "From" column wide enough to read a path.
  const from = await row.locator('td.agent-from').boundingBox();
  expect(from?.width ?? 0).toBeGreaterThan(100);
  await expect(row.getByRole('note')).toContainText(
    'Hosts that follow the Agent Skills specification skip it, and the Server tab does not serve it: The name "other-name" is different from the folder name "folder-a".',
  );
  await expect(agent.perSkill.getByRole('row', { name: /^fine/ }).getByRole('note')).toHaveCount(0);
  await app.page.screenshot({ path: join(SHOTS, 'agent-view-not-served.png') });
});

test("a listed skill whose description Claude Code's list cuts says how much under its name", async ({
  app,
  agent,
  library,
}) => {
  const description = 'Checks forms. '.repeat(71).trim();
  const whenToUse = 'When a form arrives. '.repeat(30).trim();
  await library.addSkill(
    'wordy',
    `---\nname: wordy\ndescription: ${description}\nwhen_to_use: ${whenToUse}\n---\n# Wordy\n`,
  );
  await library.addSkill('fine', '---\nname: fine\ndescription: Does fine things.\n---\n# Fine\n');
  await app.openFolder(library.dir);
  await agent.open();
  const row = agent.perSkill.getByRole('row', { name: /^wordy/ });
  await expect(row.getByRole('note')).toHaveText(
    `Cut in Claude Code's skill list: Claude Code shows the model the first 1,535 characters of the description and when_to_use, joined with " - " between them, and "…": this one has 1,625, so the last 90 are not seen. Put what decides when to use the skill first, or shorten it. [description/listing-truncated]`,
  );
  await expect(agent.perSkill.getByRole('row', { name: /^fine/ }).getByRole('note')).toHaveCount(0);
  await app.page.screenshot({ path: join(SHOTS, 'agent-view-listing-cut.png') });
});

test('a 64-letter name (the longest allowed) stays inside its half of the view: the per-skill table and its card in "Will it be picked?"', async ({
  app,
  agent,
  library,
}) => {
  const long = `${'formfiller'.repeat(6)}abcd`;
  expect(long).toHaveLength(64);
  await library.addSkill(
    long,
    `---\nname: ${long}\ndescription: Fills in PDF forms. Use when the user has a PDF form to fill.\nwhen_to_use: fill in a form\n---\n# Long\n`,
  );
  await library.addSkill('notes', '---\nname: notes\ndescription: Keeps notes.\n---\n# Notes\n');
  await app.openFolder(library.dir);
  await agent.open();
  await agent.prompt.fill(`/${long} fill in the form`);
  const card = agent.result(agent.picked, long);
  await expect(card).toContainText('The prompt names this skill');
  const overflow = (locator: typeof card) =>
    locator.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const parent = (el.parentElement as HTMLElement).getBoundingClientRect();
      return {
        scroll: el.scrollWidth - el.clientWidth,
        right: Math.round(box.right - parent.right),
      };
    });
  const catalogBox = await agent.catalog.boundingBox();
  const tableBox = await agent.perSkill.boundingBox();
  expect(tableBox!.x + tableBox!.width).toBeLessThanOrEqual(catalogBox!.x + catalogBox!.width + 1);
  // The name breaks inside its own cell instead of running over the next ones.
  const nameCell = agent.perSkill.getByRole('rowheader', { name: new RegExp(`^${long}`) });
  expect((await overflow(nameCell)).scroll).toBeLessThanOrEqual(0);
  const cardOverflow = await overflow(card);
  expect(cardOverflow.scroll).toBeLessThanOrEqual(0);
  expect(cardOverflow.right).toBeLessThanOrEqual(0);
  await app.page.screenshot({ path: join(SHOTS, 'agent-view-long-name.png') });
});

test("Claude Code's tab shows its skill list as Claude Code writes it: every folder, the name beside it, a missing description's first line", async ({
  app,
  agent,
  library,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await library.addSkill(
    'pdf-forms',
    '---\nname: pdf-forms\ndescription: Fills <form> fields.\nwhen_to_use: When a PDF arrives.\n---\n# PDF\n',
  );
  await library.addSkill('drafts', '---\nname: notes\n---\n# Draft notes\n\nLater.\n');
  await library.addSkill('notes', '---\nname: notes\ndescription: Keeps notes.\n---\n# Notes\n');
  await app.openFolder(library.dir);
  await agent.open();
  await agent.claudeCodeTab.click();
  // Each line is what Claude Code 2.1.332 sent for such a file (docs/claude-code-listing.md):
  // both folders named notes are listed, the block's one-per-name rule is not Claude Code's.
  await expect(agent.claudeCodeList).toHaveText(
    [
      'The following skills are available for use with the Skill tool:',
      '',
      '- drafts: Draft notes',
      '- notes: Keeps notes.',
      '- pdf-forms: Fills &lt;form&gt; fields. - When a PDF arrives.',
    ].join('\n'),
  );
  expect(await seriousViolations(app.page), "Claude Code's tab").toEqual([]);
  await app.page.screenshot({ path: join(SHOTS, 'agent-view-claude-code.png') });
  await agent.copy.click();
  expect(await app.page.evaluate(() => navigator.clipboard.readText())).toContain(
    '- drafts: Draft notes',
  );
  await agent.catalog.getByRole('tab', { name: '<available_skills>' }).click();
  await expect(agent.block).toContainText('<name>pdf-forms</name>');
});

test("Codex's tab shows its skill list as Codex writes it, and which skills Codex leaves out and why", async ({
  app,
  agent,
  library,
}) => {
  // Each case is what Codex 0.171.0 did with such a file (docs/codex-listing.md).
  await library.addSkill(
    'pdf-forms',
    '---\nname: PDF Forms\ndescription: Fills <form> fields.\n---\n# PDF\n',
  );
  await library.addSkill('notes', '---\ndescription: Keeps notes.\n---\n# Notes\n');
  await library.addSkill('drafts', '---\nname: drafts\n---\n# Draft notes\n');
  await app.openFolder(library.dir);
  await agent.open();
  await agent.codexTab.click();
  await expect(agent.codexList).toHaveText(
    [
      '### Skill roots',
      `- \`r0\` = \`${library.dir}\``,
      '### Available skills',
      '- PDF Forms: Fills <form> fields. (file: r0/pdf-forms/SKILL.md)',
      '- notes: Keeps notes. (file: r0/notes/SKILL.md)',
    ].join('\n'),
  );
  await expect(agent.codexLeftOut).toContainText('Codex skips it: it has no description.');
  await expect(agent.codexLeftOut).toContainText(join(library.dir, 'drafts', 'SKILL.md'));
  expect(await seriousViolations(app.page), "Codex's tab").toEqual([]);
  await app.page.screenshot({ path: join(SHOTS, 'agent-view-codex.png') });
});

test("Gemini CLI's tab shows its skill list as Gemini CLI writes it, and which skills it leaves out and why", async ({
  app,
  agent,
  library,
}) => {
  // Each case is what Gemini CLI 0.61.0 did with such a file (docs/gemini-cli-listing.md).
  await library.addSkill(
    'pdf-forms',
    '---\nname: PDF Forms\ndescription: Fills <form> fields.\n---\n# PDF\n',
  );
  await library.addSkill(
    'notes',
    '---\nname: notes\ndescription: Use when: notes.\n---\n# Notes\n',
  );
  await library.addSkill('drafts', '--- \nname: drafts\ndescription: Drafts.\n---\n# Drafts\n');
  await app.openFolder(library.dir);
  await agent.open();
  await agent.geminiTab.click();
  const entry = (name: string, description: string, folder: string): string[] => [
    '  <skill>',
    `    <name>${name}</name>`,
    `    <description>${description}</description>`,
    `    <location>${join(library.dir, folder, 'SKILL.md')}</location>`,
    '  </skill>',
  ];
  await expect(agent.geminiList).toHaveText(
    [
      '<available_skills>',
      ...entry('notes', 'Use when: notes.', 'notes'),
      ...entry('PDF Forms', 'Fills <form> fields.', 'pdf-forms'),
      '</available_skills>',
    ].join('\n'),
  );
  await expect(agent.geminiLeftOut).toContainText(
    'Gemini CLI skips it: its first line is not exactly `---`.',
  );
  await expect(agent.geminiLeftOut).toContainText(join(library.dir, 'drafts', 'SKILL.md'));
  expect(await seriousViolations(app.page), "Gemini CLI's tab").toEqual([]);
  await app.page.screenshot({ path: join(SHOTS, 'agent-view-gemini.png') });
});
