import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { initI18n, NAMESPACES } from './i18n.ts';
import { useSeasonLabel } from './use-season-label.ts';

async function labelIn(language: string) {
  const i18n = await initI18n(language, NAMESPACES);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
  );
  return renderHook(() => useSeasonLabel(), { wrapper }).result.current;
}

describe('season labels', () => {
  it("keeps the source's own season names; generic ones read in the viewer's language", async () => {
    const label = await labelIn('fr');
    expect(label({ number: 1, title: 'The Northern Lights' })).toBe('The Northern Lights');
    expect(label({ number: 3, title: 'Partie 3' })).toBe('Partie 3');
    expect(label({ number: 2, title: 'Season 2' })).toBe('Saison 2');
    expect(label({ number: 2, title: 'Saison 2' })).toBe('Saison 2');
    expect(label({ number: 2, title: null })).toBe('Saison 2');
    expect(label({ number: 0, title: 'Specials' })).toBe(label({ number: 0 }));
    expect(label({ number: 0 })).not.toBe('Specials');
  });
});
