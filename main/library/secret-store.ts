import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-write';

/** Encrypts with the OS keychain (Electron passes `safeStorage`); never plain text. */
export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

/**
 * Named secrets (the embedded server's token, inspector credentials) in `<userData>/secrets.json`,
 * each sealed by a {@link SecretBox}. Without a box (the browser shell, or an OS without a
 * keychain) nothing is stored: secrets then last only as long as the process.
 */
export class SecretStore {
  private readonly file: string;

  constructor(
    userDataDir: string,
    private readonly box: SecretBox | null,
  ) {
    this.file = join(userDataDir, 'secrets.json');
  }

  /** Can secrets be kept across restarts? */
  get persistent(): boolean {
    return this.box !== null;
  }

  private async readAll(): Promise<Record<string, string>> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.file, 'utf8'));
      return parsed !== null && typeof parsed === 'object'
        ? (parsed as Record<string, string>)
        : {};
    } catch {
      return {};
    }
  }

  /** The secret, or null when absent, unsealable, or no box exists. */
  async get(name: string): Promise<string | null> {
    if (!this.box) return null;
    const sealed = (await this.readAll())[name];
    if (typeof sealed !== 'string') return null;
    try {
      return this.box.decrypt(sealed);
    } catch {
      return null; // Why: a keychain change makes old secrets unreadable; treat them as absent.
    }
  }

  /** Keep a secret; returns false (and stores nothing) when there is no box. */
  async set(name: string, value: string): Promise<boolean> {
    if (!this.box) return false;
    const all = await this.readAll();
    all[name] = this.box.encrypt(value);
    await mkdir(join(this.file, '..'), { recursive: true });
    await writeFileAtomic(this.file, JSON.stringify(all, null, 2));
    return true;
  }
}
