import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../fixtures';

// The browser shell's access token must reach no other page on this computer: cookies for
// 127.0.0.1 go to every port of 127.0.0.1, so the token never lives in one.
test('the access token leaves the address bar, and another local web page never receives it', async ({
  app,
  shell,
  library,
}) => {
  await library.addSkill('alpha', '---\nname: alpha\ndescription: A skill.\n---\nBody\n');
  await app.openFolder(library.dir);
  await expect(app.page).not.toHaveURL(/token=/);
  expect(await app.page.context().cookies()).toEqual([]);

  // Another server on another 127.0.0.1 port, as any local program may run one.
  const seen: IncomingHttpHeaders[] = [];
  const other = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>other</title><p>another local page</p>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const port = (other.address() as AddressInfo).port;
  try {
    await app.page.goto(`http://127.0.0.1:${port}/`);
    expect(seen.length).toBeGreaterThan(0);
    for (const headers of seen) {
      expect(headers.cookie).toBeUndefined();
      expect(JSON.stringify(headers)).not.toContain(shell.host.token);
    }
    // That page cannot read our tab's token, and its own call to our API is refused.
    const fromOther = await app.page.evaluate(async (api) => {
      const stored = window.sessionStorage.getItem('skillbench.token');
      const status = await fetch(`${api}/api/app.info`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: '{}',
      }).then(
        (response) => response.status,
        () => -1, // blocked by the browser: no answer to read
      );
      return { stored, status };
    }, shell.host.origin);
    expect(fromOther.stored).toBeNull();
    expect([403, 415, -1]).toContain(fromOther.status);
  } finally {
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }

  // Back in the same tab, without the token in the address: the tab still has it.
  await app.page.goto(`${shell.host.origin}/`);
  await expect(app.page.getByRole('button', { name: /alpha/ }).first()).toBeVisible();
});
