import type { Kysely } from 'kysely';
import type { UserSettings, UserSettingsInput } from '@marquee/contract';
import type { Database } from '../../db/schema.ts';
import { changeTimeOf, type LibraryRef } from '../library/library.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { SettingsRepository, SettingsRow } from './settings.repository.ts';

const fields = {
  applicationTheme: 'application_theme',
  applicationLanguage: 'application_language',
  defaultSubtitleLanguage: 'default_subtitle_language',
  proxyUrls: 'proxy_urls',
} as const;
type Field = keyof typeof fields;

function toSettingsDto(userId: string, row: SettingsRow | undefined): UserSettings {
  return {
    id: userId,
    applicationTheme: row?.application_theme ?? null,
    applicationLanguage: row?.application_language ?? null,
    defaultSubtitleLanguage: row?.default_subtitle_language ?? null,
    proxyUrls: row?.proxy_urls ? (JSON.parse(row.proxy_urls) as string[]) : null,
  };
}

/**
 * The four synced settings. A PUT changes only the fields it names (null clears one); each field
 * remembers when it last changed, so an older change to a field never overwrites a newer one while
 * changes to different fields from different devices both survive.
 */
export class SettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsRepository,
    private readonly users: UsersRepository,
    private readonly now: () => number,
  ) {}

  async get(lib: LibraryRef): Promise<UserSettings> {
    return toSettingsDto(lib.userId, await this.settings.find(lib));
  }

  async put(lib: LibraryRef, input: UserSettingsInput): Promise<UserSettings> {
    const at = changeTimeOf(input.updatedAt, this.now());
    const row = await this.db.transaction().execute(async (trx) => {
      await this.users.lockUser(trx, lib.userId);
      const current: SettingsRow = (await this.settings.find(lib, trx)) ?? {
        user_id: lib.userId,
        profile_id: lib.profileId,
        application_theme: null,
        application_language: null,
        default_subtitle_language: null,
        proxy_urls: null,
        changed_at: '{}',
      };
      const changedAt = JSON.parse(current.changed_at) as Partial<Record<Field, number>>;
      const next: SettingsRow = { ...current };
      let changed = false;
      for (const field of Object.keys(fields) as Field[]) {
        const value = input[field];
        if (value === undefined) continue;
        if ((changedAt[field] ?? -Infinity) > at) continue;
        const column = fields[field];
        if (column === 'proxy_urls') next.proxy_urls = value === null ? null : JSON.stringify(value);
        else next[column] = value as string | null;
        changedAt[field] = at;
        changed = true;
      }
      if (changed) {
        next.changed_at = JSON.stringify(changedAt);
        await this.settings.save(next, trx);
      }
      return next;
    });
    return toSettingsDto(lib.userId, row);
  }
}
