import type { QueryClient } from '@tanstack/react-query';
import { updateCustomer } from '../../lib/account/customer-api.ts';
import { accountQueries } from '../../lib/api/queries/account.ts';
import { api, ApiError, errorKey, type ApiErrorCode, type ErrorKey } from '../../lib/api/index.ts';
import { cleanProxyList, normalizeServerUrl } from '../../lib/proxy-entries.ts';
import { changeSyncedSettings, logout } from '../../lib/sync/session.ts';
import {
  useAccountStore,
  usePreferencesStore,
  type AccountProfile,
  type PreferencesData,
  type SubtitleStyling,
} from '../../stores/index.ts';
import { isProfileIcon } from './profile-icon.ts';

/** What a passphrase account edits in the account section. */
export interface AccountDraft {
  profile: AccountProfile;
  deviceName: string;
}

/** What an email account edits in the account section. */
export interface EmailAccountDraft {
  fullname: string;
  icon: string;
  deviceName: string;
}

/** The settings form: every value the save bar saves, in one shape (also what is saved now). */
export interface SettingsValues {
  account: AccountDraft | null;
  /** Email accounts (instead of `account`). */
  email: EmailAccountDraft | null;
  language: string;
  /** Preferred audio language of library titles (ISO 639); null = the UI language's. */
  audioLanguage: string | null;
  theme: PreferencesData['theme'];
  enableThumbnails: boolean;
  /** TV mode (automatic, on, off): kept on this device, like thumbnails (lib/tv/tv-mode.ts). */
  tvMode: PreferencesData['tvMode'];
  enableAutoplay: boolean;
  /** The share of its length past which a title counts as watched (0.5–1). */
  watchedThreshold: number;
  /** The player's pause overlay and when it asks "Are you still watching?" (decision 112). */
  enablePauseOverlay: boolean;
  stillWatching: PreferencesData['stillWatching'];
  /** Unwatched episodes' stills and overviews hidden (decision 115). */
  hideSpoilers: boolean;
  /** Watched movies left out of Discover (decision 116). */
  hideWatchedInDiscover: boolean;
  enableSourceOrder: boolean;
  sourceOrder: string[];
  styling: SubtitleStyling;
  proxyEnabled: boolean;
  proxyUrls: string[];
  serverEnabled: boolean;
  serverUrl: string;
}

/**
 * The parts of a save, each sent (and able to fail) on its own: `server` the account server, `synced`
 * language/audio language/theme/proxies/autoplay/watched threshold/pause overlay/"still watching"/spoilers/watched in Discover/captions
 * (outbox), `device` thumbnails, TV mode and source order (this device only), `customer` an email account's
 * name and icon, `profile` a passphrase account's profile, `deviceName` this session's name.
 */
export type SaveSection = 'server' | 'synced' | 'device' | 'customer' | 'profile' | 'deviceName';

/** Why a section was not saved: the API's error code, or `no_device_key` (the site's storage was cleared). */
export type SaveFailureCode = ApiErrorCode | 'no_device_key';

export interface SaveFailure {
  section: SaveSection;
  code: SaveFailureCode;
  /** The i18n key that tells the user why. */
  reason: ErrorKey | 'settings.saveResult.noDeviceKey';
}

export interface SaveResult {
  saved: SaveSection[];
  failed: SaveFailure[];
  /** Another account server: the user was signed out (the account sections were not sent there). */
  serverChanged: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

class NoDeviceKey extends Error {}

function failureOf(section: SaveSection, error: unknown): SaveFailure {
  if (error instanceof NoDeviceKey)
    return { section, code: 'no_device_key', reason: 'settings.saveResult.noDeviceKey' };
  const code: ApiErrorCode = error instanceof ApiError ? error.code : 'unknown';
  return { section, code, reason: errorKey(error) };
}

/**
 * Saves the settings form: a new account server signs out first; language, audio language, theme,
 * proxies, autoplay, the watched threshold, the player's details and captions go to the outbox; thumbnails,
 * TV mode and source order stay on this device; the account's name, icon, profile and device name are sent
 * to the account server.
 * Each section is tried even when an earlier one failed, and the answer says which were saved and which
 * failed with what code: nothing is swallowed after a partial save.
 */
export async function saveSettings(
  values: SettingsValues,
  saved: SettingsValues,
  o: { queryClient?: QueryClient } = {},
): Promise<SaveResult> {
  const result: SaveResult = { saved: [], failed: [], serverChanged: false };
  const attempt = async (section: SaveSection, run: () => Promise<void> | void) => {
    try {
      await run();
      result.saved.push(section);
    } catch (error) {
      result.failed.push(failureOf(section, error));
    }
  };

  const serverUrl = values.serverEnabled ? normalizeServerUrl(values.serverUrl) || null : null;
  if (serverUrl !== (saved.serverEnabled ? saved.serverUrl : null)) {
    // Another account server: this account does not live there. It must answer as one first (its
    // /meta), or the viewer would be signed out for an address that is no server.
    await attempt('server', async () => {
      if (serverUrl) await api.account.meta({ baseUrl: serverUrl, token: null, timeoutMs: 8_000 });
      await logout();
      useAccountStore.getState().setBackendUrl(serverUrl);
      result.serverChanged = true;
    });
  }

  const synced: Parameters<typeof changeSyncedSettings>[0] = {};
  if (values.language !== saved.language) synced.applicationLanguage = values.language;
  if (values.audioLanguage !== saved.audioLanguage) synced.defaultAudioLanguage = values.audioLanguage;
  if (values.theme !== saved.theme) synced.applicationTheme = values.theme;
  const proxies = values.proxyEnabled ? cleanProxyList(values.proxyUrls) : null;
  if (!same(proxies, saved.proxyEnabled ? saved.proxyUrls : null)) synced.proxyUrls = proxies;
  if (values.enableAutoplay !== saved.enableAutoplay) synced.enableAutoplay = values.enableAutoplay;
  if (values.watchedThreshold !== saved.watchedThreshold) synced.watchedThreshold = values.watchedThreshold;
  if (values.enablePauseOverlay !== saved.enablePauseOverlay)
    synced.enablePauseOverlay = values.enablePauseOverlay;
  if (!same(values.stillWatching, saved.stillWatching)) synced.stillWatching = values.stillWatching;
  if (values.hideSpoilers !== saved.hideSpoilers) synced.hideSpoilers = values.hideSpoilers;
  if (values.hideWatchedInDiscover !== saved.hideWatchedInDiscover)
    synced.hideWatchedInDiscover = values.hideWatchedInDiscover;
  if (!same(values.styling, saved.styling)) synced.subtitleStyling = values.styling;
  if (Object.keys(synced).length) await attempt('synced', () => changeSyncedSettings(synced));

  const onDevice = {
    enableThumbnails: values.enableThumbnails,
    tvMode: values.tvMode,
    enableSourceOrder: values.enableSourceOrder,
    sourceOrder: values.sourceOrder,
  };
  const savedOnDevice = {
    enableThumbnails: saved.enableThumbnails,
    tvMode: saved.tvMode,
    enableSourceOrder: saved.enableSourceOrder,
    sourceOrder: saved.sourceOrder,
  };
  if (!same(onDevice, savedOnDevice))
    await attempt('device', () => usePreferencesStore.getState().setPreferences(onDevice));

  const current = useAccountStore.getState().account;
  if (!result.serverChanged && current && values.email && saved.email) {
    const { fullname, icon, deviceName } = values.email;
    if (fullname.trim() !== saved.email.fullname || icon !== saved.email.icon) {
      // The answer's user replaces the stored one.
      await attempt('customer', async () => {
        await updateCustomer({ fullname: fullname.trim(), ...(isProfileIcon(icon) ? { icon } : {}) });
      });
    }
    const name = deviceName.trim();
    if (name !== saved.email.deviceName) {
      await attempt('deviceName', async () => {
        await api.account.patchSession({ params: { sid: current.sessionId }, body: { deviceName: name } });
        useAccountStore.getState().updateAccount({ deviceName: name });
      });
    }
  }
  if (!result.serverChanged && current && values.account && saved.account) {
    const { profile } = values.account;
    if (!same(profile, saved.account.profile)) {
      await attempt('profile', async () => {
        await api.account.patchUser({ params: { uid: current.userId }, body: { profile } });
        useAccountStore.getState().updateAccount({ profile });
      });
    }
    const name = values.account.deviceName.trim();
    if (name && name !== saved.account.deviceName) {
      await attempt('deviceName', async () => {
        const { accountDeviceKey, encryptDeviceName } = await import('../../lib/account/device-name.ts');
        // The seed, or its key in IndexedDB (decision 074); gone only if the site's storage was cleared.
        const key = await accountDeviceKey(current);
        if (!key) throw new NoDeviceKey();
        const blob = await encryptDeviceName(name, key);
        await api.account.patchSession({ params: { sid: current.sessionId }, body: { deviceName: blob } });
        useAccountStore.getState().updateAccount({ deviceName: blob });
      });
    }
  }

  // The device list shows this device's new name.
  if (result.saved.includes('deviceName'))
    void o.queryClient?.invalidateQueries({ queryKey: accountQueries.sessionKeys.all() });
  return result;
}
