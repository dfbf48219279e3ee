import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  FAMILY_SECRET_SETTINGS,
  FUTURE_SETTING_NAME,
  SETTINGS_EXTRA_MAX_BYTES,
  SETTINGS_EXTRA_MAX_FIELDS,
  type SubtitleStyling,
  type UserSettings,
  type UserSettingsInput,
} from '@marquee/contract';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { changeTimeOf, type LibraryRef } from '../library/library.ts';
import type { UserAccountsService } from '../users/user-accounts.service.ts';
import type { SettingsRepository, SettingsRow } from './settings.repository.ts';
import { keyIdOf, SettingsSecrets, type SecretBox } from './settings-secrets.ts';

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

/** Names in a body that are not settings: the answer's `id` (clients echo it), the change time. */
const notSettings = new Set(['id', 'updatedAt']);
const secretNames = new Set<string>(FAMILY_SECRET_SETTINGS);

/** The fields besides ours a PUT sets (JSON values, null = cleared), when kept (decision 094). */
function extraChanges(input: UserSettingsInput): [string, unknown][] {
  return Object.entries(input).filter(
    ([name, value]) =>
      value !== undefined &&
      !Object.hasOwn(fields, name) &&
      !notSettings.has(name) &&
      FUTURE_SETTING_NAME.test(name),
  );
}

const extraOf = (row: SettingsRow | undefined): Record<string, unknown> =>
  row?.extra ? (JSON.parse(row.extra) as Record<string, unknown>) : {};

/** What a sealed secret is bound to: its library and its field (a copied envelope opens nowhere else). */
const secretContext = (lib: LibraryRef, name: string) => `${lib.userId}\n${lib.profileId}\n${name}`;

/** A field's value as its column stores it (JSON text for lists and objects, 0/1 for booleans). */
function columnValue(field: Field, value: unknown): string | number | null {
  if (value === null) return null;
  if (field === 'proxyUrls' || field === 'subtitleStyling') return JSON.stringify(value);
  if (field === 'enableAutoplay') return value ? 1 : 0;
  return value as string;
}

function ourSettings(userId: string, row: SettingsRow | undefined): UserSettings {
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

const tooLarge = () =>
  new AppError(
    413,
    'settings_too_large',
    `Settings besides ours may hold at most ${SETTINGS_EXTRA_MAX_FIELDS} fields and ${SETTINGS_EXTRA_MAX_BYTES / 1024} KiB; nothing was saved`,
  );

export interface SettingsServiceOptions {
  /** Where the key file of the sealed secrets lives (DATA_DIR), or the secrets themselves (tests). */
  secrets: SettingsSecrets | { dataDir: string };
  /** Told when a stored secret cannot be opened (never its value). */
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/**
 * The synced settings of one library (the account's or a household profile's). A PUT changes only the
 * fields it names (null clears one); each field remembers when it last changed, so an older change to a
 * field never overwrites a newer one while changes to different fields from different devices both
 * survive. Besides ours, the fields p-stream saves and future ones are kept by the same rule in one JSON
 * column, third-party secrets sealed (decision 094).
 */
export class SettingsService {
  private readonly secrets: SettingsSecrets;
  private readonly log: Pick<FastifyBaseLogger, 'warn'> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsRepository,
    private readonly users: UserAccountsService,
    private readonly now: () => number,
    options: SettingsServiceOptions,
  ) {
    this.secrets =
      options.secrets instanceof SettingsSecrets
        ? options.secrets
        : SettingsSecrets.inDataDir(options.secrets.dataDir);
    this.log = options.log;
  }

  async get(lib: LibraryRef): Promise<UserSettings> {
    return this.toDto(lib, await this.settings.find(lib));
  }

  async put(lib: LibraryRef, input: UserSettingsInput): Promise<UserSettings> {
    const at = changeTimeOf(input.updatedAt, this.now());
    const extras = extraChanges(input);
    const box = extras.some(([name, value]) => secretNames.has(name) && typeof value === 'string')
      ? await this.secrets.get()
      : undefined;
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
        extra: null,
      };
      const changedAt = JSON.parse(current.changed_at) as Record<string, number>;
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
      const extra = extraOf(current);
      let extraChanged = false;
      for (const [name, value] of extras) {
        if ((changedAt[name] ?? -Infinity) > at) continue;
        extra[name] =
          secretNames.has(name) && typeof value === 'string'
            ? box!.seal(value, secretContext(lib, name))
            : value;
        changedAt[name] = at;
        extraChanged = true;
      }
      if (extraChanged) {
        // Bounded as stored (sealed secrets included), cleared fields too: they keep their change time.
        next.extra = JSON.stringify(extra);
        if (
          Object.keys(extra).length > SETTINGS_EXTRA_MAX_FIELDS ||
          Buffer.byteLength(next.extra, 'utf8') > SETTINGS_EXTRA_MAX_BYTES
        )
          throw tooLarge();
        changed = true;
      }
      if (changed) {
        next.changed_at = JSON.stringify(changedAt);
        await this.settings.save(next, trx);
      }
      return next;
    });
    return this.toDto(lib, row);
  }

  /** Ours as always (null = not set), then each field besides ours that was ever set, secrets opened. */
  private async toDto(lib: LibraryRef, row: SettingsRow | undefined): Promise<UserSettings> {
    const dto = ourSettings(lib.userId, row);
    const extra = extraOf(row);
    let box: SecretBox | undefined;
    for (const [name, stored] of Object.entries(extra)) {
      if (Object.hasOwn(dto, name)) continue;
      if (secretNames.has(name) && typeof stored === 'string') {
        box ??= await this.secrets.get();
        const plain = box.open(stored, secretContext(lib, name));
        if (plain === undefined) {
          // Answered as never set, so the client keeps (and sends again) its own value.
          this.log?.warn(
            { field: name, sealedWith: keyIdOf(stored), keyNow: box.keyId },
            'a stored settings secret cannot be opened (was the key file in DATA_DIR replaced?)',
          );
          continue;
        }
        dto[name] = plain;
      } else dto[name] = stored;
    }
    return dto;
  }
}
