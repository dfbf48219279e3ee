import { fireEvent, render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { POSTER_PLACEHOLDER, PosterImage } from './poster-image.tsx';

it('shows the placeholder when the poster cannot be loaded, and for a title without one', () => {
  const { rerender } = render(<PosterImage src="/api/images/w342/a.jpg" alt="The Matrix" />);
  const img = screen.getByAltText('The Matrix');
  expect(img.getAttribute('src')).toBe('/api/images/w342/a.jpg');
  fireEvent.error(img);
  expect(img.getAttribute('src')).toBe(POSTER_PLACEHOLDER);
  // A placeholder that fails too is left alone (no loop).
  fireEvent.error(img);
  expect(img.getAttribute('src')).toBe(POSTER_PLACEHOLDER);
  // Another title's poster is tried again.
  rerender(<PosterImage src="/api/images/w342/b.jpg" alt="The Matrix" />);
  expect(img.getAttribute('src')).toBe('/api/images/w342/b.jpg');
  rerender(<PosterImage src={null} alt="The Matrix" />);
  expect(img.getAttribute('src')).toBe(POSTER_PLACEHOLDER);
});
