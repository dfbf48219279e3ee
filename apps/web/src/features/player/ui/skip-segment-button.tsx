import { useTranslation } from 'react-i18next';
import { usePlayerPrefsStore } from '../../../stores/index.ts';
import { requests, usePlayer } from '../core/player-store.ts';
import { skippableAt } from '../core/segments.ts';
import { usePromptFocus } from './tv-focus.ts';

/**
 * "Skip intro" (recap, preview) while one plays and the viewer chose to be asked (decision 111): it
 * jumps to the segment's end. Shown whether the controls are or not, like the next-episode button; on
 * a TV it takes focus as it appears, so OK presses it (tv-focus.ts).
 */
export function SkipSegmentButton() {
  const { t } = useTranslation(['player']);
  const focusRef = usePromptFocus();
  const segment = usePlayer((s) => skippableAt(s.segments, s.playback.time));
  const choice = usePlayerPrefsStore((s) => (segment ? s.segmentSkips[segment.type] : 'off'));
  if (!segment || choice !== 'ask') return null;
  const label =
    segment.type === 'intro'
      ? t('player.segments.skipIntro')
      : segment.type === 'recap'
        ? t('player.segments.skipRecap')
        : t('player.segments.skipPreview');
  return (
    <button
      ref={focusRef}
      type="button"
      className="absolute bottom-28 end-6 z-20 min-h-11 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-black shadow-lg hover:bg-white/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
      onClick={() => requests.seek(segment.end)}
      data-testid="skip-segment"
      data-segment={segment.type}
      data-player-prompt=""
    >
      {label}
    </button>
  );
}
