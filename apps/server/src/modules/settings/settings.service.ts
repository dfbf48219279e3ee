import type { Kysely } from 'kysely';
import type { SubtitleStyling, UserSettings, UserSettingsInput } from '@marquee/contract';
import type { Database } from '../../db/schema.ts';
import { changeTimeOf, type LibraryRef } from '../library/library.ts';
import type { UserAccountsService } from '../users/user-accounts.service.ts';
import type { SettingsRepository, SettingsRow } from './settings.repository.ts';

const fields = {
  applicationTheme: 'application_theme',
  applicationLanguage: 'application_language',
  defaultSubtitleLanguage: 'default_subtitle_language',
  proxyUrls: 'proxy_urls',
  enableAutoplay: 'enable_autoplay',
  subtitleStyling: 'subtitle_styling',
  defaultAudioLanguage: 'default_audio_language',
} as const;
type Field = keyof typeof fields;

/** A field's value as its column stores it (JSON text for lists and objects, 0/1 for booleans). */
function columnValue(field: Field, value: unknown): string | number | null {
  if (value === null) return null;
  if (field === 'proxyUrls' || field === 'subtitleStyling') return JSON.stringify(value);
  if (field === 'enableAutoplay') return value ? 1 : 0;
  return value as string;
}

function toSettingsDto(userId: string, row: SettingsRow | undefined): UserSettings {
  return {
    id: userId,
    applicationTheme: row?.application_theme ?? null,
    applicationLanguage: row?.application_language ?? null,
    defaultSubtitleLanguage: row?.default_subtitle_language ?? null,
    proxyUrls: row?.proxy_urls ? (JSON.parse(row.proxy_urls) as string[]) : null,
    enableAutoplay: row?.enable_autoplay == null ? null : row.enable_autoplay === 1,
    subtitleStyling: row?.subtitle_styling ? (JSON.parse(row.subtitle_styling) as SubtitleStyling) : null,
    defaultAudioLanguage: row?.default_audio_language ?? null,
  };
}

/**
 * The synced settings of one library (the account's or a household profile's). A PUT changes only the
 * fields it names (null clears one); each field remembers when it last changed, so an older change to a field never overwrites a newer one while
 * changes to different fields from different devices both survive.
 */
export class SettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsRepository,
    private readonly users: UserAccountsService,
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
        enable_autoplay: null,
        subtitle_styling: null,
        default_audio_language: null,
      };
      const changedAt = JSON.parse(current.changed_at) as Partial<Record<Field, number>>;
      const next: SettingsRow = { ...current };
      let changed = false;
      for (const field of Object.keys(fields) as Field[]) {
        const value = input[field];
        if (value === undefined) continue;
        if ((changedAt[field] ?? -Infinity) > at) continue;
        (next as unknown as Record<string, unknown>)[fields[field]] = columnValue(field, value);
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
