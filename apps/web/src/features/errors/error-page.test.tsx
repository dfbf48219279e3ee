import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import type { i18n } from 'i18next';
import { initI18n } from '../../lib/i18n.ts';
import { ErrorPage, describeError, isPageCodeMissing } from './error-page.tsx';

/** The online state the page reads (the shared check pings the server; here the test sets it). */
const network = vi.hoisted(() => ({ online: true, listeners: new Set<() => void>() }));
vi.mock('../../lib/online-status.ts', async () => {
  const { useSyncExternalStore } = await import('react');
  return {
    useIsOnline: () =>
      useSyncExternalStore(
        (listener) => {
          network.listeners.add(listener);
          return () => network.listeners.delete(listener);
        },
        () => network.online,
      ),
  };
});
const setOnline = (online: boolean) => {
  network.online = online;
  for (const listener of network.listeners) listener();
};

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  setOnline(true);
});

describe('error page', () => {
  it('shows its texts, details on demand, and confirms a copy for 2 s', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const onReload = vi.fn();
    render(
      <I18nextProvider i18n={i18next}>
        <ErrorPage error={new Error('boom')} onReload={onReload} />
      </I18nextProvider>,
    );
    expect(screen.getByRole('heading', { name: 'We encountered an error!' })).toBeTruthy();
    // The alert says what went wrong, once: not the buttons, nor the details opened later.
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('We encountered an error!boom');
    fireEvent.click(screen.getByRole('button', { name: 'Reload the page' }));
    expect(onReload).toHaveBeenCalledOnce();

    fireEvent.click(screen.getByRole('button', { name: 'Show error details' }));
    expect(screen.getByTestId('error-details').textContent).toContain('Error: boom');
    expect(alert.contains(screen.getByTestId('error-details'))).toBe(false);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('Error: boom'));
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(1999);
    });
    expect(screen.queryByRole('button', { name: 'Copied' })).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('keeps only the first stack lines', () => {
    const error = new Error('x');
    error.stack = ['Error: x', ...Array.from({ length: 20 }, (_, i) => `    at f${i}`)].join('\n');
    expect(describeError(error).split('\n')).toHaveLength(6);
    expect(describeError('plain')).toBe('plain');
  });

  it('a page whose code is not on this device says so in the viewer’s language, and opens once the network is back', async () => {
    const missing = new TypeError(
      'Failed to fetch dynamically imported module: https://example.org/assets/media-route-B_NZ2v06.js',
    );
    expect(isPageCodeMissing(missing)).toBe(true);
    expect(isPageCodeMissing(new Error('boom'))).toBe(false);
    await i18next.changeLanguage('fr');
    setOnline(false);
    const onReload = vi.fn();
    render(
      <I18nextProvider i18n={i18next}>
        <ErrorPage error={missing} onReload={onReload} />
      </I18nextProvider>,
    );
    expect(screen.getByRole('alert').textContent).toBe(
      "Cette page n'est pas encore sur cet appareilVous êtes hors ligne et cette page n'a jamais été ouverte ici. Elle s'ouvrira d'elle-même dès que la connexion reviendra.",
    );
    expect(screen.queryByText(/dynamically imported/)).toBeNull();
    expect(onReload).not.toHaveBeenCalled();
    await act(async () => setOnline(true));
    expect(onReload).toHaveBeenCalledOnce();
  });

  it('online, a page whose code a newer version replaced asks for a reload (no automatic one)', async () => {
    const onReload = vi.fn();
    render(
      <I18nextProvider i18n={i18next}>
        <ErrorPage error={new TypeError('Importing a module script failed.')} onReload={onReload} />
      </I18nextProvider>,
    );
    expect(screen.getByRole('heading', { name: 'We encountered an error!' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Reload the page to get the new version.');
    expect(onReload).not.toHaveBeenCalled();
  });
});
