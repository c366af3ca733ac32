import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { settingsSchema, type AppSettings } from '../../shared/ipc/contract';
import { writeFileAtomic } from '../platform/atomic-write';

/**
 * Why `extraProfiles` and not the earlier `profiles`: the targets chosen then replaced each
 * skill's own format (so the default flagged the app's own formats); an old choice is not
 * carried over as extras, since it mostly held that default.
 */
const DEFAULTS: AppSettings = { roots: [], lastOpenSkill: null, extraProfiles: [] };

/** Settings in `<userDataDir>/settings.json`, written atomically; a damaged file falls back to defaults. */
export class SettingsStore {
  private cache: AppSettings | null = null;
  private readonly file: string;

  constructor(private readonly userDataDir: string) {
    this.file = join(userDataDir, 'settings.json');
  }

  /** The current settings (defaults for anything missing or damaged). */
  async get(): Promise<AppSettings> {
    if (this.cache) return this.cache;
    const raw: unknown = await readFile(this.file, 'utf8')
      .then(
        (text) => JSON.parse(text) as unknown,
        () => ({}),
      )
      .catch(() => ({}));
    const merged = settingsSchema.safeParse({
      ...DEFAULTS,
      ...(raw !== null && typeof raw === 'object' ? raw : {}),
    });
    this.cache = merged.success ? merged.data : { ...DEFAULTS };
    return this.cache;
  }

  /** Merge `patch` into the settings and save them atomically. */
  async update(patch: Partial<AppSettings>): Promise<AppSettings> {
    const next = settingsSchema.parse({ ...(await this.get()), ...patch });
    await mkdir(this.userDataDir, { recursive: true });
    await writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`);
    this.cache = next;
    return next;
  }
}
