import { useEffect, useState } from 'react';
import type { PlayerMeta } from '../core/types.ts';
import type { instanceProviders } from '../scrape/session.ts';
import { chooseEmbed, chooseSource, type SourceChoice } from '../scrape/switch-source.ts';
import { usePlayerDeps } from './player-deps.tsx';

export interface SourceSwitchDeps {
  providers?: typeof instanceProviders;
  chooseSource?: typeof chooseSource;
  chooseEmbed?: typeof chooseEmbed;
}

/** The name of the source that plays (its id until the instance's list is known). */
export function useSourceName(sourceId: string | null, given?: typeof instanceProviders): string | null {
  const deps = usePlayerDeps();
  const providers = given ?? deps.instanceProviders;
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void providers().then((p) => {
      if (live) setName(p.find((x) => x.id === sourceId)?.name ?? sourceId);
    });
    return () => {
      live = false;
    };
  }, [sourceId, providers]);
  return name;
}

export type SourceSwitchState = { id: string; result: SourceChoice | 'loading' } | null;

/**
 * Switching sources from the menu: the instance's sources for this kind of title, and the state of
 * the one being tried (loading, its embeds to pick from, or why it did not play). `onPlaying` runs
 * once a stream plays.
 */
export function useSourceSwitch(meta: PlayerMeta, onPlaying: () => void, deps: SourceSwitchDeps = {}) {
  const fromContext = usePlayerDeps().instanceProviders;
  const providers = deps.providers ?? fromContext;
  const pickSource = deps.chooseSource ?? chooseSource;
  const pickEmbed = deps.chooseEmbed ?? chooseEmbed;
  const [sources, setSources] = useState<{ id: string; name: string }[]>([]);
  const [names, setNames] = useState<Record<string, string>>({});
  const [state, setState] = useState<SourceSwitchState>(null);
  useEffect(() => {
    void providers().then((all) => {
      setSources(
        all.filter((p) => p.type === 'source' && (p.mediaTypes ?? ['movie', 'show']).includes(meta.type)),
      );
      setNames(Object.fromEntries(all.map((p) => [p.id, p.name])));
    });
  }, [meta.type, providers]);
  const run = (id: string, work: () => Promise<SourceChoice>) => {
    setState({ id, result: 'loading' });
    void work().then((result) => {
      setState({ id, result });
      if (result.kind === 'playing') onPlaying();
    });
  };
  return {
    sources,
    /** Names of every provider, for the embeds offered. */
    names,
    state,
    chooseSource: (id: string) => run(id, () => pickSource(id, meta)),
    chooseEmbed: (sourceId: string, embedId: string, url: string) =>
      run(sourceId, () => pickEmbed(sourceId, embedId, url)),
  };
}
