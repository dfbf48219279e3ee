import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { asciiDigits, isPin, PinPad } from './pin-pad.tsx';

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
});

const renderPad = (onSubmit: (pin: string) => Promise<string | null>) =>
  render(
    <I18nextProvider i18n={i18next}>
      <PinPad title="Enter the PIN for Kid" onSubmit={onSubmit} />
    </I18nextProvider>,
  );

describe('PIN pad', () => {
  it('reads digits of other scripts as the ASCII digits the server takes', () => {
    expect(asciiDigits('٢٤٦٨')).toBe('2468'); // Arabic-Indic
    expect(asciiDigits('۱۳۵۷')).toBe('1357'); // Persian
    expect(asciiDigits('१२३४')).toBe('1234'); // Devanagari
    expect(asciiDigits('１２３４')).toBe('1234'); // full-width
    expect(asciiDigits('12a4')).toBe('12a4');
    expect([isPin('1234'), isPin('123456'), isPin('123'), isPin('1234567'), isPin('12a4')]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('takes a PIN by touch on its keypad, and erases the last digit', async () => {
    const onSubmit = vi.fn(async () => null);
    renderPad(onSubmit);
    for (const key of ['2', '4', '6', '9', 'erase', '8'])
      fireEvent.click(screen.getByTestId(`pin-key-${key}`));
    expect(screen.getByTestId<HTMLInputElement>('pin-field').value).toBe('2468');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('2468'));
  });

  it('takes a typed PIN (digits only, at most six) and Enter; a wrong one is cleared with the reason shown', async () => {
    const onSubmit = vi.fn(async (pin: string) => (pin === '2468' ? null : 'That PIN isn’t right.'));
    renderPad(onSubmit);
    const field = screen.getByLabelText<HTMLInputElement>('PIN');
    fireEvent.change(field, { target: { value: '1a2b3c4567' } });
    expect(field.value).toBe('123456');
    fireEvent.submit(field);
    expect((await screen.findByRole('alert')).textContent).toBe('That PIN isn’t right.');
    expect(field.value).toBe('');
    fireEvent.change(field, { target: { value: '12' } });
    fireEvent.submit(field);
    // Too short: said here, nothing sent.
    expect((await screen.findByRole('alert')).textContent).toBe('A PIN is 4 to 6 digits.');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('moves between keys with the arrows like a remote, digits typed on a key count too', () => {
    renderPad(async () => null);
    const key = (k: string) => screen.getByTestId(`pin-key-${k}`);
    key('5').focus();
    fireEvent.keyDown(key('5'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(key('6'));
    fireEvent.keyDown(key('6'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(key('9'));
    fireEvent.keyDown(key('9'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(key('ok'));
    fireEvent.keyDown(key('ok'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(key('0'));
    fireEvent.keyDown(key('0'), { key: '٧' });
    expect(screen.getByTestId<HTMLInputElement>('pin-field').value).toBe('7');
    key('2').focus();
    fireEvent.keyDown(key('2'), { key: 'ArrowUp' });
    expect(document.activeElement).toBe(screen.getByTestId('pin-field'));
  });

  it('leaves the arrows past its sides and below its last row to the page (a remote goes on from there)', () => {
    renderPad(async () => null);
    const key = (k: string) => screen.getByTestId(`pin-key-${k}`);
    for (const [from, arrow] of [
      ['4', 'ArrowLeft'],
      ['6', 'ArrowRight'],
      ['0', 'ArrowDown'],
    ] as const) {
      key(from).focus();
      expect(fireEvent.keyDown(key(from), { key: arrow })).toBe(true);
      expect(document.activeElement).toBe(key(from));
    }
    // Inside it, they are the keypad's.
    expect(fireEvent.keyDown(key('4'), { key: 'ArrowRight' })).toBe(false);
  });
});
