import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { InstanceProvider } from '../../../lib/instance-providers.ts';
import type { SourceChoice } from '../scrape/switch-source.ts';
import { episode, movie } from './test-meta.ts';
import { useSourceName, useSourceSwitch } from './use-source-switch.ts';

const list: InstanceProvider[] = [
  { type: 'source', id: 'library', name: 'Library', rank: 3 },
  { type: 'source', id: 'films', name: 'Films only', rank: 2, mediaTypes: ['movie'] },
  { type: 'embed', id: 'player', name: 'Player', rank: 1 },
];
const providers = async () => list;

describe('useSourceSwitch', () => {
  it('lists the sources for this kind of title and names every provider', async () => {
    const { result } = renderHook(() => useSourceSwitch(episode(1), () => undefined, { providers }));
    await waitFor(() => expect(result.current.sources.map((s) => s.id)).toEqual(['library']));
    expect(result.current.names).toEqual({ library: 'Library', films: 'Films only', player: 'Player' });
  });

  it('loading, then the choice; a stream that plays runs onPlaying', async () => {
    let answer: (c: SourceChoice) => void = () => undefined;
    const chooseSource = vi.fn(() => new Promise<SourceChoice>((r) => (answer = r)));
    const chooseEmbed = vi.fn(async (): Promise<SourceChoice> => ({ kind: 'playing' }));
    const onPlaying = vi.fn();
    const { result } = renderHook(() =>
      useSourceSwitch(movie, onPlaying, { providers, chooseSource, chooseEmbed }),
    );
    act(() => result.current.chooseSource('library'));
    expect(chooseSource).toHaveBeenCalledWith('library', movie);
    expect(result.current.state).toEqual({ id: 'library', result: 'loading' });
    const embeds: SourceChoice = { kind: 'embeds', embeds: [{ embedId: 'player', url: 'u' }] };
    await act(async () => answer(embeds));
    expect(result.current.state).toEqual({ id: 'library', result: embeds });
    expect(onPlaying).not.toHaveBeenCalled();
    await act(async () => result.current.chooseEmbed('library', 'player', 'u'));
    expect(chooseEmbed).toHaveBeenCalledWith('library', 'player', 'u');
    expect(result.current.state).toEqual({ id: 'library', result: { kind: 'playing' } });
    expect(onPlaying).toHaveBeenCalledOnce();
  });
});

describe('useSourceName', () => {
  it("the playing source's name, its id when the instance does not list it", async () => {
    const { result, rerender } = renderHook(({ id }) => useSourceName(id, providers), {
      initialProps: { id: 'library' as string | null },
    });
    await waitFor(() => expect(result.current).toBe('Library'));
    rerender({ id: 'elsewhere' });
    await waitFor(() => expect(result.current).toBe('elsewhere'));
  });
});
