import { describe, expect, it } from 'vitest';
import { orderProviders } from './order.ts';

const p = (id: string, rank: number, extra: { disabled?: boolean; isFallback?: boolean } = {}) => ({
  id,
  rank,
  ...extra,
});

describe('orderProviders', () => {
  const list = [
    p('a', 10),
    p('b', 30),
    p('c', 20),
    p('sample', 99, { isFallback: true }),
    p('off', 50, { disabled: true }),
  ];
  const ids = (...orders: (string[] | undefined)[]) => orderProviders(list, ...orders).map((x) => x.id);

  it('sorts by rank, highest first, fallbacks last, disabled out', () => {
    expect(ids()).toEqual(['b', 'c', 'a', 'sample']);
  });
  it('puts listed ids first in their order, earlier orders winning', () => {
    expect(ids(['a'])).toEqual(['a', 'b', 'c', 'sample']);
    expect(ids(['c'], ['a', 'c'])).toEqual(['c', 'a', 'b', 'sample']);
  });
  it('never moves a fallback or a disabled provider forward', () => {
    expect(ids(['sample', 'off', 'a'])).toEqual(['a', 'b', 'c', 'sample']);
  });
  it('keeps the given order among equal ranks', () => {
    expect(orderProviders([p('x', 1), p('y', 1), p('z', 1)]).map((x) => x.id)).toEqual(['x', 'y', 'z']);
  });
});
