import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { isTvMode, setTvModeSetting } from '../../lib/tv/tv-mode.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore, useLibraryStore, usePreferencesStore } from '../../stores/index.ts';
import { testAccount, testSession } from '../../test/account-fixtures.ts';
import { contractServer } from '../../test/contract-server.ts';
import type { SaveResult, SettingsValues } from './save-settings.ts';
import { SettingsPage } from './settings-page.tsx';
import { settingsService, type SettingsService } from './settings-service.ts';

// The page is handed a fake settings service (settings-service.ts): what it saves, and what the viewer
// reads about it, without the outbox or an account server.

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({
    variant: 'discovery',
    authMethods: ['passphrase'],
    allowAutoplay: true,
    captcha: { provider: 'none', siteKey: null },
  } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
});

/** A service answering `answers` in turn (the last one again), recording what it was asked to save. */
function fakeService(...answers: SaveResult[]) {
  const calls: { values: SettingsValues; saved: SettingsValues }[] = [];
  const service: SettingsService = {
    save: vi.fn((values: SettingsValues, saved: SettingsValues) => {
      calls.push({ values, saved });
      return Promise.resolve(answers[Math.min(calls.length, answers.length) - 1]!);
    }),
  };
  return { service, calls };
}
const savedAll: SaveResult = { saved: ['synced'], failed: [], serverChanged: false };
const offline: SaveResult = {
  saved: [],
  failed: [{ section: 'synced', code: 'network_error', reason: 'errors.api.network_error' }],
  serverChanged: false,
};

function renderSettings(service: SettingsService) {
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/settings']}>
          <SettingsPage service={service} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('saving settings through the settings service', () => {
  it('hands the service the edited value and what is saved, then says Saved and focuses it', async () => {
    const { service, calls } = fakeService(savedAll);
    renderSettings(service);
    fireEvent.click(screen.getByTestId('theme-teal'));
    expect(screen.getByTestId('save-bar').textContent).toContain('You have unsaved changes');
    save();

    const result = await screen.findByTestId('save-result');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.values.theme).toBe('teal');
    expect(calls[0]!.saved.theme).toBeNull();
    expect(result.textContent).toBe('Saved');
    expect(result.getAttribute('role')).toBe('status');
    await waitFor(() => expect(document.activeElement).toBe(result));
  });

  it('a failed save says what failed and why in the UI language, and keeps the draft to save again', async () => {
    const { service, calls } = fakeService(offline, savedAll);
    renderSettings(service);
    fireEvent.click(screen.getByRole('switch', { name: 'Bold text' }));
    save();

    const result = await screen.findByTestId('save-result');
    expect(result.getAttribute('role')).toBe('alert');
    expect(result.textContent).toBe(
      i18next
        .t('settings.saveResult.none', {
          failed: i18next.t('settings.saveResult.sections.synced'),
          reason: i18next.t('errors.api.network_error'),
        })
        .replace(/^./, (c) => c.toUpperCase()),
    );
    expect(result.textContent).toContain('Could not reach the server.');
    // The draft is kept: the bar is still there, and Save sends the same value again.
    expect(screen.getByTestId('save-bar')).toBeTruthy();
    save();
    await waitFor(() => expect(screen.getByTestId('save-result').textContent).toBe('Saved'));
    expect(calls.map((c) => c.values.styling.bold)).toEqual([true, true]);
  });

  it('Reset throws the draft away without asking the service', () => {
    const { service } = fakeService(savedAll);
    renderSettings(service);
    const language = screen.getByTestId<HTMLSelectElement>('language-select');
    fireEvent.change(language, { target: { value: 'de' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(language.value).toBe('en');
    expect(screen.queryByTestId('save-bar')).toBeNull();
    expect(service.save).not.toHaveBeenCalled();
    expect(usePreferencesStore.getState().language).not.toBe('de');
  });

  it('a draft the rules refuse is not handed to the service', async () => {
    const { service } = fakeService(savedAll);
    renderSettings(service);
    fireEvent.click(screen.getByRole('switch', { name: 'Custom server' }));
    fireEvent.change(screen.getByLabelText('Server URL'), { target: { value: 'not a server' } });
    save();
    expect((await screen.findByTestId('server-url-error')).textContent).toBe('Not a valid URL');
    expect(service.save).not.toHaveBeenCalled();
    expect(screen.queryByTestId('save-result')).toBeNull();
  });
});

describe('when a title counts as watched (issue 27: a setting, default 90 %)', () => {
  // The account server the page asks (the connections section, the device list).
  beforeEach(() =>
    vi.stubGlobal(
      'fetch',
      contractServer({
        account: {
          meta: () => ({ name: 'Accounts', version: '1', hasCaptcha: false }),
          userSessions: () => [testSession()],
        },
      }).fetch,
    ),
  );
  afterEach(() => vi.unstubAllGlobals());
  const select = () => screen.getByLabelText<HTMLSelectElement>('Counts as watched after');

  it('a labelled choice of 70–100 %, 90 % by default, its hint read with it', () => {
    renderSettings(fakeService(savedAll).service);
    expect(select().value).toBe('0.9');
    expect([...select().options].map((o) => [o.value, o.textContent])).toEqual([
      ['0.7', '70%'],
      ['0.8', '80%'],
      ['0.9', '90% (default)'],
      ['0.95', '95%'],
      ['1', '100%, only when finished'],
    ]);
    const hint = document.getElementById(select().getAttribute('aria-describedby')!);
    expect(hint?.textContent).toBe(
      'A movie or an episode goes into your watch history once you have watched this much of it.',
    );
  });

  it('a share set on another client that is not one of the choices is shown as it is', () => {
    usePreferencesStore.getState().setPreferences({ watchedThreshold: 0.85 });
    renderSettings(fakeService(savedAll).service);
    expect(select().value).toBe('0.85');
    expect(select().selectedOptions[0]!.textContent).toBe('85%');
  });

  it('a change is handed to the service with what is saved', async () => {
    const { service, calls } = fakeService(savedAll);
    renderSettings(service);
    fireEvent.change(select(), { target: { value: '0.8' } });
    save();
    await screen.findByTestId('save-result');
    expect(calls.map((c) => [c.values.watchedThreshold, c.saved.watchedThreshold])).toEqual([[0.8, 0.9]]);
  });

  it('saved by the app’s service: the preference changes, the next play counts there, and it is synced', async () => {
    useAccountStore.getState().setAccount(testAccount());
    renderSettings(settingsService(new QueryClient()));
    fireEvent.change(select(), { target: { value: '1' } });
    save();
    expect((await screen.findByTestId('save-result')).textContent).toBe('Saved');
    expect(usePreferencesStore.getState().watchedThreshold).toBe(1);
    expect(useLibraryStore.getState().outbox).toMatchObject([
      { kind: 'settings', settings: { watchedThreshold: 1 } },
    ]);
    expect(select().value).toBe('1');
    // The player's saves now count a play only at the end.
    const meta = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
    useLibraryStore.getState().saveProgress({ meta, watched: 950, duration: 1000 });
    expect(useLibraryStore.getState().history).toEqual({});
    useLibraryStore.getState().saveProgress({ meta, watched: 1000, duration: 1000 });
    expect(Object.values(useLibraryStore.getState().history)).toMatchObject([{ tmdbId: '603' }]);
  });
});

describe('TV mode (issue 30: a setting of this device)', () => {
  beforeEach(() =>
    vi.stubGlobal(
      'fetch',
      contractServer({
        account: {
          meta: () => ({ name: 'Accounts', version: '1', hasCaptcha: false }),
          userSessions: () => [testSession()],
        },
      }).fetch,
    ),
  );
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  const select = () => screen.getByLabelText<HTMLSelectElement>('TV mode');
  const hints = () =>
    select()
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);

  it('Automatic, On or Off, Automatic by default; it says this device was not taken for a TV', () => {
    renderSettings(fakeService(savedAll).service);
    expect(select().value).toBe('auto');
    expect([...select().options].map((o) => [o.value, o.textContent])).toEqual([
      ['auto', 'Automatic (on for TV browsers)'],
      ['on', 'On'],
      ['off', 'Off'],
    ]);
    expect(hints()).toEqual([
      'Larger text and buttons, a clearly visible focus and margins that the TV cannot cut off, for watching from the couch with a remote. Kept on this device only.',
      'This device was not detected as a TV: Automatic leaves TV mode off here.',
    ]);
  });

  it('in a TV’s browser it says Automatic turns TV mode on here', () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 WebAppManager',
    );
    renderSettings(fakeService(savedAll).service);
    expect(hints()[1]).toBe('This device was detected as a TV: Automatic turns TV mode on here.');
  });

  it('saved by the app’s service: TV mode is on for this device, and nothing goes to the outbox', async () => {
    useAccountStore.getState().setAccount(testAccount());
    renderSettings(settingsService(new QueryClient()));
    // As the app's root hands the setting down (app.tsx).
    const unsubscribe = usePreferencesStore.subscribe((s) => setTvModeSetting(s.tvMode));
    onTestFinished(() => {
      unsubscribe();
      setTvModeSetting('auto');
    });
    expect(isTvMode()).toBe(false);
    fireEvent.change(select(), { target: { value: 'on' } });
    save();
    expect((await screen.findByTestId('save-result')).textContent).toBe('Saved');
    expect(usePreferencesStore.getState().tvMode).toBe('on');
    expect(isTvMode()).toBe(true);
    expect(select().value).toBe('on');
    // The same save with a synced change would put it there (the watched threshold test above).
    expect(useLibraryStore.getState().outbox).toEqual([]);
  });
});
