import { render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MediaSummary } from '@marquee/contract';
import { clock } from '../lib/clock.ts';
import { initI18n } from '../lib/i18n.ts';
import { MediaCard, type MediaCardProps } from './media-card.tsx';

const realNow = clock.now;
let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', ['media', 'library']);
  clock.now = () => new Date('2026-04-20T10:00:00Z');
});
afterEach(() => {
  clock.now = realNow;
});

const card = (media: Partial<MediaSummary>, props: Partial<MediaCardProps> = {}) => {
  render(
    <I18nextProvider i18n={i18next}>
      <MemoryRouter>
        <MediaCard
          {...props}
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

describe('a card’s anatomy', () => {
  it('names the type and the year under the title', () => {
    expect(card({ title: 'Inception', year: 2010, releaseDate: '2010-07-16' }).textContent).toContain(
      'Movie · 2010',
    );
  });

  it('names the type alone when the year is unknown', () => {
    expect(card({ type: 'tv', year: null, releaseDate: '2008-01-20' }).textContent).toMatch(/Show$/);
  });
});

describe('a Continue Watching card', () => {
  const resume = { to: '/media/tmdb-tv-1396-breaking-bad/3572/62086', ratio: 0.45 };

  it('shows how much is watched, as a progress bar a screen reader names', () => {
    card({ type: 'tv', title: 'Breaking Bad', year: 2008 }, { resume });
    const bar = screen.getByRole('progressbar', { name: '45% watched' });
    expect(bar.getAttribute('aria-valuenow')).toBe('45');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('45%');
  });

  it('still shows a sliver of bar for a title barely started', () => {
    card({ year: 2010 }, { resume: { ...resume, ratio: 0.002 } });
    const bar = screen.getByRole('progressbar', { name: '0% watched' });
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('4%');
  });

  it('leads to where it resumes and names the episode beside type and year', () => {
    const el = card(
      { type: 'tv', title: 'Breaking Bad', year: 2008 },
      { resume: { ...resume, episode: { season: 1, number: 3 } } },
    );
    expect(el.getAttribute('href')).toBe(resume.to);
    expect(el.textContent).toContain('Show · 2008 · S1 E3');
  });

  it('is a link even when the library kept no date or year (it has been playing)', () => {
    expect(card({ year: null, releaseDate: null }, { resume }).tagName).toBe('A');
  });

  it('carries its own action in place of the app’s', () => {
    card({ year: 2010 }, { resume, action: <button type="button">Remove</button> });
    expect(screen.getByRole('button', { name: 'Remove' })).toBeTruthy();
  });
});
