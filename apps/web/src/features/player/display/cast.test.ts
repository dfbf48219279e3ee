import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { CAST_CAPTION_TTL_MS } from '@marquee/contract/values';
import { DEFAULT_STYLING, type SubtitleStyling } from '../../../stores/index.ts';
import { contractServer } from '../../../test/contract-server.ts';
import { createPlayerStore, type PlayerStore } from '../core/player-store.ts';
import type { CaptionListItem, Cue, SelectedCaption } from '../core/types.ts';
import { movie } from '../session/test-meta.ts';
import { castUrl } from '../session/use-casting.ts';
import { CAST_CAPTION_REUSE_MARGIN_MS } from './cast-captions.ts';
import { castColor, type CastEditTracksInfoRequest, type CastLoadRequest } from './cast-media.ts';
import { defaultCastingDeps, setUpCasting, type CastingDeps, type CastSdk } from './cast.ts';

/*
 * Casting carries the viewer's captions (decision 113). The Cast SDK cannot load here (Google's servers),
 * so a fake `cast.framework` / `chrome.cast.media` records what the player builds and sends.
 */

/** A fake of `chrome.cast.media`: plain classes with the SDK's constructor arguments, string enums. */
function fakeCastMedia() {
  return {
    DEFAULT_MEDIA_RECEIVER_APP_ID: 'CC1AD845',
    MediaInfo: class {
      streamType?: string;
      constructor(
        public contentId: string,
        public contentType: string,
      ) {}
    },
    GenericMediaMetadata: class {
      title?: string;
    },
    LoadRequest: class {
      currentTime?: number;
      constructor(public media: CastLoadRequest['media']) {}
    },
    Track: class {
      constructor(
        public trackId: number,
        public type: string,
      ) {}
    },
    TextTrackStyle: class {},
    EditTracksInfoRequest: class {
      constructor(
        public activeTrackIds?: number[],
        public textTrackStyle?: CastEditTracksInfoRequest['textTrackStyle'],
      ) {}
    },
    StreamType: { BUFFERED: 'BUFFERED' },
    TrackType: { TEXT: 'TEXT' },
    TextTrackType: { SUBTITLES: 'SUBTITLES', CAPTIONS: 'CAPTIONS' },
    TextTrackFontStyle: { NORMAL: 'NORMAL', BOLD: 'BOLD' },
    TextTrackEdgeType: { DROP_SHADOW: 'DROP_SHADOW' },
    TextTrackWindowType: { NONE: 'NONE' },
  };
}

/** A receiver: the loads and edits it is sent, where it is, whether it is paused (`busy`: playing from before). */
function fakeReceiver(busy = false) {
  const loads: CastLoadRequest[] = [];
  const edits: CastEditTracksInfoRequest[] = [];
  const playing = {
    playerState: 'PLAYING',
    time: 0,
    getEstimatedTime: () => playing.time,
    editTracksInfo: (request: CastEditTracksInfoRequest, onSuccess: () => void) => {
      edits.push(request);
      onSuccess();
    },
  };
  const session = {
    loadMedia: vi.fn(async (request: CastLoadRequest) => {
      loads.push(request);
    }),
    getMediaSession: () => (busy || loads.length ? playing : null),
  };
  return { loads, edits, playing, session };
}

/** The sender's context: a session is current from its start (or `connected` from before) to its end. */
function fakeSdk(receiver: ReturnType<typeof fakeReceiver>, connected = false) {
  const listeners = new Set<(event: { sessionState: string }) => void>();
  const options: unknown[] = [];
  let current = connected;
  const context = {
    setOptions: (o: unknown) => options.push(o),
    getCurrentSession: () => (current ? receiver.session : null),
    addEventListener: (_type: string, listener: (event: { sessionState: string }) => void) =>
      listeners.add(listener),
    removeEventListener: (_type: string, listener: (event: { sessionState: string }) => void) =>
      listeners.delete(listener),
  };
  const sdk: CastSdk = {
    framework: {
      CastContext: { getInstance: () => context },
      SessionState: {
        SESSION_STARTED: 'SESSION_STARTED',
        SESSION_RESUMED: 'SESSION_RESUMED',
        SESSION_ENDED: 'SESSION_ENDED',
      },
      CastContextEventType: { SESSION_STATE_CHANGED: 'sessionstatechanged' },
    },
    media: fakeCastMedia(),
    autoJoinPolicy: 'origin_scoped',
  };
  const emit = (sessionState: string) => {
    current = sessionState !== 'SESSION_ENDED';
    for (const listener of [...listeners]) listener({ sessionState });
  };
  return { sdk, options, listeners, emit };
}

const cues = (text: string): Cue[] => [
  { start: 1, end: 2.5, text },
  { start: 4, end: 5, text: 'Two' },
];
const frenchItem: CaptionListItem = {
  id: 'fr-1',
  language: 'fr',
  url: 'https://subs.example/fr.srt',
  type: 'srt',
  needsProxy: false,
  opensubtitles: false,
};
const englishSdh: CaptionListItem = { ...frenchItem, id: 'en-sdh', language: 'en', label: 'SDH' };
const caption = (item: CaptionListItem, text = 'Bonjour'): SelectedCaption => ({
  id: item.id,
  language: item.language,
  cues: cues(text),
  srtData: '',
});

interface Setup {
  store: PlayerStore;
  receiver: ReturnType<typeof fakeReceiver>;
  fake: ReturnType<typeof fakeSdk>;
  uploads: string[];
  subtitles: ReturnType<typeof subtitlesStore>;
  clock: { now: number };
  pause: ReturnType<typeof vi.fn>;
  stop: () => void;
}

const subtitlesStore = (styling: Partial<SubtitleStyling> = {}) =>
  createStore(() => ({ styling: { ...DEFAULT_STYLING, ...styling }, delay: 0, overrideCasing: false }));

async function setUp(
  o: {
    host?: CastingDeps['host'];
    styling?: Partial<SubtitleStyling>;
    /** A session is on from before this player (the episode before was cast and plays there). */
    connected?: boolean;
    /** The source is found only after casting is set up (as in the app: the scrape runs meanwhile). */
    sourceLater?: boolean;
    /** The page's sender and receiver of a player before this one. */
    from?: Pick<Setup, 'fake' | 'receiver'>;
  } = {},
): Promise<Setup> {
  const store = createPlayerStore();
  store.getState().setMeta(movie);
  if (!o.sourceLater)
    store
      .getState()
      .setSource({ type: 'hls', url: 'https://tv.example/master.m3u8' }, { sourceId: 'library' });
  store.getState().setCaptionList([frenchItem, englishSdh]);
  store.getState().updatePlayback({ time: 42 });
  const pause = vi.fn();
  store.getState().attachDisplay({ pause } as never);
  const receiver = o.from?.receiver ?? fakeReceiver(o.connected);
  const fake = o.from?.fake ?? fakeSdk(receiver, o.connected);
  const uploads: string[] = [];
  const clock = { now: Date.UTC(2026, 0, 15) };
  const subtitles = subtitlesStore(o.styling);
  const stop = await setUpCasting(store, () => castUrl(store.getState()), {
    sdk: async () => fake.sdk,
    subtitles,
    now: () => clock.now,
    languageName: (code) => ({ fr: 'French', en: 'English' })[code] ?? code,
    host:
      o.host ??
      (async (vtt) => {
        uploads.push(vtt);
        return {
          url: `https://tv.example/api/cast/captions/${'A'.repeat(21)}${uploads.length}`,
          expiresAt: clock.now + CAST_CAPTION_TTL_MS,
        };
      }),
  });
  return { store, receiver, fake, uploads, subtitles, clock, pause, stop };
}

/** Lets the casting steps (uploads, loads, edits: promises) run to the end. */
async function settle(
  receiver: ReturnType<typeof fakeReceiver>,
  loads: number,
  edits = receiver.edits.length,
) {
  await vi.waitFor(() => {
    expect(receiver.loads).toHaveLength(loads);
    expect(receiver.edits).toHaveLength(edits);
  });
}

describe('a cast session carries the chosen caption', () => {
  it('loads the media with the caption relayed as WebVTT, on, and the viewer’s caption style', async () => {
    const t = await setUp({ styling: { color: '#e2e535', backgroundOpacity: 0.5, size: 1.5, bold: true } });
    expect(t.fake.options).toEqual([{ receiverApplicationId: 'CC1AD845', autoJoinPolicy: 'origin_scoped' }]);
    expect(t.store.getState().capabilities.canCast).toBe(true);
    t.subtitles.setState({ delay: 0.5 });
    t.store.getState().setCaption(caption(frenchItem, 'Bonjour & <font color="red">bienvenue</font>'));

    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 1);
    expect(t.pause).toHaveBeenCalledOnce();
    expect(t.uploads).toEqual([
      'WEBVTT\n\n00:00:01.500 --> 00:00:03.000\nBonjour &amp; bienvenue\n\n00:00:04.500 --> 00:00:05.500\nTwo\n',
    ]);
    const [load] = t.receiver.loads;
    expect(load).toMatchObject({
      currentTime: 42,
      activeTrackIds: [1],
      media: {
        contentId: 'https://tv.example/master.m3u8',
        contentType: 'application/x-mpegurl',
        streamType: 'BUFFERED',
        metadata: { title: 'The Matrix' },
      },
    });
    expect(load!.media.tracks).toEqual([
      {
        trackId: 1,
        type: 'TEXT',
        trackContentId: `https://tv.example/api/cast/captions/${'A'.repeat(21)}1`,
        trackContentType: 'text/vtt',
        subtype: 'SUBTITLES',
        name: 'French',
        language: 'fr',
      },
    ]);
    expect(load!.media.textTrackStyle).toEqual({
      foregroundColor: '#E2E535FF',
      backgroundColor: '#00000080',
      edgeType: 'DROP_SHADOW',
      edgeColor: '#000000B3',
      fontScale: 1.5,
      fontStyle: 'BOLD',
      windowType: 'NONE',
    });
    t.stop();
  });

  it('loads without tracks when no caption is shown, and with none when the caption cannot be relayed', async () => {
    const t = await setUp();
    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 1);
    expect(t.uploads).toEqual([]);
    expect(t.receiver.loads[0]).toMatchObject({ activeTrackIds: [], media: { tracks: [] } });

    const failing = await setUp({ host: async () => Promise.reject(new Error('429')) });
    failing.store.getState().setCaption(caption(frenchItem));
    failing.fake.emit('SESSION_RESUMED');
    await settle(failing.receiver, 1);
    expect(failing.receiver.loads[0]).toMatchObject({ activeTrackIds: [], media: { tracks: [] } });
    t.stop();
    failing.stop();
  });

  it('names captions for the hard of hearing and the viewer’s own file as such', async () => {
    const t = await setUp();
    t.store.getState().setCaption(caption(englishSdh));
    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 1);
    expect(t.receiver.loads[0]!.media.tracks![0]).toMatchObject({
      subtype: 'CAPTIONS',
      language: 'en',
      name: 'English (SDH)',
    });
    t.store
      .getState()
      .setCaption({ id: 'custom-film.ass', language: 'custom', cues: cues('Mine'), srtData: '' });
    await settle(t.receiver, 2);
    expect(t.receiver.loads[1]!.media.tracks![1]).toMatchObject({
      subtype: 'SUBTITLES',
      language: 'und',
      name: 'film.ass',
    });
    t.stop();
  });
});

describe('while casting, the caption choice follows the viewer', () => {
  it('Off and a caption already loaded are edits; a new caption is relayed and loaded where the TV is', async () => {
    const t = await setUp();
    t.store.getState().setCaption(caption(frenchItem));
    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 1, 0);

    t.store.getState().setCaption(null);
    await settle(t.receiver, 1, 1);
    expect(t.receiver.edits[0]!.activeTrackIds).toEqual([]);

    t.store.getState().setCaption(caption(frenchItem));
    await settle(t.receiver, 1, 2);
    expect(t.receiver.edits[1]!.activeTrackIds).toEqual([1]);
    expect(t.uploads).toHaveLength(1);

    t.receiver.playing.time = 300;
    t.receiver.playing.playerState = 'PAUSED';
    t.store.getState().setCaption(caption(englishSdh, 'Hello'));
    await settle(t.receiver, 2, 2);
    expect(t.uploads).toHaveLength(2);
    const reload = t.receiver.loads[1]!;
    expect(reload).toMatchObject({ currentTime: 300, autoplay: false, activeTrackIds: [2] });
    expect(reload.media.tracks!.map((track) => [track.trackId, track.language])).toEqual([
      [1, 'fr'],
      [2, 'en'],
    ]);

    // Back to French: loaded in this media, an edit.
    t.store.getState().setCaption(caption(frenchItem));
    await settle(t.receiver, 2, 3);
    expect(t.receiver.edits[2]!.activeTrackIds).toEqual([1]);
    t.stop();
  });

  it('sends a changed caption style to the receiver with the caption on', async () => {
    const t = await setUp();
    t.store.getState().setCaption(caption(frenchItem));
    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 1, 0);
    t.subtitles.setState({ styling: { ...DEFAULT_STYLING, size: 9, color: '#80b1fa', bold: false } });
    await settle(t.receiver, 1, 1);
    expect(t.receiver.edits[0]).toEqual({
      activeTrackIds: [1],
      textTrackStyle: expect.objectContaining({
        fontScale: 2,
        foregroundColor: '#80B1FAFF',
        fontStyle: 'NORMAL',
      }),
    });
    // The delay alone reaches the TV with the next caption chosen (no reload per nudge).
    t.subtitles.setState({ delay: 1 });
    t.store.getState().setCaption(null);
    await settle(t.receiver, 1, 2);
    t.stop();
  });

  it('never sends a caption the viewer left while it was uploading', async () => {
    const gates: (() => void)[] = [];
    const t = await setUp({
      host: () =>
        new Promise((resolve) => {
          const id = gates.length + 1;
          gates.push(() =>
            resolve({ url: `https://tv.example/api/cast/captions/${id}`, expiresAt: Date.UTC(2026, 0, 16) }),
          );
        }),
    });
    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 1, 0);
    t.store.getState().setCaption(caption(frenchItem));
    await vi.waitFor(() => expect(gates).toHaveLength(1));
    t.store.getState().setCaption(caption(englishSdh, 'Hello'));
    gates[0]!();
    // French is dropped once relayed; English, chosen after it, is relayed next and loaded alone.
    await vi.waitFor(() => expect(gates).toHaveLength(2));
    gates[1]!();
    await settle(t.receiver, 2, 0);
    expect(t.receiver.loads[1]!.activeTrackIds).toEqual([2]);
    expect(t.receiver.loads[1]!.media.tracks!.map((track) => track.trackContentId)).toEqual([
      'https://tv.example/api/cast/captions/2',
    ]);
    t.stop();
  });

  it('relays a caption again when its URL is about to expire, rather than turning it on', async () => {
    const t = await setUp();
    t.store.getState().setCaption(caption(frenchItem));
    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 1, 0);
    t.store.getState().setCaption(null);
    await settle(t.receiver, 1, 1);
    t.clock.now += CAST_CAPTION_TTL_MS - CAST_CAPTION_REUSE_MARGIN_MS;
    t.store.getState().setCaption(caption(frenchItem));
    await settle(t.receiver, 2, 1);
    expect(t.uploads).toHaveLength(2);
    // The expired track is not offered to the receiver again.
    expect(t.receiver.loads[1]!.media.tracks!.map((track) => track.trackId)).toEqual([2]);
    t.stop();
  });

  it('sends nothing once the session ended, and stops hearing the player when it goes away', async () => {
    const t = await setUp();
    t.store.getState().setCaption(caption(frenchItem));
    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 1, 0);
    t.fake.emit('SESSION_ENDED');
    t.store.getState().setCaption(null);
    t.subtitles.setState({ styling: { ...DEFAULT_STYLING, bold: true } });
    // Steps run in order: once the next session's load is out, the changes between were not sent.
    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 2, 0);
    expect(t.receiver.loads[1]).toMatchObject({ activeTrackIds: [], media: { tracks: [] } });
    t.stop();
    expect(t.fake.listeners.size).toBe(0);
  });
});

describe('while casting, what plays follows the viewer', () => {
  it('loads another source or quality on the receiver from where the receiver is', async () => {
    const t = await setUp();
    t.store.getState().setCaption(caption(frenchItem));
    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 1, 0);
    t.receiver.playing.time = 1_200;
    t.store
      .getState()
      .setSource(
        { type: 'file', qualities: { '1080': { type: 'mp4', url: 'https://cdn.example/1080.mp4' } } },
        { sourceId: 'other' },
      );
    t.store.getState().setQualities(['1080'], '1080');
    await settle(t.receiver, 2, 0);
    expect(t.receiver.loads[1]).toMatchObject({
      currentTime: 1_200,
      activeTrackIds: [2],
      media: { contentId: 'https://cdn.example/1080.mp4', contentType: 'video/mp4' },
    });
    // The same URL again (a re-render, the same quality chosen) is not loaded twice.
    t.store.getState().setQualities(['1080'], '1080');
    t.store.getState().setCaptionList([frenchItem]);
    await t.receiver.session.loadMedia.mock.results.at(-1)?.value;
    expect(t.receiver.loads).toHaveLength(2);
    t.stop();
  });

  it('loads the next episode when its player starts during a session, from its own start, and keeps this device paused', async () => {
    const t = await setUp({ connected: true, sourceLater: true });
    // The episode before is near its end on the TV; this player has no source yet.
    t.receiver.playing.time = 1_310;
    expect(t.receiver.loads).toHaveLength(0);
    // It resumes where the viewer left it before.
    t.store
      .getState()
      .setSource({ type: 'hls', url: 'https://tv.example/s1e2.m3u8' }, { sourceId: 'library', startAt: 95 });
    await settle(t.receiver, 1, 0);
    expect(t.receiver.loads[0]).toMatchObject({
      currentTime: 95,
      media: { contentId: 'https://tv.example/s1e2.m3u8', metadata: { title: 'The Matrix' } },
    });
    expect(t.pause).toHaveBeenCalledOnce();
    t.stop();
  });

  it('carries on from where the receiver is when the episode it plays is opened again', async () => {
    const first = await setUp();
    first.fake.emit('SESSION_STARTED');
    await settle(first.receiver, 1, 0);
    first.stop();
    // The viewer left the player and opened it again: this device stood at 42 s, the TV went on.
    const again = await setUp({ from: first, sourceLater: true });
    again.receiver.playing.time = 900;
    again.store
      .getState()
      .setSource(
        { type: 'hls', url: 'https://tv.example/master.m3u8?t=2' },
        { sourceId: 'library', startAt: 42 },
      );
    await settle(again.receiver, 2, 0);
    expect(again.receiver.loads[1]).toMatchObject({ currentTime: 900 });
    again.stop();
  });

  it('loads what plays at once when the player starts with its source during a session', async () => {
    const t = await setUp({ connected: true });
    await settle(t.receiver, 1, 0);
    expect(t.receiver.loads[0]).toMatchObject({ currentTime: 42 });
    t.stop();
  });

  it('sends nothing when no session is on, and nothing more once its player is gone', async () => {
    const t = await setUp();
    t.store.getState().setSource({ type: 'hls', url: 'https://tv.example/other.m3u8' }, { sourceId: 'x' });
    expect(t.receiver.loads).toHaveLength(0);
    expect(t.pause).not.toHaveBeenCalled();
    t.fake.emit('SESSION_STARTED');
    await settle(t.receiver, 1, 0);
    expect(t.receiver.loads[0]!.media.contentId).toBe('https://tv.example/other.m3u8');
    t.stop();
    t.store.getState().setSource({ type: 'hls', url: 'https://tv.example/third.m3u8' }, { sourceId: 'y' });
    expect(t.receiver.loads).toHaveLength(1);
  });
});

describe('setUpCasting without a sender', () => {
  it('shows no cast button when Google’s sender cannot load', async () => {
    const store = createPlayerStore();
    const stop = await setUpCasting(store, () => null, { sdk: async () => null });
    expect(store.getState().capabilities.canCast).toBe(false);
    stop();
  });
});

describe('the caption relay', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is called through the contract’s client, with the WebVTT as the body', async () => {
    const hosted = { url: 'https://tv.example/api/cast/captions/x', expiresAt: 1 };
    const server = contractServer({ cast: { uploadCaption: () => hosted } });
    vi.stubGlobal('fetch', server.fetch);
    await expect(defaultCastingDeps.host('WEBVTT\n')).resolves.toEqual(hosted);
    expect(server.requests.map((r) => [r.endpoint, r.init.body])).toEqual([
      ['cast.uploadCaption', JSON.stringify({ vtt: 'WEBVTT\n' })],
    ]);
  });
});

describe('castColor', () => {
  it('writes CSS colours as #RRGGBBAA, anything else as white', () => {
    expect(castColor('#ffffff')).toBe('#FFFFFFFF');
    expect(castColor('#abc', 0)).toBe('#AABBCC00');
    expect(castColor('#000000', 0.74)).toBe('#000000BD');
    expect(castColor('red', 2)).toBe('#FFFFFFFF');
  });
});
