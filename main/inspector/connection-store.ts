/**
 * Saved connections in `<data folder>/inspector-connections.json`. Secrets —
 * bearer tokens, headers and environment values marked secret, OAuth tokens and registrations —
 * go through an injected {@link SecretBox} (Electron passes `safeStorage`) and are never written in
 * plain text nor handed back to callers: they see `hasSecret: true`. Without a SecretBox, saving
 * a secret is refused with a plain sentence.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-write';
import { InspectorError } from './errors';
import type { OAuthState } from './oauth';
import type { ConnectionInput, SavedConnection } from './types';

import type { SecretBox } from '../library/secret-store';

export type { SecretBox };

/** File name of the store inside the data folder. */
export const CONNECTIONS_FILE = 'inspector-connections.json';

interface StoredValue {
  name: string;
  /** Plain value, only for non-secret entries. */
  value?: string;
  /** Encrypted value, only for secret entries. */
  sealed?: string;
  secret: boolean;
}

interface StoredConnection {
  id: string;
  label: string;
  kind: ConnectionInput['kind'];
  url?: string;
  headers: StoredValue[];
  bearerSealed?: string;
  oauth: boolean;
  oauthSealed?: string;
  command?: string;
  args: string[];
  env: StoredValue[];
  cwd?: string;
  savedAt: string;
}

interface StoreFile {
  version: 1;
  connections: StoredConnection[];
}

/** The saved-connections store. */
export class ConnectionStore {
  private cache: StoreFile | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly box?: SecretBox,
  ) {}

  private get path(): string {
    return join(this.dataDir, CONNECTIONS_FILE);
  }

  private async load(): Promise<StoreFile> {
    if (this.cache) return this.cache;
    try {
      const parsed = JSON.parse(await readFile(this.path, 'utf8')) as StoreFile;
      this.cache =
        parsed.version === 1 && Array.isArray(parsed.connections)
          ? parsed
          : { version: 1, connections: [] };
    } catch {
      this.cache = { version: 1, connections: [] };
    }
    return this.cache;
  }

  private async write(file: StoreFile): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    await writeFileAtomic(this.path, `${JSON.stringify(file, null, 2)}\n`);
    this.cache = file;
  }

  private seal(what: string, plain: string): string {
    // Why: secrets are never written in plain text; without a box we refuse rather than fall back.
    if (!this.box)
      throw new InspectorError(
        'no-secret-box',
        `${what} is a secret, and secure storage is not available here, so it cannot be saved. Save the connection without it and enter it when connecting.`,
      );
    return this.box.encrypt(plain);
  }

  private open(sealed: string): string {
    if (!this.box)
      throw new InspectorError(
        'no-secret-box',
        'Secure storage is not available, so saved secrets cannot be read.',
      );
    return this.box.decrypt(sealed);
  }

  private static publicView(c: StoredConnection): SavedConnection {
    const pub = (
      v: StoredValue,
    ): { name: string; value?: string; secret: boolean; hasSecret: boolean } =>
      v.secret
        ? { name: v.name, secret: true, hasSecret: v.sealed !== undefined }
        : { name: v.name, value: v.value, secret: false, hasSecret: false };
    return {
      id: c.id,
      label: c.label,
      kind: c.kind,
      url: c.url,
      headers: c.headers.map(pub),
      hasBearerToken: c.bearerSealed !== undefined,
      oauth: c.oauth,
      hasOAuthTokens: c.oauthSealed !== undefined,
      command: c.command,
      args: c.args,
      env: c.env.map(pub),
      cwd: c.cwd,
      savedAt: c.savedAt,
    };
  }

  /** Every saved connection, secrets replaced by `hasSecret`. */
  async list(): Promise<SavedConnection[]> {
    return (await this.load()).connections.map((c) => ConnectionStore.publicView(c));
  }

  /**
   * Save (or update, when `id` is given) a connection. A secret left empty on update keeps the
   * stored one, so the screen can edit a connection without ever seeing its secrets.
   */
  async save(input: ConnectionInput, id?: string): Promise<SavedConnection> {
    const file = await this.load();
    const existing = id ? file.connections.find((c) => c.id === id) : undefined;
    if (id && !existing)
      throw new InspectorError('not-found', 'There is no saved connection with that id.');
    const values = (
      list: { name: string; value: string; secret?: boolean }[] | undefined,
      old: StoredValue[],
      what: string,
    ): StoredValue[] =>
      (list ?? []).map((v) => {
        if (!v.secret) return { name: v.name, value: v.value, secret: false };
        if (v.value === '' && old.find((o) => o.name === v.name)?.sealed)
          return { name: v.name, sealed: old.find((o) => o.name === v.name)?.sealed, secret: true };
        return { name: v.name, sealed: this.seal(`${what} "${v.name}"`, v.value), secret: true };
      });
    const stored: StoredConnection = {
      id: existing?.id ?? randomUUID(),
      label: input.label,
      kind: input.kind,
      url: input.url,
      headers: values(input.headers, existing?.headers ?? [], 'The header'),
      bearerSealed: input.bearerToken
        ? this.seal('The bearer token', input.bearerToken)
        : existing?.bearerSealed,
      oauth: input.oauth !== false,
      oauthSealed: existing?.oauthSealed,
      command: input.command,
      args: input.args ?? [],
      env: values(input.env, existing?.env ?? [], 'The environment variable'),
      cwd: input.cwd,
      savedAt: new Date().toISOString(),
    };
    const connections = existing
      ? file.connections.map((c) => (c.id === stored.id ? stored : c))
      : [...file.connections, stored];
    await this.write({ version: 1, connections });
    return ConnectionStore.publicView(stored);
  }

  /** Remove a saved connection and its secrets. */
  async remove(id: string): Promise<boolean> {
    const file = await this.load();
    const connections = file.connections.filter((c) => c.id !== id);
    if (connections.length === file.connections.length) return false;
    await this.write({ version: 1, connections });
    return true;
  }

  /** The connection with its secrets decrypted, for connecting only (never returned to callers). */
  async resolve(id: string): Promise<{ input: ConnectionInput; oauthState?: OAuthState }> {
    const c = (await this.load()).connections.find((x) => x.id === id);
    if (!c) throw new InspectorError('not-found', 'There is no saved connection with that id.');
    const plain = (v: StoredValue): { name: string; value: string; secret: boolean } => ({
      name: v.name,
      value: v.secret ? (v.sealed ? this.open(v.sealed) : '') : (v.value ?? ''),
      secret: v.secret,
    });
    return {
      input: {
        label: c.label,
        kind: c.kind,
        url: c.url,
        headers: c.headers.map(plain),
        bearerToken: c.bearerSealed ? this.open(c.bearerSealed) : undefined,
        oauth: c.oauth,
        command: c.command,
        args: c.args,
        env: c.env.map(plain),
        cwd: c.cwd,
      },
      oauthState: c.oauthSealed ? (JSON.parse(this.open(c.oauthSealed)) as OAuthState) : undefined,
    };
  }

  /** Store OAuth tokens and registration for a saved connection (encrypted). */
  async saveOAuthState(id: string, state: OAuthState): Promise<void> {
    const file = await this.load();
    const c = file.connections.find((x) => x.id === id);
    if (!c) return;
    const sealed =
      state.tokens || state.clientInformation
        ? this.seal('The OAuth sign-in', JSON.stringify(state))
        : undefined;
    await this.write({
      version: 1,
      connections: file.connections.map((x) => (x.id === id ? { ...x, oauthSealed: sealed } : x)),
    });
  }
}
