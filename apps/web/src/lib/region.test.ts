import { expect, it } from 'vitest';
import { viewerRegion } from './region.ts';

it('takes the first region the browser names, else the likely one of its language, else the US', () => {
  expect(viewerRegion(['fr-CA', 'en-US'])).toBe('CA');
  expect(viewerRegion(['ja', 'en-GB'])).toBe('GB');
  expect(viewerRegion(['ja'])).toBe('JP');
  expect(viewerRegion(['de'])).toBe('DE');
  // "419" (Latin America) is not a country: the likely country of Spanish is used instead.
  expect(viewerRegion(['es-419'])).toBe('ES');
  expect(viewerRegion(['not a tag'])).toBe('US');
  expect(viewerRegion([])).toBe('US');
});
