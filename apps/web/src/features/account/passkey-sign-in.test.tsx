import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { PasskeyError } from '../../lib/account/passkeys.ts';
import { ApiError } from '../../lib/api/index.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores } from '../../stores/index.ts';
import { contractServer } from '../../test/contract-server.ts';
import { LoginPage } from './login-page.tsx';

// The browser's passkey dialog cannot run in jsdom: the library is faked, the pages' use of it is tested.
const passkeys = vi.hoisted(() => ({
  passkeysSupported: vi.fn(() => true),
  signInWithPasskey: vi.fn(async (_device: string) => ({ kind: 'email' as 'email' | 'passphrase' })),
}));
vi.mock('../../lib/account/passkeys.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/account/passkeys.ts')>()),
  ...passkeys,
}));

const CHROME_ON_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(CHROME_ON_ANDROID);
  passkeys.passkeysSupported.mockReturnValue(true);
  vi.stubGlobal(
    'fetch',
    contractServer({ account: { meta: () => ({ name: 'Marquee', version: '1', hasCaptcha: false }) } }).fetch,
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.clearAllMocks();
});

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

function renderLogin(method: 'passphrase' | 'email', url = '/login') {
  setRuntimeConfig({
    variant: method === 'email' ? 'subscription' : 'discovery',
    authMethods: [method],
    captcha: { provider: 'none', siteKey: null },
  } as unknown as RuntimeConfig);
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return userEvent.setup();
}

const passkeyButton = () => screen.getByRole('button', { name: 'Sign in with a passkey' });

describe('signing in with a passkey', () => {
  it("on the passphrase page: names the device as typed, then goes home as the words' sign-in does", async () => {
    passkeys.signInWithPasskey.mockResolvedValueOnce({ kind: 'passphrase' });
    const keys = renderLogin('passphrase');
    await keys.type(screen.getByLabelText('Device name'), '  Kitchen tablet ');
    await keys.click(passkeyButton());
    expect(passkeys.signInWithPasskey).toHaveBeenCalledWith('Kitchen tablet');
    expect((await screen.findByTestId('where')).textContent).toBe('/');
  });

  it('on the passphrase page: with no device name typed, names it by this browser', async () => {
    const keys = renderLogin('passphrase');
    await keys.click(passkeyButton());
    expect(passkeys.signInWithPasskey).toHaveBeenCalledWith('Chrome on Android');
    expect((await screen.findByTestId('where')).textContent).toBe('/');
  });

  it('on the email page: names the device by this browser and goes where the password would (?next=)', async () => {
    const keys = renderLogin('email', `/login?next=${encodeURIComponent('/link?code=123456')}`);
    await keys.click(passkeyButton());
    expect(passkeys.signInWithPasskey).toHaveBeenCalledWith('Chrome on Android');
    expect((await screen.findByTestId('where')).textContent).toBe('/link?code=123456');
  });

  it('says calmly that the passkey dialog was closed, and stays', async () => {
    passkeys.signInWithPasskey.mockRejectedValueOnce(new PasskeyError('cancelled'));
    const keys = renderLogin('email');
    await keys.click(passkeyButton());
    expect((await screen.findByTestId('passkey-status')).textContent).toBe(
      "The passkey request was closed before it finished. Try again when you're ready.",
    );
    expect(screen.getByTestId('passkey-status').getAttribute('role')).toBe('status');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it.each([
    [
      new ApiError(401, 'passkey_invalid', 'no'),
      "That passkey didn't work here. Try again, or sign in another way.",
    ],
    [
      new PasskeyError('unreadable'),
      "This passkey couldn't open your account. Sign in with your 12 words, then add the passkey again.",
    ],
    [
      new ApiError(0, 'network_error', 'offline'),
      'Could not reach the server. Check your connection and try again.',
    ],
  ])('shows why it failed in the form: %s', async (error, text) => {
    passkeys.signInWithPasskey.mockRejectedValueOnce(error);
    const keys = renderLogin('passphrase');
    await keys.click(passkeyButton());
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    // The words' own sign-in clears the passkey's message: one message at a time.
    await keys.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Incorrect or incomplete passphrase',
    ]);
  });

  it('is not offered where this browser has no passkeys', () => {
    passkeys.passkeysSupported.mockReturnValue(false);
    renderLogin('passphrase');
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });
});
