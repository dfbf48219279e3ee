import { useSubtitlesStore } from '../../../stores/index.ts';
import { captionHtml } from '../captions/caption-text.ts';
import { captionStyle } from '../captions/caption-style.ts';
import { visibleCues } from '../captions/parse.ts';
import { usePlayer } from '../core/player-store.ts';

/** Captions drawn over the video (not native tracks): sanitised cues, styled, shifted by the delay. */
export function CaptionsOverlay({ raised }: { raised: boolean }) {
  const caption = usePlayer((s) => s.caption);
  // Its own ASS script is drawn over the video (JASSUB): the text cues stay for screen readers only.
  const assRenderer = usePlayer((s) => s.assRenderer);
  const drawn = assRenderer === 'drawing';
  const time = usePlayer((s) => s.playback.time);
  const delay = useSubtitlesStore((s) => s.delay);
  const styling = useSubtitlesStore((s) => s.styling);
  const fixCapitalisation = useSubtitlesStore((s) => s.overrideCasing);
  if (!caption) return null;
  const cues = visibleCues(caption.cues, time, delay);
  return (
    <div
      className={`pointer-events-none absolute inset-x-0 z-10 flex flex-col items-center gap-1 px-4 text-center transition-[bottom] duration-200 ${raised ? 'bottom-28 tv:bottom-[calc(7rem_+_var(--spacing-overscan-y))]' : 'bottom-10 tv:bottom-[calc(2.5rem_+_var(--spacing-overscan-y))]'} ${drawn ? 'sr-only' : ''}`}
      data-testid="captions"
      data-ass-renderer={assRenderer}
      aria-live="off"
    >
      {cues.map((cue) => (
        <p
          key={`${cue.start}-${cue.end}-${cue.text}`}
          className="inline-block max-w-4xl rounded px-2 py-1 leading-snug"
          style={captionStyle(styling)}
          data-testid="caption-cue"
          // Sanitised to the caption tags by DOMPurify (captionHtml).
          dangerouslySetInnerHTML={{ __html: captionHtml(cue.text, { fixCapitalisation }) }}
        />
      ))}
    </div>
  );
}
