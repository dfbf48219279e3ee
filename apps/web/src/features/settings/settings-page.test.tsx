import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import {
  initStores,
  preferredAudioLanguage,
  useAccountStore,
  usePreferencesStore,
} from '../../stores/index.ts';
import { contractServer } from '../../test/contract-server.ts';
import { SettingsPage } from './settings-page.tsx';

const session = vi.hoisted(() => ({ logout: vi.fn(async () => undefined) }));
vi.mock('../../lib/sync/session.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/sync/session.ts')>()),
  logout: session.logout,
}));

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
  session.logout.mockClear();
  vi.stubGlobal(
    'fetch',
    contractServer({ account: { meta: () => ({ name: 'Accounts', version: '1', hasCaptcha: false }) } })
      .fetch,
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderSettings() {
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/settings']}>
          <Routes>
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="/" element={<p>Home page</p>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}
const proxySwitch = () => screen.getByRole('switch', { name: 'Use custom proxy workers' });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('custom proxies in settings', () => {
  it('refuses "not a url" with a field error, and saves nothing', async () => {
    renderSettings();
    fireEvent.click(proxySwitch());
    const input = screen.getByLabelText('Proxy 1');
    fireEvent.change(input, { target: { value: 'not a url' } });
    save();

    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const message = screen.getByTestId('proxy-0-message');
    expect(message.textContent).toBe('Not a valid URL');
    expect(input.getAttribute('aria-describedby')).toBe(message.id);
    expect(screen.getByTestId('save-bar').textContent).toContain('Not a valid URL');
    expect(screen.queryByTestId('save-result')).toBeNull();
    // Custom proxies are still off, not on with an empty list.
    expect(useAccountStore.getState().proxyUrls).toBeNull();
  });

  it('cannot be left on with an empty list; the message goes once a proxy is added', async () => {
    renderSettings();
    fireEvent.click(proxySwitch());
    save();
    expect((await screen.findByTestId('proxy-list-error')).textContent).toBe(
      'Add at least one proxy, or turn custom proxies off.',
    );
    expect(useAccountStore.getState().proxyUrls).toBeNull();

    fireEvent.change(screen.getByLabelText('Proxy 1'), { target: { value: 'https://proxy.example.com' } });
    expect(screen.queryByTestId('proxy-list-error')).toBeNull();
    save();
    expect((await screen.findByTestId('save-result')).textContent).toBe('Saved');
    expect(useAccountStore.getState().proxyUrls).toEqual(['https://proxy.example.com']);
  });

  it('turned off again, saves with no proxies and no message', async () => {
    renderSettings();
    fireEvent.click(proxySwitch());
    fireEvent.change(screen.getByLabelText('Proxy 1'), { target: { value: 'nope' } });
    fireEvent.click(proxySwitch());
    save();
    expect((await screen.findByTestId('save-result')).textContent).toBe('Saved');
    expect(useAccountStore.getState().proxyUrls).toBeNull();
  });
});

describe('a custom server in settings', () => {
  it('is saved with a confirmation, on settings (no jump to the home page)', async () => {
    renderSettings();
    fireEvent.click(screen.getByRole('switch', { name: 'Custom server' }));
    fireEvent.change(screen.getByLabelText('Server URL'), { target: { value: 'accounts.example.com' } });
    save();
    const result = await screen.findByTestId('save-result');
    expect(result.textContent).toBe('Saved');
    expect(result.getAttribute('role')).toBe('status');
    expect(useAccountStore.getState().backendUrl).toBe('https://accounts.example.com');
    expect(session.logout).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Home page')).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
  });

  it('an address that is no URL is refused before anything happens (the viewer stays signed in)', async () => {
    renderSettings();
    fireEvent.click(screen.getByRole('switch', { name: 'Custom server' }));
    fireEvent.change(screen.getByLabelText('Server URL'), { target: { value: 'not a server' } });
    save();
    expect((await screen.findByTestId('server-url-error')).textContent).toBe('Not a valid URL');
    expect(session.logout).not.toHaveBeenCalled();
    expect(useAccountStore.getState().backendUrl).toBeNull();
  });
});

describe('the audio language in settings', () => {
  it('defaults to the application language, follows it while not chosen, and saves a choice', async () => {
    renderSettings();
    const select = screen.getByLabelText<HTMLSelectElement>('Audio language');
    expect(select.value).toBe('');
    expect(select.selectedOptions[0]!.textContent).toBe('Same as the application (English)');
    expect(select.getAttribute('aria-describedby')).toBe('settings-audio-language-note');
    // Each language once (pt-BR and pt-PT are one audio language), by its own name and the UI's.
    const values = [...select.options].map((o) => o.value);
    expect(values.filter((v) => v === 'pt')).toHaveLength(1);
    expect(values).toContain('ja');
    expect(select.querySelector('option[value="ja"]')!.textContent).toBe('日本語 — Japanese');

    fireEvent.change(screen.getByTestId('language-select'), { target: { value: 'de' } });
    expect(select.selectedOptions[0]!.textContent).toBe('Same as the application (German)');

    fireEvent.change(select, { target: { value: 'ja' } });
    save();
    expect(await screen.findByTestId('save-result')).toBeTruthy();
    expect(usePreferencesStore.getState()).toMatchObject({ audioLanguage: 'ja', language: 'de' });
    expect(preferredAudioLanguage()).toBe('ja');
  });
});
