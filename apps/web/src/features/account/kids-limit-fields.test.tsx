import { fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ContentLimit } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { defaultLimit, KidsLimitFields } from './kids-limit-fields.tsx';

let i18next: i18n;
let latest: ContentLimit | null = null;

function Editor({ start, ownerHasPin = true }: { start: ContentLimit | null; ownerHasPin?: boolean }) {
  const [value, setValue] = useState(start);
  return (
    <KidsLimitFields
      value={value}
      ownerHasPin={ownerHasPin}
      onChange={(next) => {
        latest = next;
        setValue(next);
      }}
    />
  );
}

const renderAt = async (language: string, start: ContentLimit | null, ownerHasPin = true) => {
  i18next = await initI18n(language as 'en', NAMESPACES);
  latest = start;
  return render(
    <I18nextProvider i18n={i18next}>
      <Editor start={start} ownerHasPin={ownerHasPin} />
    </I18nextProvider>,
  );
};

describe("a kids' profile's limit in the editor", () => {
  beforeEach(() => {
    latest = null;
  });

  it('starts at the highest rating for ten-year-olds of the viewer’s country, else the US’s', () => {
    expect(defaultLimit('US')).toEqual({ region: 'US', maxAge: 10, showUnrated: false });
    expect(defaultLimit('DE')).toEqual({ region: 'DE', maxAge: 6, showUnrated: false });
    expect(defaultLimit('GB')).toEqual({ region: 'GB', maxAge: 8, showUnrated: false });
    expect(defaultLimit('XX')).toEqual({ region: 'US', maxAge: 10, showUnrated: false });
  });

  it('turns on, offers the region’s ratings as steps naming their film and TV ratings, and turns off', async () => {
    await renderAt('en', null);
    const box = screen.getByRole('checkbox', { name: 'Only titles rated for children' });
    fireEvent.click(box);
    expect(latest).toMatchObject({ maxAge: 10, showUnrated: false });
    fireEvent.change(screen.getByLabelText('Ratings of'), { target: { value: 'US' } });
    const steps = within(screen.getByRole('group', { name: 'Highest rating allowed' })).getAllByRole('radio');
    expect(steps.map((s) => s.closest('label')!.textContent)).toEqual([
      'GFilms: G · TV: TV-Y, TV-G',
      'PGFilms: PG · TV: TV-Y7, TV-PG',
      'PG-13Films: PG-13',
      'RFilms: R · TV: TV-14, TV-MA',
      'NC-17Films: NC-17',
    ]);
    fireEvent.click(screen.getByRole('radio', { name: /^PG-13/ }));
    expect(latest).toEqual({ region: 'US', maxAge: 13, showUnrated: false });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Also show titles without a rating' }));
    expect(latest).toEqual({ region: 'US', maxAge: 13, showUnrated: true });
    fireEvent.click(box);
    expect(latest).toBeNull();
  });

  it('keeps the age as close as the new region’s steps allow when the region changes', async () => {
    await renderAt('en', { region: 'US', maxAge: 13, showUnrated: false });
    fireEvent.change(screen.getByLabelText('Ratings of'), { target: { value: 'DE' } });
    expect(latest).toEqual({ region: 'DE', maxAge: 12, showUnrated: false });
    expect((screen.getByRole('radio', { name: /^12/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('names countries in the viewer’s language and warns while the owner’s profile has no PIN', async () => {
    await renderAt('fr', { region: 'DE', maxAge: 12, showUnrated: false }, false);
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    expect(select.selectedOptions[0]!.textContent).toBe('Allemagne');
    expect(screen.getByTestId('kids-owner-pin-hint').textContent).not.toBe('');
  });
});
