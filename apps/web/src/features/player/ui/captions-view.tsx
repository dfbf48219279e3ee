import { useSubtitlesStore } from '../../../stores/index.ts';
import { captionHtml } from '../captions/caption-text.ts';
import { captionStyle } from '../captions/caption-style.ts';
import { visibleCues } from '../captions/parse.ts';
import { usePlayer } from '../core/player-store.ts';

/** Captions drawn over the video (not native tracks): sanitised cues, styled, shifted by the delay. */
export function CaptionsOverlay({ raised }: { raised: boolean }) {
  const caption = usePlayer((s) => s.caption);
  const time = usePlayer((s) => s.playback.time);
  const delay = useSubtitlesStore((s) => s.delay);
  const styling = useSubtitlesStore((s) => s.styling);
  const fixCapitalisation = useSubtitlesStore((s) => s.overrideCasing);
  if (!caption) return null;
  const cues = visibleCues(caption.cues, time, delay);
  return (
    <div
      className={`pointer-events-none absolute inset-x-0 z-10 flex flex-col items-center gap-1 px-4 text-center transition-[bottom] duration-200 ${raised ? 'bottom-28' : 'bottom-10'}`}
      data-testid="captions"
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
