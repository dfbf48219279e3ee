import { act, fireEvent, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../lib/i18n.ts';

const posted: unknown[] = [];

/** workbox-window's Workbox as the registration code uses it: events, register, messageSkipWaiting. */
class FakeWorkbox {
  static last: FakeWorkbox;
  static registration: { waiting: object | null; update: () => Promise<void> } | undefined;
  static failRegistration = false;
  readonly listeners = new Map<string, Array<() => void>>();
  skipWaitingSent = 0;
  constructor(readonly url: string) {
    FakeWorkbox.last = this;
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
  async register() {
    if (FakeWorkbox.failRegistration) throw new TypeError('registration blocked');
    return FakeWorkbox.registration;
  }
  messageSkipWaiting() {
    this.skipWaitingSent += 1;
  }
  readonly active = Promise.resolve({});
  async messageSW(message: unknown) {
    posted.push(message);
  }
}
vi.mock('workbox-window', () => ({ Workbox: FakeWorkbox }));

const { registerServiceWorker } = await import('./register.tsx');

let i18next: i18n;

beforeEach(async () => {
  i18next = await initI18n();
  posted.length = 0;
  FakeWorkbox.failRegistration = false;
  FakeWorkbox.registration = { waiting: null, update: async () => undefined };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { controller: {} },
  });
});
afterEach(() => {
  document.body.innerHTML = '';
});

async function start(reloadPage = vi.fn()) {
  await act(() => registerServiceWorker(i18next, { reloadPage }));
  return reloadPage;
}

describe('service worker registration and the update notice', () => {
  it('registers /sw.js and shows nothing while no new version waits', async () => {
    await start();
    expect(FakeWorkbox.last.url).toBe('/sw.js');
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('offers a waiting version; Reload lets it take over, then reloads once it controls the page', async () => {
    FakeWorkbox.registration = { waiting: {}, update: async () => undefined };
    const reloadPage = await start();
    act(() => FakeWorkbox.last.emit('waiting'));
    expect(screen.getByRole('status').textContent).toContain('A new version is available.');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(FakeWorkbox.last.skipWaitingSent).toBe(1);
    expect(reloadPage).not.toHaveBeenCalled();
    act(() => FakeWorkbox.last.emit('controlling'));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('Not now hides the notice and leaves the waiting version alone', async () => {
    FakeWorkbox.registration = { waiting: {}, update: async () => undefined };
    const reloadPage = await start();
    act(() => FakeWorkbox.last.emit('waiting'));
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByTestId('update-notice')).toBeNull();
    expect(FakeWorkbox.last.skipWaitingSent).toBe(0);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('reloads at once when the new version already took over (from another tab)', async () => {
    const reloadPage = await start();
    act(() => FakeWorkbox.last.emit('waiting'));
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(FakeWorkbox.last.skipWaitingSent).toBe(0);
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('a page loaded without a worker names the build files it loaded, for the worker to cache', async () => {
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { controller: null } });
    const origin = window.location.origin;
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      { name: `${origin}/assets/index-AAAAAAAA.js` },
      { name: `${origin}/assets/fr-BBBBBBBB.js` },
      { name: `${origin}/api/config` },
    ] as PerformanceEntryList);
    await start();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      type: 'CACHE_URLS',
      payload: { urlsToCache: ['/assets/index-AAAAAAAA.js', '/assets/fr-BBBBBBBB.js'] },
    });
  });

  it('a page the worker already controls asks for nothing', async () => {
    await start();
    await Promise.resolve();
    expect(posted).toEqual([]);
  });

  it('a blocked or failing registration leaves the app as a plain page', async () => {
    FakeWorkbox.failRegistration = true;
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { controller: null } });
    await start();
    expect(posted).toEqual([]);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
