import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import type { RuntimeConfig, SealedSeed } from '@marquee/contract';
import { keysFromSeed, newPassphrase, seedFromPassphrase } from '../../lib/account/passphrase.ts';
import { keyFingerprint, newLinkKey, openSeed } from '../../lib/account/seed-seal.ts';
import { fromBase64 } from '../../lib/base64.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore } from '../../stores/index.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { LinkPage } from './link-page.tsx';

/* The approving side of signing in with a code (decision 105). */

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({
    variant: 'subscription',
    authMethods: ['email'],
    captcha: { provider: 'none', siteKey: null },
  } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
});
afterEach(() => {
  vi.unstubAllGlobals();
  useAccountStore.setState({ account: null });
});

const signIn = (kind: 'email' | undefined) =>
  useAccountStore.setState({
    account: {
      ...(kind ? { kind } : {}),
      token: 'tok',
      userId: 'u1',
      sessionId: 's1',
      deviceName: 'phone',
      seed: kind ? '' : 'c2VlZA==',
      profile: { colorA: '#000', colorB: '#fff', icon: 'cat' },
    },
  });

const renderAt = (url: string) =>
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[url]}>
          <LinkPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );

describe('/link', () => {
  it('takes a code from the QR code or typed in any script, shows the device, and approves with the password', async () => {
    signIn('email');
    const server = contractServer({
      deviceLinks: {
        byCode: ({ params }) =>
          params.code === '123456'
            ? {
                device: 'Living-room TV',
                createdAt: '2026-11-30T20:00:00Z',
                expiresAt: '2026-11-30T20:10:00Z',
                publicKey: null,
              }
            : refuse(404, { code: 'link_not_found' }),
        approve: ({ body }) =>
          (body as { password: string }).password === 'right password'
            ? {
                device: 'Living-room TV',
                createdAt: '2026-11-30T20:00:00Z',
                expiresAt: '2026-11-30T20:10:00Z',
                publicKey: null,
              }
            : refuse(403, { code: 'password_incorrect' }),
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    renderAt('/link?code=12345');
    const field = screen.getByLabelText<HTMLInputElement>('Code');
    expect(field.value).toBe('12345');
    fireEvent.submit(field);
    expect((await screen.findByRole('alert')).textContent).toBe('A code is 6 digits.');
    fireEvent.change(field, { target: { value: '١٢٣ ٤٥٦' } });
    expect(field.value).toBe('123456');
    fireEvent.submit(field);
    expect((await screen.findByTestId('link-device')).textContent).toBe(
      'Living-room TV wants to sign in to your account.',
    );
    const password = screen.getByLabelText('Your account password');
    fireEvent.submit(password);
    expect((await screen.findByRole('alert')).textContent).toBe('Enter your account password.');
    fireEvent.change(password, { target: { value: 'wrong' } });
    fireEvent.submit(password);
    expect((await screen.findByRole('alert')).textContent).toBe("That password isn't right.");
    fireEvent.change(password, { target: { value: 'right password' } });
    fireEvent.submit(password);
    expect((await screen.findByTestId('link-approved')).textContent).toContain(
      'Living-room TV is signed in.',
    );
    expect(server.requests.map((r) => r.endpoint)).toEqual([
      'deviceLinks.byCode',
      'deviceLinks.approve',
      'deviceLinks.approve',
    ]);
  });

  it('says when no device waits with the code', async () => {
    signIn('email');
    vi.stubGlobal(
      'fetch',
      contractServer({ deviceLinks: { byCode: () => refuse(404, { code: 'link_not_found' }) } }).fetch,
    );
    renderAt('/link?code=000000');
    fireEvent.submit(screen.getByLabelText('Code'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No device is waiting with this code. Check the code, or ask for a new one on the other device.',
    );
  });

  it('signed out, sends to the sign-in page and back with the code', () => {
    renderAt('/link?code=123456');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      `/login?next=${encodeURIComponent('/link?code=123456')}`,
    );
  });

  it('a passphrase account approves with its 12 words: proved by a signed challenge, its seed sealed to the device (decision 107)', async () => {
    signIn(undefined);
    const words = newPassphrase();
    const seed = seedFromPassphrase(words);
    const device = newLinkKey();
    const approvals: {
      proof: { publicKey: string; challenge: { code: string; signature: string } };
      sealed: SealedSeed;
    }[] = [];
    const info = {
      device: 'Living-room TV',
      createdAt: '2026-11-30T20:00:00Z',
      expiresAt: '2026-11-30T20:10:00Z',
      publicKey: device.publicKey,
    };
    const server = contractServer({
      account: {
        loginStart: ({ body }) =>
          (body as { publicKey: string }).publicKey === keysFromSeed(seed).publicKey
            ? { challenge: 'fresh-challenge' }
            : refuse(401, { code: 'user_not_found' }),
      },
      deviceLinks: {
        byCode: () => info,
        approve: ({ body }) => {
          approvals.push(body as (typeof approvals)[number]);
          return info;
        },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    renderAt('/link?code=123456');
    fireEvent.submit(screen.getByLabelText('Code'));
    expect((await screen.findByTestId('link-key-check')).textContent).toContain(
      `Key check: ${keyFingerprint(device.publicKey)}.`,
    );
    const field = screen.getByLabelText('Your 12-word passphrase');
    fireEvent.submit(field);
    expect((await screen.findByRole('alert')).textContent).toBe('Enter your 12-word passphrase.');
    // Another account's words: the server does not know their key.
    fireEvent.change(field, { target: { value: newPassphrase() } });
    fireEvent.submit(field);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).not.toBe('Enter your 12-word passphrase.'),
    );
    expect(approvals).toEqual([]);
    fireEvent.change(field, { target: { value: words.toUpperCase() } });
    fireEvent.submit(field);
    expect((await screen.findByTestId('link-approved')).textContent).toContain(
      'Living-room TV is signed in.',
    );
    const [approval] = approvals;
    expect(approval!.proof.publicKey).toBe(keysFromSeed(seed).publicKey);
    expect(
      ed25519.verify(
        fromBase64(approval!.proof.challenge.signature),
        new TextEncoder().encode('fresh-challenge'),
        fromBase64(approval!.proof.publicKey),
      ),
    ).toBe(true);
    // Only the new device's key opens the seed, and only for this code; nothing of the words is sent.
    expect(openSeed(approval!.sealed, device, '123456')).toEqual(seed);
    expect(() => openSeed(approval!.sealed, newLinkKey(), '123456')).toThrow();
    expect(() => openSeed(approval!.sealed, device, '654321')).toThrow();
    expect(JSON.stringify(server.requests)).not.toContain(words.split(' ')[0]! + ' ');
  });

  it('a passphrase account is told to use the 12 words on a device that offered no key', async () => {
    signIn(undefined);
    vi.stubGlobal(
      'fetch',
      contractServer({
        deviceLinks: {
          byCode: () => ({
            device: 'Old TV',
            createdAt: '2026-11-30T20:00:00Z',
            expiresAt: '2026-11-30T20:10:00Z',
            publicKey: null,
          }),
        },
      }).fetch,
    );
    renderAt('/link?code=123456');
    fireEvent.submit(screen.getByLabelText('Code'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      "This device can't receive an account with a passphrase. Sign in there with your 12 words instead.",
    );
  });
});
