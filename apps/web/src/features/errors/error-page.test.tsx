import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import type { i18n } from 'i18next';
import { initI18n } from '../../lib/i18n.ts';
import { ErrorPage, describeError } from './error-page.tsx';

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n();
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('error page', () => {
  it('shows the seed texts, details on demand, and confirms a copy for 2 s', async () => {
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
});
