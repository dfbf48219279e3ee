import type { TFunction } from 'i18next';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CustomerUser, RuntimeConfig } from '@marquee/contract';
import { accountQueries } from '../../lib/api/queries/account.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore, usePreferencesStore, type Account } from '../../stores/index.ts';
import { storageKey } from '../../stores/persisted.ts';
import { contractServer, refuse, type Handlers } from '../../test/contract-server.ts';
import { saveSettings, type SettingsValues } from './save-settings.ts';
import { saveResultText } from './settings-form.ts';

const session = vi.hoisted(() => ({
  logout: vi.fn(async () => undefined),
  changeSyncedSettings: vi.fn(),
}));
vi.mock('../../lib/sync/session.ts', () => session);
const deviceKey = vi.hoisted(() => ({ key: new Uint8Array(32) as Uint8Array | null }));
vi.mock('../../lib/account/device-name.ts', () => ({
  accountDeviceKey: async () => deviceKey.key,
  encryptDeviceName: async (name: string) => `sealed:${name}`,
}));

const user: CustomerUser = {
  id: 'u1',
  fullname: 'Ada',
  email: 'ada@example.com',
  icon: 'cat',
  profiles: [],
  isAdmin: false,
  endSubcriptionDate: null,
  hasMembership: false,
};
const profile = { colorA: '#111111', colorB: '#222222', icon: 'cat' };
const emailAccount: Account = {
  kind: 'email',
  token: 't',
  userId: 'u1',
  sessionId: 's1',
  deviceName: 'Laptop',
  seed: '',
  profile,
  user,
};
const { kind: _email, user: _user, ...rest } = emailAccount;
const passphraseAccount: Account = { ...rest, seed: 'c2VlZA==' };

const base: SettingsValues = {
  account: null,
  email: null,
  language: 'en',
  audioLanguage: null,
  theme: null,
  enableThumbnails: false,
  tvMode: 'auto',
  enableAutoplay: true,
  watchedThreshold: 0.9,
  enablePauseOverlay: true,
  stillWatching: { episodes: 3, minutes: 90 },
  hideSpoilers: false,
  hideWatchedInDiscover: false,
  enableSourceOrder: false,
  sourceOrder: [],
  styling: { color: '#ffffff', size: 1, backgroundOpacity: 0.5, backgroundBlur: 0.5, bold: false },
  proxyEnabled: false,
  proxyUrls: [],
  serverEnabled: false,
  serverUrl: '',
};
const emailSaved: SettingsValues = { ...base, email: { fullname: 'Ada', icon: 'cat', deviceName: 'Laptop' } };
const passphraseSaved: SettingsValues = { ...base, account: { profile, deviceName: 'Laptop' } };

// Echoes the key and its values, so the tests read which texts a result is made of.
const t = ((key: string, o: Record<string, unknown> = {}) =>
  key + (Object.keys(o).length ? JSON.stringify(o) : '')) as unknown as TFunction<
  readonly ['errors', 'settings']
>;

let server: ReturnType<typeof contractServer>;
function serve(handlers: Handlers) {
  server = contractServer(handlers);
  vi.stubGlobal('fetch', server.fetch);
}
const session1 = {
  id: 's1',
  userId: 'u1',
  createdAt: '2026-01-01T00:00:00.000Z',
  accessedAt: '2026-01-01T00:00:00.000Z',
  device: 'x',
  userAgent: 'test',
};

let storage: ReturnType<typeof memoryStorage>;
beforeEach(() => {
  setRuntimeConfig({ variant: 'subscription', captcha: { provider: 'none' } } as unknown as RuntimeConfig);
  storage = memoryStorage();
  setAppStorage(storage);
  initStores();
  session.logout.mockClear();
  session.changeSyncedSettings.mockClear();
  deviceKey.key = new Uint8Array(32);
});
afterEach(() => vi.unstubAllGlobals());

describe('saveSettings', () => {
  it('saves every changed section and says so; the device list is refreshed', async () => {
    useAccountStore.getState().setAccount(emailAccount);
    serve({
      customer: { update: ({ body }) => ({ user: { ...user, ...(body as object) } }) },
      account: { patchSession: () => session1 },
    });
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const result = await saveSettings(
      {
        ...emailSaved,
        language: 'fr',
        enableThumbnails: true,
        email: { fullname: ' Grace ', icon: 'couch', deviceName: 'Lab' },
      },
      emailSaved,
      { queryClient },
    );
    expect(result).toEqual({
      saved: ['synced', 'device', 'customer', 'deviceName'],
      failed: [],
      serverChanged: false,
    });
    expect(session.changeSyncedSettings).toHaveBeenCalledWith({ applicationLanguage: 'fr' });
    expect(usePreferencesStore.getState().enableThumbnails).toBe(true);
    expect(useAccountStore.getState().account).toMatchObject({
      deviceName: 'Lab',
      user: { fullname: 'Grace', icon: 'couch' },
    });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: accountQueries.sessionKeys.all() });
    expect(saveResultText(result, t, 'en')).toBe('settings.saveResult.saved');
  });

  it('the preferred audio language is a synced setting: chosen, or null to follow the UI language', async () => {
    const chosen = await saveSettings({ ...base, audioLanguage: 'ja' }, base);
    expect(chosen.saved).toEqual(['synced']);
    expect(session.changeSyncedSettings).toHaveBeenCalledWith({ defaultAudioLanguage: 'ja' });
    session.changeSyncedSettings.mockClear();
    await saveSettings({ ...base, audioLanguage: null }, { ...base, audioLanguage: 'ja' });
    expect(session.changeSyncedSettings).toHaveBeenCalledWith({ defaultAudioLanguage: null });
    session.changeSyncedSettings.mockClear();
    // Unchanged: nothing is sent.
    await saveSettings({ ...base, audioLanguage: 'ja', theme: 'blue' }, { ...base, audioLanguage: 'ja' });
    expect(session.changeSyncedSettings).toHaveBeenCalledWith({ applicationTheme: 'blue' });
  });

  it('the watched threshold is a synced setting, sent only when changed', async () => {
    const result = await saveSettings({ ...base, watchedThreshold: 0.7 }, base);
    expect(result.saved).toEqual(['synced']);
    expect(session.changeSyncedSettings).toHaveBeenCalledWith({ watchedThreshold: 0.7 });
    session.changeSyncedSettings.mockClear();
    expect(await saveSettings(base, base)).toEqual({ saved: [], failed: [], serverChanged: false });
    expect(session.changeSyncedSettings).not.toHaveBeenCalled();
  });

  it('TV mode is a setting of this device: stored there, never sent to the outbox', async () => {
    const on = await saveSettings({ ...base, tvMode: 'on' }, base);
    expect(on).toEqual({ saved: ['device'], failed: [], serverChanged: false });
    expect(session.changeSyncedSettings).not.toHaveBeenCalled();
    expect(usePreferencesStore.getState().tvMode).toBe('on');
    // In the device's stored preferences, which a reload reads.
    expect(JSON.parse(storage.getItem(storageKey('preferences'))!)).toMatchObject({
      state: { tvMode: 'on' },
    });

    // Off, with a synced setting changed in the same save: only that one goes to the outbox.
    const off = await saveSettings({ ...base, tvMode: 'off', theme: 'red' }, { ...base, tvMode: 'on' });
    expect(off.saved).toEqual(['synced', 'device']);
    expect(session.changeSyncedSettings).toHaveBeenCalledExactlyOnceWith({ applicationTheme: 'red' });
    expect(usePreferencesStore.getState().tvMode).toBe('off');
  });

  it('a failure after a partial save is reported with its code, and the other sections stay saved', async () => {
    useAccountStore.getState().setAccount(emailAccount);
    serve({
      customer: { update: ({ body }) => ({ user: { ...user, ...(body as object) } }) },
      account: { patchSession: () => refuse(500, { code: 'internal_error' }) },
    });
    const result = await saveSettings(
      { ...emailSaved, email: { fullname: 'Grace', icon: 'cat', deviceName: 'Lab' } },
      emailSaved,
    );
    expect(result.saved).toEqual(['customer']);
    expect(result.failed).toEqual([
      { section: 'deviceName', code: 'internal_error', reason: 'errors.api.internal_error' },
    ]);
    expect(useAccountStore.getState().account).toMatchObject({
      deviceName: 'Laptop',
      user: { fullname: 'Grace' },
    });
    expect(saveResultText(result, t, 'en')).toBe(
      `Settings.saveResult.partial${JSON.stringify({
        saved: 'settings.saveResult.sections.customer',
        failed: 'settings.saveResult.sections.deviceName',
        reason: 'errors.api.internal_error',
      })}`,
    );
  });

  it('tries every section even when the first fails; nothing saved says so', async () => {
    useAccountStore.getState().setAccount(emailAccount);
    serve({
      customer: { update: () => refuse(400, { code: 'validation_failed' }) },
      account: { patchSession: () => refuse(401, { code: 'unauthorized' }) },
    });
    const result = await saveSettings(
      { ...emailSaved, email: { fullname: 'Grace', icon: 'cat', deviceName: 'Lab' } },
      emailSaved,
    );
    expect(result.saved).toEqual([]);
    expect(result.failed.map((f) => [f.section, f.code])).toEqual([
      ['customer', 'validation_failed'],
      ['deviceName', 'unauthorized'],
    ]);
    expect(saveResultText(result, t, 'en')).toMatch(/^Settings\.saveResult\.none/);
  });

  it('passphrase accounts: the profile is saved, the device name is encrypted; a missing key is reported', async () => {
    useAccountStore.getState().setAccount(passphraseAccount);
    const patched: unknown[] = [];
    serve({
      account: {
        patchUser: ({ body }) => {
          patched.push(body);
          return refuse(503, { code: 'database_unavailable' });
        },
        patchSession: ({ body }) => {
          patched.push(body);
          return session1;
        },
      },
    });
    const changed = {
      ...passphraseSaved,
      account: { profile: { ...profile, icon: 'couch' }, deviceName: 'Work' },
    };
    const result = await saveSettings(changed, passphraseSaved);
    expect(patched).toEqual([{ profile: { ...profile, icon: 'couch' } }, { deviceName: 'sealed:Work' }]);
    expect(result.saved).toEqual(['deviceName']);
    expect(result.failed).toEqual([
      { section: 'profile', code: 'database_unavailable', reason: 'errors.api.database_unavailable' },
    ]);
    expect(useAccountStore.getState().account).toMatchObject({ deviceName: 'sealed:Work', profile });

    deviceKey.key = null;
    const again = await saveSettings(
      { ...passphraseSaved, account: { profile, deviceName: 'Home' } },
      passphraseSaved,
    );
    expect(again.failed).toEqual([
      { section: 'deviceName', code: 'no_device_key', reason: 'settings.saveResult.noDeviceKey' },
    ]);
  });

  it('a new account server signs out first and sends nothing of the account there', async () => {
    useAccountStore.getState().setAccount(emailAccount);
    serve({ account: { meta: () => ({ name: 'Accounts', version: '1', hasCaptcha: false }) } });
    const result = await saveSettings(
      {
        ...emailSaved,
        serverEnabled: true,
        serverUrl: 'accounts.example.com',
        email: { fullname: 'Grace', icon: 'cat', deviceName: 'Lab' },
      },
      emailSaved,
    );
    expect(session.logout).toHaveBeenCalledOnce();
    expect(useAccountStore.getState().backendUrl).toBe('https://accounts.example.com');
    expect(result).toEqual({ saved: ['server'], failed: [], serverChanged: true });
    // Only the new server's /meta was asked (is it one?); nothing of the account went there.
    expect(server.requests.map((r) => r.url)).toEqual(['https://accounts.example.com/meta']);
  });

  it('an address that does not answer as an account server is not switched to, and nobody is signed out', async () => {
    useAccountStore.getState().setAccount(emailAccount);
    serve({});
    const result = await saveSettings(
      { ...emailSaved, serverEnabled: true, serverUrl: 'www.example.com' },
      emailSaved,
    );
    expect(session.logout).not.toHaveBeenCalled();
    expect(useAccountStore.getState().backendUrl).toBeNull();
    expect(result.serverChanged).toBe(false);
    expect(result.failed.map((f) => f.section)).toEqual(['server']);
  });
});
