import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, usePreferencesStore } from '../../stores/index.ts';
import type { SaveResult, SettingsValues } from './save-settings.ts';
import { SettingsPage } from './settings-page.tsx';
import type { SettingsService } from './settings-service.ts';

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
