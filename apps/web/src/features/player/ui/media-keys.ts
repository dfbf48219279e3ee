import { useEffect, useState } from 'react';
import { clock } from '../../../lib/clock.ts';
import { mediaCommandOf, type MediaCommand } from '../core/media-commands.ts';
import { playerStore, requests, seekBy, togglePlay } from '../core/player-store.ts';

/*
 * Media keys (issue 30 item 2; README "On a TV"): a remote's or a keyboard's play, pause, stop, rewind,
 * fast-forward, next and previous keys, in TV mode or not (which key does what: core/media-commands.ts).
 * They reach the page two ways: as key presses (TV browsers, most keyboards), and, where the browser
 * routes them to the Media Session, as its actions (media-session.ts). Both run the player's one
 * `mediaCommandRunner`; a press heard both ways runs once.
 */

/** Seconds rewind and fast-forward move (the Media Session's own default when it gives no offset). */
export const MEDIA_SEEK_S = 10;
/** Further into an episode than this, "previous" starts it again (as music players do). */
export const RESTART_AFTER_S = 3;
/** One press heard as a key and as a Media Session action within this long runs once. */
export const MEDIA_ECHO_MS = 500;

export interface EpisodeSteps {
  next(): void;
  previous(): void;
  hasNext: boolean;
  hasPrevious: boolean;
}

/** Commands one press may be heard as, either way (the session says play or pause for ⏯). */
const ECHOES: Readonly<Record<MediaCommand, string>> = {
  playPause: 'playback',
  play: 'playback',
  pause: 'playback',
  stop: 'stop',
  rewind: 'rewind',
  fastForward: 'fastForward',
  next: 'next',
  previous: 'previous',
};

/** Runs a media command heard as a key press or as a Media Session action (`offset`: its seconds). */
export type RunMedia = (command: MediaCommand, via: 'key' | 'session', offset?: number) => void;

const NO_EPISODES: EpisodeSteps = { next() {}, previous() {}, hasNext: false, hasPrevious: false };

/**
 * The media commands of one open player (`follow` gives it the episodes around the one playing), which
 * remembers the last one it heard: a command heard the other way within `MEDIA_ECHO_MS` is the same
 * press's echo and does not run again. Stop pauses: the viewer stays where they are, and Back leaves.
 * Previous starts the episode again past its first seconds (or with no episode before it), else goes
 * back one.
 */
export function mediaCommandRunner(): { run: RunMedia; follow(episodes: EpisodeSteps): void } {
  let lastHeard: { echo: string; via: 'key' | 'session'; at: number } | null = null;
  let steps = NO_EPISODES;
  const run: RunMedia = (command, via, offset = MEDIA_SEEK_S) => {
    const at = clock.now().getTime();
    const echo = ECHOES[command];
    const since = lastHeard ? at - lastHeard.at : Number.POSITIVE_INFINITY;
    if (lastHeard?.echo === echo && lastHeard.via !== via && since >= 0 && since < MEDIA_ECHO_MS) {
      lastHeard = null;
      return;
    }
    lastHeard = { echo, via, at };
    switch (command) {
      case 'playPause':
        return togglePlay();
      case 'play':
        return requests.play();
      case 'pause':
      case 'stop':
        return requests.pause();
      case 'rewind':
        return seekBy(-offset);
      case 'fastForward':
        return seekBy(offset);
      case 'next':
        if (steps.hasNext) steps.next();
        return;
      case 'previous':
        if (steps.hasPrevious && playerStore.getState().playback.time <= RESTART_AFTER_S) steps.previous();
        else requests.seek(0);
    }
  };
  return {
    run,
    follow: (episodes) => {
      steps = episodes;
    },
  };
}

/**
 * The media keys as key presses, while the player is open; the runner it returns serves the Media
 * Session too (media-session.ts). Play, pause, stop and seeking wait for a video (nothing plays while
 * sources are searched); next and previous work at once, like the Media Session's. The shortcuts panel,
 * waiting for a key, takes them first (and refuses them).
 */
export function useMediaKeys(episodes: EpisodeSteps): RunMedia {
  const [{ run, follow }] = useState(mediaCommandRunner);
  useEffect(() => follow(episodes));
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const command = mediaCommandOf(event);
      if (!command || event.defaultPrevented) return;
      const episodeStep = command === 'next' || command === 'previous';
      if (!episodeStep && playerStore.getState().status !== 'playing') return;
      event.preventDefault();
      // A held ⏪/⏩ goes on seeking; a held ⏯ or ⏭ acts once.
      if (event.repeat && command !== 'rewind' && command !== 'fastForward') return;
      run(command, 'key');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [run]);
  return run;
}
