import { render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MediaSummary } from '@marquee/contract';
import { clock } from '../lib/clock.ts';
import { initI18n } from '../lib/i18n.ts';
import { MediaCard } from './media-card.tsx';

const realNow = clock.now;
let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', ['media']);
  clock.now = () => new Date('2026-04-20T10:00:00Z');
});
afterEach(() => {
  clock.now = realNow;
});

const card = (media: Partial<MediaSummary>) => {
  render(
    <I18nextProvider i18n={i18next}>
      <MemoryRouter>
        <MediaCard
          media={{
            id: '1',
            type: 'movie',
            title: 'A Film',
            year: null,
            releaseDate: null,
            poster: null,
            ...media,
          }}
        />
      </MemoryRouter>
    </I18nextProvider>,
  );
  return screen.getByTestId('media-card');
};

describe('a card and the release rule', () => {
  it('links a released title, from its release day on', () => {
    const el = card({ releaseDate: '2026-04-20', year: 2026 });
    expect(el.tagName).toBe('A');
    expect(el.textContent).not.toContain('Unreleased');
  });

  it('labels a title that comes out later Unreleased, without a link', () => {
    const el = card({ releaseDate: '2026-07-15', year: 2026 });
    expect(el.tagName).not.toBe('A');
    expect(el.getAttribute('data-unreleased')).toBe('true');
    expect(el.textContent).toContain('Unreleased');
  });

  it('labels a title without any date Unreleased (unknown is not released)', () => {
    const el = card({ releaseDate: '', year: null });
    expect(el.getAttribute('data-unreleased')).toBe('true');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('reads a library entry by its year when it has no date', () => {
    expect(card({ releaseDate: null, year: 1999 }).tagName).toBe('A');
  });
});
