import { describe, expect, it } from 'vitest';
import {
  classifyTarget,
  renderMarkdownHtml,
  resolveSkillPath,
  sanitizePreviewHtml,
  stripFrontmatter,
} from './markdown-render';

const off = { allowRemote: false };
const html = (md: string, opts: { allowRemote: boolean; basePath?: string } = off): string =>
  renderMarkdownHtml(md, opts).html;

describe('resolveSkillPath', () => {
  it('normalises paths inside the skill', () => {
    expect(resolveSkillPath('', 'assets/logo.png')).toBe('assets/logo.png');
    expect(resolveSkillPath('', './references/../assets/./a.png')).toBe('assets/a.png');
    expect(resolveSkillPath('references', '../assets/a.png')).toBe('assets/a.png');
    expect(resolveSkillPath('references', 'more.md#part')).toBe('references/more.md');
    expect(resolveSkillPath('', 'my%20file.md?x=1')).toBe('my file.md');
    expect(resolveSkillPath('', 'a\\b.png')).toBe('a/b.png');
  });

  it('rejects anything that leaves the skill folder or is absolute', () => {
    for (const bad of [
      '../secret.txt',
      'assets/../../x',
      '/etc/passwd',
      'C:/Windows/win.ini',
      'c:\\x',
      '..%2F..%2Fx',
      '%2e%2e/x',
      '\\\\server\\share',
      '',
      '.',
      'a/..',
      '%zz',
      'a%00b',
    ]) {
      expect(resolveSkillPath('', bad), bad).toBeNull();
    }
    expect(resolveSkillPath('references', '../../x')).toBeNull();
    expect(resolveSkillPath('../outside', 'x.png')).toBeNull();
  });
});

describe('classifyTarget', () => {
  it('sorts addresses into skill files, remote, anchors, inline data and blocked', () => {
    expect(classifyTarget('references/guide.md')).toEqual({
      kind: 'skill',
      path: 'references/guide.md',
    });
    expect(classifyTarget('https://example.com/a')).toEqual({
      kind: 'remote',
      url: 'https://example.com/a',
    });
    expect(classifyTarget('HTTP://example.com')).toEqual({
      kind: 'remote',
      url: 'HTTP://example.com',
    });
    expect(classifyTarget('//cdn.example.com/x.png')).toEqual({
      kind: 'remote',
      url: 'https://cdn.example.com/x.png',
    });
    expect(classifyTarget('#usage')).toEqual({ kind: 'anchor', id: 'usage' });
    expect(classifyTarget('data:image/png;base64,AAAA').kind).toBe('data');
    for (const bad of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:image/svg+xml,<svg/>',
      'vbscript:x',
      'mailto:a@b.c',
      '../x',
      'C:\\x',
    ]) {
      expect(classifyTarget(bad).kind, bad).toBe('blocked');
    }
  });
});

describe('renderMarkdownHtml', () => {
  it('escapes raw HTML instead of passing it through', () => {
    const out = html(
      '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\nText <iframe src="https://evil"></iframe>',
    );
    expect(out).not.toMatch(/<script|<img|<iframe/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;iframe');
  });

  it('renders headings, code blocks and tables', () => {
    const out = html('# Title\n\n```bash\necho "hi" <x>\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    expect(out).toContain('<h1>Title</h1>');
    expect(out).toContain(
      '<pre><code class="language-bash">echo &quot;hi&quot; &lt;x&gt;\n</code></pre>',
    );
    expect(out).toContain('<table>');
    expect(out).toContain('<td>1</td>');
  });

  it('does not turn bare URLs into links', () => {
    expect(html('see https://example.com')).not.toContain('<a');
  });

  it('marks external links with rel noreferrer noopener and no target', () => {
    const out = html('[site](https://example.com/x "Site")');
    expect(out).toBe(
      '<p><a href="https://example.com/x" title="https://example.com/x" rel="noreferrer noopener" data-link="external">site</a></p>\n',
    );
    expect(out).not.toContain('target=');
  });

  it('marks relative links with their skill path as tooltip', () => {
    const out = html('[guide](../assets/guide.md)', { allowRemote: false, basePath: 'references' });
    expect(out).toContain(
      'href="../assets/guide.md" title="assets/guide.md" data-link="skill" data-skill-path="assets/guide.md"',
    );
  });

  it('disarms links that escape the skill or use other schemes', () => {
    const up = html('[up](../../etc/passwd)');
    expect(up).toContain('href="#"');
    expect(up).toContain('data-link="blocked"');
    expect(up).toContain('outside the skill folder');
    expect(up).not.toContain('data-skill-path');
    const js = html('[x](javascript:alert(1))');
    expect(js).not.toMatch(/href="javascript/i);
  });

  it('holds relative images back for resolveImage, with no src', () => {
    const out = html('![Logo](assets/logo.png "The logo")');
    expect(out).toBe('<p><img alt="Logo" title="The logo" data-skill-src="assets/logo.png"></p>\n');
  });

  it('never loads remote images unless allowed, and counts the held-back ones', () => {
    const md = '![chart](https://example.com/c.png) and ![](http://example.com/d.png)';
    const blocked = renderMarkdownHtml(md, { allowRemote: false });
    // Only the https image can ever be loaded, so only it is offered.
    expect(blocked.blockedRemoteImages).toBe(1);
    expect(blocked.html).not.toContain('<img');
    expect(blocked.html).toContain(
      '<span class="md-image-placeholder" data-remote-src="https://example.com/c.png" title="https://example.com/c.png">chart</span>',
    );
    expect(blocked.html).toContain('>Remote image</span>');
    const allowed = renderMarkdownHtml(md, { allowRemote: true });
    expect(allowed.blockedRemoteImages).toBe(0);
    // A plain http image stays a placeholder even after remote images are allowed.
    expect(allowed.html).not.toContain('src="http://');
    expect(allowed.html).toContain('plain http: images are never loaded');
    expect(allowed.html).toContain(
      '<img src="https://example.com/c.png" alt="chart" referrerpolicy="no-referrer" loading="lazy">',
    );
  });

  it('shows images outside the skill as a placeholder, never as a src', () => {
    const out = html('![secret](../../home/me/.ssh/id_rsa)');
    expect(out).not.toContain('<img');
    expect(out).toContain('md-image-placeholder');
    expect(out).toContain('outside the skill folder');
  });

  it('escapes alt text and titles', () => {
    const out = html('![a"><script>](assets/x.png "t\\"onload=\\"x")');
    expect(out).not.toContain('<script>');
    expect(out).toContain('alt="a&quot;&gt;&lt;script&gt;"');
    expect(out).toContain('title="t&quot;onload=&quot;x"');
  });
});

describe('stripFrontmatter', () => {
  it('drops a closed frontmatter and keeps the body exactly', () => {
    expect(stripFrontmatter('---\nname: a\n---\n# Body\n\ntext')).toBe('# Body\n\ntext');
    expect(stripFrontmatter('\ufeff---\r\nname: a\r\n---\r\nBody\r\n')).toBe('Body\r\n');
  });

  it('keeps text without a frontmatter or with an unclosed one', () => {
    expect(stripFrontmatter('# Title\n---\n')).toBe('# Title\n---\n');
    expect(stripFrontmatter('---\nname: a\n')).toBe('---\nname: a\n');
  });
});

describe('sanitizePreviewHtml', () => {
  it('refuses to run without a DOM instead of returning unsanitised HTML', () => {
    expect(() => sanitizePreviewHtml('<img src=x onerror=alert(1)>', false)).toThrow(/browser/);
  });
});
