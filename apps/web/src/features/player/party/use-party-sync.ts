import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { partyPositionAt } from '@marquee/contract/values';
import type { PartyCommand, PartyTitle, PartyView } from '@marquee/contract';
import { encodeMediaKey } from '../../../lib/media-keys.ts';
import { paths } from '../../../lib/paths.ts';
import { observeRequests, playerStore, requests, type PlaybackFacts } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import { syncStep } from './drift.ts';
import { partyStore, serverNow, sessionFor, type PartySession } from './party-session.ts';

/** How often the player is compared with the room (and nudged). */
const SYNC_EVERY_MS = 250;
/** After a seek the player is left alone this long (it loads): comparing now would seek again. */
const SEEK_SETTLE_MS = 1_500;
/** Loading this long while the room plays tells the room to wait for this member. */
const STALL_MS = 500;

export const PARTY_QUERY = 'party';

/** The party id of a location's `?party=`, if any. */
export const partyIdOf = (search: string) => new URLSearchParams(search).get(PARTY_QUERY);

/** A player path that stays in the party (next episode, the episodes menu). */
export function withParty(path: string, search: string): string {
  const id = partyIdOf(search);
  return id ? `${path}?${PARTY_QUERY}=${encodeURIComponent(id)}` : path;
}

/** What a player shows, as a party title. */
export function partyTitleOf(meta: PlayerMeta): PartyTitle {
  return {
    type: meta.type,
    tmdbId: meta.tmdbId,
    title: meta.title,
    releaseYear: meta.releaseYear,
    imdbId: meta.imdbId,
    ...(meta.season && meta.episode
      ? {
          season: { number: meta.season.number, tmdbId: meta.season.id },
          episode: { number: meta.episode.number, tmdbId: meta.episode.id },
        }
      : {}),
  };
}

export const titleKey = (t: PartyTitle) =>
  `${t.type}:${t.tmdbId}:${t.season?.number ?? ''}:${t.episode?.number ?? ''}`;

/** The player page of a party's title, in the party. */
export function partyTitlePath(title: PartyTitle, partyId: string): string {
  const key = encodeMediaKey(title.type === 'movie' ? 'movie' : 'tv', title.tmdbId, title.title);
  const path =
    title.season && title.episode
      ? paths.media(key, title.season.tmdbId, title.episode.tmdbId)
      : paths.media(key);
  return `${path}?${PARTY_QUERY}=${encodeURIComponent(partyId)}`;
}

/**
 * Where the element is now: its last reported time plus what has played since (the element reports
 * about four times a second; a quarter of a second is more than the drift a party keeps).
 */
function timeNow(p: PlaybackFacts): number {
  if (p.isPaused || p.isLoading || p.isSeeking || p.timeAt === 0) return p.time;
  return p.time + (Math.min(1_000, Math.max(0, Date.now() - p.timeAt)) / 1000) * p.playbackRate;
}

/**
 * True while the viewer's own gesture is being handled (a click, a key), or a choice of theirs is carried
 * out (an automatic skip): not code acting on its own.
 */
const byViewer = (how: { viewersChoice: boolean }) =>
  how.viewersChoice ||
  ((navigator as Navigator & { userActivation?: { isActive: boolean } }).userActivation?.isActive ?? true);

/** Sends the viewer's play, pause and seek to the room; requests the party itself makes are not sent. */
function useViewerCommands(session: PartySession | null, applying: React.RefObject<boolean>) {
  useEffect(() => {
    if (!session) return;
    observeRequests((name, args, how) => {
      if (applying.current || !byViewer(how)) return;
      const view = partyStore.getState().view;
      if (!view) return;
      const time = playerStore.getState().playback.time;
      let command: PartyCommand | null = null;
      if (name === 'seek') command = { type: 'seek', position: Math.max(0, args[0] as number) };
      else if (name === 'pause') command = { type: 'pause', position: time };
      // Playing a room that plays already only joins in (the sync moves this player to it).
      else if (name === 'play' && !view.playback.playing)
        command = { type: 'play', position: partyPositionAt(view.playback, serverNow()) };
      if (command) void session.command(command);
    });
    return () => observeRequests(null);
  }, [session, applying]);
}

/** Compares the player with the room a few times a second and moves it there (drift.ts). */
function useFollowRoom(session: PartySession | null, applying: React.RefObject<boolean>) {
  useEffect(() => {
    if (!session) return;
    let settleUntil = 0;
    let stalledSince: number | null = null;
    let holding = false;
    const apply = (act: () => void) => {
      applying.current = true;
      try {
        act();
      } finally {
        applying.current = false;
      }
    };
    const tick = () => {
      const { view } = partyStore.getState();
      const player = playerStore.getState();
      if (!view || player.status !== 'playing' || !player.source) return;
      const local = { ...player.playback, time: timeNow(player.playback) };
      const now = serverNow();
      const step = syncStep(view.playback, local, now);
      partyStore.setState({ driftMs: Math.round(step.drift * 1000) });
      // This member stalls while the room plays: the room waits for it (once per stall), and goes on after.
      const stalled = view.playback.playing && local.isLoading && !local.isPaused;
      stalledSince = stalled ? (stalledSince ?? Date.now()) : null;
      if (!holding && stalledSince !== null && Date.now() - stalledSince > STALL_MS) {
        holding = true;
        void session.command({ type: 'buffering', position: local.time });
      } else if (holding && !stalled) {
        holding = false;
        void session.command({ type: 'ready' });
      }
      if (Date.now() < settleUntil) return;
      apply(() => {
        if (step.seek !== undefined) {
          requests.seek(step.seek);
          settleUntil = Date.now() + SEEK_SETTLE_MS;
        }
        if (step.rate !== undefined) requests.setPlaybackRate(step.rate);
        if (step.pause) requests.pause();
        if (step.play) requests.play();
      });
    };
    const timer = setInterval(tick, SYNC_EVERY_MS);
    const unsubscribe = partyStore.subscribe((s, before) => {
      if (s.view !== before.view) tick();
    });
    return () => {
      clearInterval(timer);
      unsubscribe();
      if (holding) void session.command({ type: 'ready' });
      apply(() => requests.setPlaybackRate(1));
    };
  }, [session, applying]);
}

/**
 * The room's title and this player's: when the room moves to another title or episode this player
 * follows; when this player moved (the next episode, the episodes menu) the room follows it.
 */
function useFollowTitle(session: PartySession | null, meta: PlayerMeta) {
  const navigate = useNavigate();
  const mine = titleKey(partyTitleOf(meta));
  useEffect(() => {
    if (!session) return;
    const follow = (view: PartyView | null) => {
      if (!view) return;
      const theirs = titleKey(view.title);
      if (theirs === mine) {
        followed.set(session.partyId, theirs);
        return;
      }
      if (followed.get(session.partyId) === theirs) {
        // The room is where this player was: this player moved on, and the room comes along.
        followed.set(session.partyId, mine);
        void session.command({ type: 'title', title: partyTitleOf(meta) });
        return;
      }
      followed.set(session.partyId, theirs);
      void navigate(partyTitlePath(view.title, session.partyId), { replace: false });
    };
    follow(partyStore.getState().view);
    return partyStore.subscribe((s, before) => {
      if (s.view !== before.view) follow(s.view);
    });
  }, [session, meta, mine, navigate]);
}

/** The room title each party's player last showed here (it outlives the player, mounted per episode). */
const followed = new Map<string, string>();

/**
 * Joins this player to the party in the address (`?party=`): its session, the viewer's commands, the
 * room's playback and title. A party without a membership saved in this tab is joined first (its page).
 */
export function usePartySync(meta: PlayerMeta): PartySession | null {
  const location = useLocation();
  const navigate = useNavigate();
  const partyId = partyIdOf(location.search);
  const session = partyId ? sessionFor(partyId) : null;
  const applying = useRef(false);
  useEffect(() => {
    if (partyId && !session) void navigate(paths.party(partyId), { replace: true });
  }, [partyId, session, navigate]);
  useViewerCommands(session, applying);
  useFollowRoom(session, applying);
  useFollowTitle(session, meta);
  return session;
}
