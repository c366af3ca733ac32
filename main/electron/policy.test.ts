import { describe, expect, it } from 'vitest';
import {
  isAllowedExternal,
  isAllowedNavigation,
  isTrustedSender,
  mainWindowOptions,
  resolveAppAsset,
} from './policy';

describe('Electron window options', () => {
  it('isolates, sandboxes and never gives the page Node', () => {
    const prefs = mainWindowOptions('/app/preload.cjs').webPreferences ?? {};
    expect(prefs).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

describe('URL guards', () => {
  it('allows navigation only within app://skillbench', () => {
    expect(isAllowedNavigation('app://skillbench/index.html')).toBe(true);
    for (const url of [
      'https://evil.example/',
      'file:///etc/passwd',
      'app://other/index.html',
      'http://127.0.0.1:3000/',
      'javascript:alert(1)',
      'not a url',
    ]) {
      expect(isAllowedNavigation(url), url).toBe(false);
    }
  });

  it('opens externally only https: links to allow-listed hosts', () => {
    expect(isAllowedExternal('https://agentskills.io/specification')).toBe(true);
    expect(isAllowedExternal('https://docs.claude.com/en/docs')).toBe(true);
    expect(isAllowedExternal('https://sub.github.com/x')).toBe(true);
    for (const url of [
      'http://agentskills.io/',
      'https://evil.example/',
      'https://agentskills.io.evil.example/',
      'https://evilgithub.com/',
      'file:///etc/passwd',
      'smb://host/share',
      'https://user:pass@github.com/',
      'javascript:alert(1)',
    ]) {
      expect(isAllowedExternal(url), url).toBe(false);
    }
  });

  it('trusts IPC only from our top frame', () => {
    expect(isTrustedSender('app://skillbench/index.html', true)).toBe(true);
    expect(isTrustedSender('app://skillbench/index.html', false)).toBe(false);
    expect(isTrustedSender('https://evil.example/', true)).toBe(false);
    expect(isTrustedSender(undefined, true)).toBe(false);
  });

  it('maps app:// URLs into the renderer build and nowhere else', () => {
    expect(resolveAppAsset('/app/renderer', 'app://skillbench/')).toBe('/app/renderer/index.html');
    expect(resolveAppAsset('/app/renderer', 'app://skillbench/assets/a.js')).toBe(
      '/app/renderer/assets/a.js',
    );
    // The URL parser folds dot segments itself; whatever survives must stay inside the build.
    for (const url of ['app://skillbench/../secret', 'app://skillbench/%2e%2e/%2e%2e/etc/passwd']) {
      expect(resolveAppAsset('/app/renderer', url)?.startsWith('/app/renderer/'), url).toBe(true);
    }
    expect(resolveAppAsset('/app/renderer', 'app://skillbench/..%2F..%2Fetc%2Fpasswd')).toBeNull();
    expect(resolveAppAsset('/app/renderer', 'app://skillbench/%2E%2E%5C..%5Cetc')).toBeNull();
    expect(resolveAppAsset('/app/renderer', 'app://other/index.html')).toBeNull();
  });
});
