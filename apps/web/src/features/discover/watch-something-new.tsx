import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type MediaSummary } from '@marquee/contract';
import { isTitleReleased } from '@marquee/contract/values';
import { encodeMediaKey } from '../../lib/media-keys.ts';
import { clock } from '../../lib/clock.ts';
import { pickReleased, pressCountdown, tickCountdown, type CountdownState } from './discover-rules.ts';
import { Button } from '../../components/button.tsx';
import { paths } from '../../lib/paths.ts';

/**
 * Picks a random released movie among those loaded (never one its card labels Unreleased), counts down
 * 5 s and opens it; pressing again during the countdown cancels.
 */
export function WatchSomethingNew({ candidates }: { candidates: MediaSummary[] }) {
  const { t } = useTranslation(['discover']);
  const navigate = useNavigate();
  const [state, setState] = useState<CountdownState>({ phase: 'idle' });
  const [pick, setPick] = useState<MediaSummary | null>(null);

  useEffect(() => {
    if (state.phase !== 'counting') return undefined;
    const timer = setTimeout(() => setState(tickCountdown), 1000);
    return () => clearTimeout(timer);
  }, [state]);

  useEffect(() => {
    if (state.phase === 'done' && pick)
      void navigate(paths.media(encodeMediaKey(pick.type, pick.id, pick.title)));
  }, [state, pick, navigate]);

  // Nothing released loaded yet (or only unreleased titles): nothing to pick.
  const hasReleased = useMemo(() => candidates.some((c) => isTitleReleased(c, clock.now())), [candidates]);

  const press = () => {
    if (state.phase !== 'counting') {
      const choice = pickReleased(candidates, clock.now());
      if (!choice) return;
      setPick(choice);
    }
    setState(pressCountdown);
  };

  return (
    <div className="flex flex-col items-center gap-2">
      <Button
        onClick={press}
        disabled={!hasReleased}
        aria-live="polite"
        data-testid="watch-something-new"
        className="min-h-12 px-6 text-base"
      >
        {state.phase === 'counting' && pick
          ? t('discover.nowPlayingIn', { title: pick.title, count: state.remaining })
          : t('discover.watchSomethingNew')}
      </Button>
      {state.phase === 'counting' && <p className="text-xs text-fg-muted">{t('discover.cancelHint')}</p>}
    </div>
  );
}
