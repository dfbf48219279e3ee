import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { WatchSection } from './title-sections.tsx';

describe('where to watch', () => {
  it('shows an empty tile, not a broken image, when a logo cannot be loaded', async () => {
    const i18n = await initI18n('en', NAMESPACES);
    render(
      <I18nextProvider i18n={i18n}>
        <WatchSection
          providers={{
            region: 'FR',
            link: null,
            providers: [
              { id: 8, name: 'Netflix', logo: '/api/images/w92/netflix.jpg', kind: 'flatrate' },
              { id: 9, name: 'Canal+', logo: '/api/images/w92/canal.jpg', kind: 'flatrate' },
            ],
          }}
        />
      </I18nextProvider>,
    );
    const logos = screen.getAllByTestId('provider-logo');
    expect(logos).toHaveLength(2);
    fireEvent.error(logos[0]!);
    expect(screen.getAllByTestId('provider-logo')).toHaveLength(1);
    // The provider stays listed by name, its logo now an empty tile.
    expect(
      screen.getByText('Netflix').closest('li')!.querySelector('span[aria-hidden="true"]'),
    ).not.toBeNull();
  });
});
