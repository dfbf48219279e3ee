import { describe, expect, it } from 'vitest';
import { move, orderSources } from './source-order.tsx';

const src = (id: string, rank: number) => ({ type: 'source' as const, id, name: id, rank });

describe("the viewer's source order", () => {
  const sources = [
    src('sample', 1),
    src('library', 300),
    src('links', 200),
    { type: 'embed' as const, id: 'sample-hls', name: 'x', rank: 5 },
  ];

  it('puts the saved order first, then the remaining sources by rank; embeds and unknown ids are dropped', () => {
    expect(orderSources(sources, ['sample', 'gone']).map((s) => s.id)).toEqual([
      'sample',
      'library',
      'links',
    ]);
    expect(orderSources(sources, []).map((s) => s.id)).toEqual(['library', 'links', 'sample']);
  });

  it('moves one place up or down and stays within the list', () => {
    expect(move(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});
