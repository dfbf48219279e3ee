import { usePlayerPrefsStore, useSubtitlesStore } from '../../../stores/index.ts';
import { playerStore } from '../core/player-store.ts';
import { createDisplay } from '../display/display.ts';
import { attachStyledCaptions } from '../display/styled-captions.ts';

/**
 * Gives the `<video>` to the display: it owns the element, loads sources and carries out the UI's
 * requests (those asked before it attached included); a caption's own ASS script is drawn over it
 * (display/styled-captions.ts). Returns the teardown.
 */
export function attachDisplay(video: HTMLVideoElement, container: HTMLElement): () => void {
  const stopDisplay = createDisplay({
    video,
    container,
    store: playerStore,
    qualityPreference: () => {
      const p = usePlayerPrefsStore.getState();
      return {
        automaticQuality: p.automaticQuality,
        lastChosenQuality: (p.lastChosenQuality as never) ?? null,
      };
    },
  });
  // ASS/SSA captions with their own styling, over the same element (JASSUB, loaded when chosen).
  const stopStyled = attachStyledCaptions({
    video,
    store: playerStore,
    delay: () => useSubtitlesStore.getState().delay,
    onDelay: (listener) =>
      useSubtitlesStore.subscribe((s, prev) => {
        if (s.delay !== prev.delay) listener(s.delay);
      }),
  });
  return () => {
    stopStyled();
    stopDisplay();
  };
}
