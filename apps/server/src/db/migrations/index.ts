import type { Migration } from 'kysely';
import * as m001 from './2026-11-21-001-metadata-cache.ts';
import * as m002 from './2026-11-21-002-accounts.ts';
import * as m003 from './2026-11-21-003-subscription.ts';
import * as m004payments from './2026-11-23-004-payment-settlement.ts';
import * as m005library from './2026-11-24-001-library-changes.ts';
import * as m006jobs from './2026-11-25-001-job-runs.ts';
import * as m007probes from './2026-11-29-001-media-probes.ts';
import * as m008audio from './2026-11-29-002-audio-language.ts';
import * as m009history from './2026-11-30-001-watch-history.ts';
import * as m010settingsExtras from './2026-11-30-002-settings-extras-nickname.ts';
import * as m011bookmarkGroups from './2026-11-30-003-bookmark-groups.ts';
import * as m012trakt from './2026-11-30-004-trakt.ts';
import * as m013ratings from './2026-11-30-005-ratings.ts';
import * as m014traktRatings from './2026-11-30-006-trakt-ratings.ts';
import * as m015profilePins from './2026-11-30-007-profile-pins.ts';
import * as m016deviceLinks from './2026-11-30-008-device-links.ts';
import * as m017kids from './2026-12-01-001-kids-profiles.ts';
import * as m018linkKeys from './2026-12-01-002-device-link-keys.ts';
import * as m019passkeys from './2026-12-01-003-passkeys.ts';
import * as m020segments from './2026-12-01-004-media-segments.ts';

/** Every migration, in order. Names sort by date so both dialects apply them in the same order. */
export const migrations: Record<string, Migration> = {
  '2026-11-21-001-metadata-cache': m001,
  '2026-11-21-002-accounts': m002,
  '2026-11-21-003-subscription': m003,
  '2026-11-23-004-payment-settlement': m004payments,
  '2026-11-24-001-library-changes': m005library,
  '2026-11-25-001-job-runs': m006jobs,
  '2026-11-29-001-media-probes': m007probes,
  '2026-11-29-002-audio-language': m008audio,
  '2026-11-30-001-watch-history': m009history,
  '2026-11-30-002-settings-extras-nickname': m010settingsExtras,
  '2026-11-30-003-bookmark-groups': m011bookmarkGroups,
  '2026-11-30-004-trakt': m012trakt,
  '2026-11-30-005-ratings': m013ratings,
  '2026-11-30-006-trakt-ratings': m014traktRatings,
  '2026-11-30-007-profile-pins': m015profilePins,
  '2026-11-30-008-device-links': m016deviceLinks,
  '2026-12-01-001-kids-profiles': m017kids,
  '2026-12-01-002-device-link-keys': m018linkKeys,
  '2026-12-01-003-passkeys': m019passkeys,
  '2026-12-01-004-media-segments': m020segments,
};
