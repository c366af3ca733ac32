import type { ChannelOutput, EventName, EventPayload } from '../../shared/ipc/contract';
import { join } from 'node:path';
import { processAgentEnv } from '../agents/paths';
import type { AddToClientOutcome, McpClientId } from '../../shared/ipc/contract';
import type { SecretStore } from '../library/secret-store';
import {
  addServerToClientFile,
  mcpClientFiles,
  type HomeEnv,
  type McpClientFile,
} from '../mcp-server/client-config-files';
import { stdioServerEntry } from '../mcp-server/client-setup';
import type { CliLaunch } from '../platform/cli-launch';
import type { SettingsStore } from '../library/settings-store';
import { generateToken } from '../mcp-server/http-host';
import { SkillsServerService } from '../mcp-server/service';
import { mcpServeCheck, withSafetyGate } from '../mcp-server/skill-check';

/** Sends an event to the renderer. */
export type Emit = <K extends EventName>(event: K, payload: EventPayload<K>) => void;

type Panel = ChannelOutput<'server.panel'>;

const TOKEN_SECRET = 'embedded-server-token';

/**
 * The app's embedded MCP server: serves the library roots from settings,
 * keeps its bearer token sealed in the secret store (Electron safeStorage) so client configs
 * keep working across restarts, and forwards status and request-log events to the renderer.
 */
export class ServerController {
  private service: SkillsServerService | null = null;

  constructor(
    private readonly settings: SettingsStore,
    private readonly secrets: SecretStore,
    private readonly emit: Emit,
    /** How a client starts this installation's CLI (main/platform/cli-launch.ts); undefined when it cannot. */
    private readonly cliLaunch: CliLaunch | undefined,
    /** Where linked skill folders may point besides the library roots (the agents' skills folders). */
    private readonly linkRoots: () => Promise<readonly string[]> = async () => [],
    /** The user-data folder, where "Trust anyway" decisions are kept (the safety gate reads them). */
    private readonly dataDir?: string,
    /** Where the clients' own config files are looked for ("Add to …"). */
    private readonly clientEnv: HomeEnv = processAgentEnv(),
  ) {}

  /** The clients whose config file "Add to …" writes, on this system. */
  private async clientFiles(): Promise<McpClientFile[]> {
    // Why not Claude Desktop on Linux: it has no Linux release, so there is no file it reads.
    return (await mcpClientFiles(this.clientEnv)).filter(
      (f) =>
        f.id !== 'claude-desktop' || process.platform === 'darwin' || process.platform === 'win32',
    );
  }

  /** Write the stdio setup into a client's own config file (see main/mcp-server/client-config-files.ts). */
  async addToClient(client: McpClientId, replace = false): Promise<AddToClientOutcome> {
    const file = (await mcpClientFiles(this.clientEnv)).find((f) => f.id === client);
    if (!file) throw new Error(`Unknown client ${client}.`);
    const roots = (await this.settings.get()).roots;
    const refused = (message: string): AddToClientOutcome => ({
      status: 'refused',
      client: file.client,
      path: file.path,
      message,
    });
    if (!this.cliLaunch)
      return refused(
        'A client cannot start this copy of Skillbench by itself, so there is no setup to add.',
      );
    if (roots.length === 0)
      return refused('Open a library folder first: the setup names the folders it serves.');
    return addServerToClientFile(file, 'skillbench', stdioServerEntry(this.cliLaunch, roots), {
      replace,
      ...(this.dataDir !== undefined ? { trashDir: join(this.dataDir, 'trash') } : {}),
    });
  }

  private async ensure(): Promise<SkillsServerService> {
    if (this.service) return this.service;
    let token = await this.secrets.get(TOKEN_SECRET);
    if (!token) {
      token = generateToken();
      await this.secrets.set(TOKEN_SECRET, token);
    }
    const service = new SkillsServerService({
      roots: (await this.settings.get()).roots,
      token,
      cliLaunch: this.cliLaunch,
      linkRoots: this.linkRoots,
      // Why the gate: a "Don't trust" skill is not served unless accepted (docs/safety-review.md).
      ...(this.dataDir !== undefined ? { check: withSafetyGate(mcpServeCheck, this.dataDir) } : {}),
    });
    service.on('status', () => this.emit('server.changed', {}));
    service.on('catalog', () => this.emit('server.changed', {}));
    service.on('request', (entry) => this.emit('server.requested', entry));
    this.service = service;
    return service;
  }

  /** Everything the panel shows. */
  async panel(): Promise<Panel> {
    const service = await this.ensure();
    const files = await this.clientFiles();
    return {
      status: service.status(),
      catalog: service.catalog() ?? null,
      requests: service.recentRequests(),
      clientSetup: service.clientSetup().map((snippet) => {
        const id =
          snippet.id === 'claude-desktop-stdio'
            ? 'claude-desktop'
            : snippet.id === 'cursor-stdio'
              ? 'cursor'
              : undefined;
        const file = files.find((f) => f.id === id);
        return file ? { ...snippet, addTo: { client: file.id, path: file.path } } : snippet;
      }),
      tokenStored: this.secrets.persistent,
    };
  }

  /** Start serving the current library roots. */
  async start(): Promise<Panel> {
    const service = await this.ensure();
    await service.setRoots((await this.settings.get()).roots);
    await service.start();
    return this.panel();
  }

  /** Stop serving. */
  async stop(): Promise<Panel> {
    await (await this.ensure()).stop();
    return this.panel();
  }

  /** A new token, kept sealed. */
  async regenerateToken(): Promise<Panel> {
    const token = await (await this.ensure()).regenerateToken();
    await this.secrets.set(TOKEN_SECRET, token);
    return this.panel();
  }

  /** Follow the library's roots while running. */
  async rootsChanged(): Promise<void> {
    if (this.service) await this.service.setRoots((await this.settings.get()).roots);
  }

  /** A "Trust anyway" was recorded or withdrawn: check the served skills again (the safety gate reads it). */
  async trustChanged(): Promise<void> {
    if (this.service?.status().state === 'running') await this.service.refresh();
  }

  /** Stop everything (app quit). */
  async dispose(): Promise<void> {
    await this.service?.stop();
  }
}
