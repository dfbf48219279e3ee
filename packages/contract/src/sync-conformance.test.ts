import { describe, expect, it } from 'vitest';
import { hasUndatedStep, syncConformanceCases } from './sync-conformance.ts';
import { changeWins } from './sync-rules.ts';

describe('sync conformance cases', () => {
  it('are named once each and run on at least one kind', () => {
    const names = syncConformanceCases.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(syncConformanceCases.every((c) => c.kinds.length > 0)).toBe(true);
  });

  it('run on every kind, and name removal scopes only where the kind has them', () => {
    const kinds = new Set(syncConformanceCases.flatMap((c) => c.kinds));
    expect([...kinds].sort()).toEqual([
      'bookmark',
      'episode',
      'episode-play',
      'movie',
      'movie-play',
      'rating',
    ]);
    const plays = ['movie-play', 'episode-play'];
    for (const c of syncConformanceCases) {
      const scopes = c.steps.flatMap((s) => (s.op === 'remove' && s.scope ? [s.scope] : []));
      const episodesOnly = scopes.some(
        (s) => s === 'season' || s.startsWith('other-e') || s === 'other-season',
      );
      if (episodesOnly)
        expect(
          c.kinds.every((k) => k === 'episode' || k === 'episode-play'),
          c.name,
        ).toBe(true);
      if (scopes.includes('other-play'))
        expect(
          c.kinds.every((k) => plays.includes(k)),
          c.name,
        ).toBe(true);
      if (scopes.includes('title'))
        expect(
          c.kinds.every((k) => k === 'episode' || plays.includes(k)),
          c.name,
        ).toBe(true);
    }
  });

  it('say of one dated write over a row or a removal what changeWins says', () => {
    const single = syncConformanceCases.filter(
      (c) => c.start !== null && c.steps.length === 1 && c.steps[0]!.op === 'write' && !hasUndatedStep(c),
    );
    expect(single.length).toBeGreaterThanOrEqual(6);
    for (const c of single) {
      const step = c.steps[0] as { at: number; value: number };
      const held = 'row' in c.start! ? c.start.row.at : c.start!.removedAt;
      const kept = 'row' in c.start! ? c.start.row : null;
      expect(c.expected, c.name).toEqual(
        changeWins(step.at, held) ? { at: step.at, value: step.value } : kept,
      );
    }
  });
});
