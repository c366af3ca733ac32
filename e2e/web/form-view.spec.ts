import { expect, test } from '../fixtures';

test('editing the description in the form keeps the YAML comment written above it', async ({
  app,
  library,
}) => {
  const source =
    '---\nname: notes\n# Keep this short: it decides when the skill loads.\ndescription: Old description.\nlicense: MIT # chosen by legal\n---\n# Notes\n\nBody text.\n';
  const path = await library.addSkill('notes', source);
  await app.openFolder(library.dir);
  await app.openSkill('notes');
  await app.page.getByRole('tab', { name: 'Form' }).click();
  const form = app.page.locator('[data-field="description"]');
  const description = form.getByRole('textbox');
  await expect(description).toHaveValue('Old description.');
  await description.fill('Summarises notes: owners, dates and next steps.');
  await expect(app.editor).toHaveAttribute('data-dirty', 'true');
  await app.saveButton.click();
  await expect(app.status).toHaveText('Saved');
  expect(await library.read(path)).toBe(
    source.replace(
      'description: Old description.',
      'description: "Summarises notes: owners, dates and next steps."',
    ),
  );

  // Text and form stay in sync: the text view shows the form's edit.
  await app.page.getByRole('tab', { name: 'Text' }).click();
  await expect(app.page.locator('.monaco-editor .view-lines').first()).toContainText(
    'Summarises notes: owners',
  );
});

test('the preview renders the body inert: no scripts, relative images from the skill', async ({
  app,
  library,
}) => {
  await library.addSkill(
    'notes',
    '---\nname: notes\ndescription: Preview test.\n---\n# Heading\n\n<script>window.__pwned = true</script>\n\n![logo](assets/logo.svg)\n\n[guide](references/guide.md)\n',
  );
  await library.addFile('notes/references/guide.md', '# Guide\n');
  await library.addFile(
    'notes/assets/logo.svg',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
  );
  await app.openFolder(library.dir);
  await app.openSkill('notes');
  await app.page.getByRole('button', { name: 'Preview', exact: true }).click();
  const preview = app.page.getByLabel('Preview', { exact: true });
  await expect(preview.getByRole('heading', { name: 'Heading' })).toBeVisible();
  await expect(preview.locator('img[alt="logo"]')).toHaveAttribute('src', /^data:image\/svg\+xml/);
  expect(
    await app.page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned),
  ).toBeUndefined();
  await expect(preview.locator('script')).toHaveCount(0);
  // A relative link opens the file of the skill it points to.
  await preview.getByRole('link', { name: 'guide' }).click();
  await expect(app.page.locator('.editor-path')).toContainText('references/guide.md');
});

test('a field named after a format shows that format’s own name (x-personal-mcp), never a made-up one', async ({
  app,
  library,
}) => {
  await library.addSkill(
    'personal-notes',
    [
      '---',
      'name: personal-notes',
      'description: Keep personal notes in order. Use when the user shares notes to file.',
      'x-personal-mcp:',
      '  id: personal-notes',
      '  version: 1.2.0',
      '  capabilities:',
      '    - resource://skills/personal-notes/document',
      '  tags:',
      '    - notes',
      '---',
      '# Personal notes',
      '',
    ].join('\n'),
  );
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await app.openFolder(library.dir);
  await app.openSkill('personal-notes');
  await app.page.getByRole('tab', { name: 'Form' }).click();
  const form = app.page.getByRole('form', { name: 'Frontmatter fields' });
  const field = form.locator('[data-field="x-personal-mcp"]');
  await expect(field.locator('.fv-label')).toHaveText(/^x-personal-mcp\b/);
  await field.scrollIntoViewIfNeeded();
  await app.page.screenshot({ path: 'out/screenshots/form-x-personal-mcp.png' });
  await expect(form).not.toContainText(/x personal mcp/i);
  await expect(app.page.locator('body')).not.toContainText(/x personal mcp/i);
});

test('a frontmatter the form cannot read offers its one-click fix right there, and the form comes back', async ({
  app,
  library,
}) => {
  const source =
    '---\nname: notes\ndescription: Summarises notes: owners and dates.\n---\n# Notes\n';
  const path = await library.addSkill('notes', source);
  await app.openFolder(library.dir);
  await app.openSkill('notes');
  await app.page.getByRole('tab', { name: 'Form' }).click();
  const blocked = app.page.getByRole('status').filter({ hasText: 'The form cannot show' });
  await expect(blocked).toContainText('colon followed by a space');
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await app.page.screenshot({ path: 'out/screenshots/form-blocked-fix.png' });
  await blocked.getByRole('button', { name: 'Put the value in quotes' }).click();
  const description = app.page.locator('[data-field="description"]').getByRole('textbox');
  await expect(description).toHaveValue('Summarises notes: owners and dates.');
  await app.saveButton.click();
  await expect(app.status).toHaveText('Saved');
  expect(await library.read(path)).toBe(
    source.replace(
      'description: Summarises notes: owners and dates.',
      'description: "Summarises notes: owners and dates."',
    ),
  );
});
