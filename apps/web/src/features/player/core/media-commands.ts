/*
 * The media keys the player answers (issue 30 item 2; README "On a TV"), in TV mode or not. Fixed, not
 * among the viewer's bindings (shortcut-bindings.ts refuses them): a key labelled ⏯ does what it says.
 * The page runs them in ui/media-keys.ts.
 */

export type MediaCommand =
  'playPause' | 'play' | 'pause' | 'stop' | 'rewind' | 'fastForward' | 'next' | 'previous';

/** The keys by their names (UI Events `key` values, which Tizen's remotes report too). */
const MEDIA_KEYS: Readonly<Record<string, MediaCommand>> = {
  MediaPlayPause: 'playPause',
  MediaPlay: 'play',
  MediaPause: 'pause',
  MediaStop: 'stop',
  MediaRewind: 'rewind',
  MediaFastForward: 'fastForward',
  MediaTrackNext: 'next',
  MediaTrackPrevious: 'previous',
};

/** TV browsers that name no key send these codes (webOS, HbbTV; Tizen's own): README "On a TV". */
const MEDIA_KEY_CODES: Readonly<Record<number, MediaCommand>> = {
  415: 'play',
  19: 'pause',
  413: 'stop',
  412: 'rewind',
  417: 'fastForward',
  10252: 'playPause',
  10232: 'previous',
  10233: 'next',
};

/** The media command of a key press, or null. Codes count only when the key has no name. */
export function mediaCommandOf(event: Pick<KeyboardEvent, 'key' | 'keyCode'>): MediaCommand | null {
  const named = MEDIA_KEYS[event.key];
  if (named) return named;
  if (event.key && event.key !== 'Unidentified') return null;
  return MEDIA_KEY_CODES[event.keyCode] ?? null;
}

/** Whether a key is a media key (never a shortcut of the viewer's). */
export const isMediaKey = (key: string) => Object.hasOwn(MEDIA_KEYS, key);
