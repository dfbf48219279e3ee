import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { optionalLazy } from './optional-lazy.tsx';

function Extra({ name }: { name: string }) {
  return <p>extra for {name}</p>;
}

describe('a part of a page the page can do without', () => {
  it('its code failing to load shows nothing and leaves the page; back online it tries again and shows', async () => {
    let tries = 0;
    const Optional = optionalLazy(() => {
      tries += 1;
      return tries === 1
        ? Promise.reject(new Error('Failed to fetch dynamically imported module'))
        : Promise.resolve({ default: Extra });
    });
    render(
      <main>
        <h1>The Matrix</h1>
        <Optional name="The Matrix" />
      </main>,
    );
    // The failed load settles: the page stays, the part is absent.
    await act(async () => {
      await Promise.resolve();
    });
    expect(screen.getByRole('heading', { name: 'The Matrix' })).toBeTruthy();
    expect(screen.queryByText('extra for The Matrix')).toBeNull();
    expect(tries).toBe(1);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('extra for The Matrix')).toBeTruthy();
    expect(tries).toBe(2);
  });
});
