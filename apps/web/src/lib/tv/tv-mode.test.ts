import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { initStores, usePreferencesStore } from '../../stores/index.ts';
import { isTvMode, looksLikeTv, tvModeFor, useTvModeDocument, type TvModeSetting } from './tv-mode.ts';

// User agents as these devices send them (docs/decisions/114-tv-mode.md: TV mode is automatic in TV browsers).
const AGENTS = {
  tizen:
    'Mozilla/5.0 (SMART-TV; LINUX; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) 76.0.3809.146/6.0 TV Safari/537.36',
  webOS:
    'Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 WebAppManager',
  androidTv:
    'Mozilla/5.0 (Linux; Android 11; SHIELD Android TV Build/RQ1A.210105.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/118.0.5993.111 Mobile Safari/537.36',
  fireTv:
    'Mozilla/5.0 (Linux; Android 9; AFTKA Build/PS7633.3445N; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36',
  chromecastGoogleTv:
    'Mozilla/5.0 (Linux; Android 12.0; Build/STTL.240206.002) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 Safari/537.36 CrKey/1.56.500000 DeviceType/AndroidTV',
  samsungPhone:
    'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  desktopChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  iPad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  // iPadOS asks for desktop sites by default: it says it is a Mac.
  iPadAsMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
} as const;

/** A screen answering media queries: `true` for the ones listed. */
const screenWith =
  (...true_: string[]) =>
  (query: string) =>
    true_.includes(query);
const NO_POINTER = '(any-pointer: none)';
const HOVER = '(any-hover: hover)';
const WIDE = '(min-width: 960px)';
/** A laptop or a desktop: a fine pointer that hovers, a wide screen. */
const desktop = screenWith(HOVER, WIDE);
/** A phone or a tablet: touch (a coarse pointer), no hover. */
const touch = screenWith();

describe('looksLikeTv: user agents', () => {
  it.each([
    ['Samsung Tizen', AGENTS.tizen],
    ['LG webOS', AGENTS.webOS],
    ['Android TV (NVIDIA Shield)', AGENTS.androidTv],
    ['Fire TV Stick 4K Max', AGENTS.fireTv],
    ['Chromecast with Google TV', AGENTS.chromecastGoogleTv],
  ])('%s is a TV, whatever its screen says', (_name, agent) => {
    expect(looksLikeTv(agent, desktop)).toBe(true);
    expect(looksLikeTv(agent, touch)).toBe(true);
  });

  it.each([
    ['a Samsung phone', AGENTS.samsungPhone, touch],
    ['desktop Chrome', AGENTS.desktopChrome, desktop],
    ['an iPad', AGENTS.iPad, touch],
    ['an iPad asking for desktop sites', AGENTS.iPadAsMac, touch],
  ])('%s is not', (_name, agent, screen) => {
    expect(looksLikeTv(agent, screen)).toBe(false);
  });
});

describe('looksLikeTv: screen hints', () => {
  afterEach(() => vi.unstubAllGlobals());
  // A browser on a stick or a console with an ordinary user agent, driven by a remote or a pad.
  const agent = AGENTS.desktopChrome;

  it('a wide screen with no pointer and no hover is a TV', () => {
    expect(looksLikeTv(agent, screenWith(NO_POINTER, WIDE))).toBe(true);
  });

  it('any pointer, hover or a narrow screen says it is not', () => {
    expect(looksLikeTv(agent, screenWith(WIDE))).toBe(false);
    expect(looksLikeTv(agent, screenWith(NO_POINTER, WIDE, HOVER))).toBe(false);
    expect(looksLikeTv(agent, screenWith(NO_POINTER))).toBe(false);
  });

  it('asks the browser’s matchMedia by default', () => {
    const tvScreen = screenWith(NO_POINTER, WIDE);
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: tvScreen(query), media: query }));
    expect(looksLikeTv(agent)).toBe(true);
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: desktop(query), media: query }));
    expect(looksLikeTv(agent)).toBe(false);
  });

  it('with no matchMedia (an old engine) only the user agent counts', () => {
    vi.stubGlobal('matchMedia', undefined);
    expect(looksLikeTv(agent)).toBe(false);
    expect(looksLikeTv(AGENTS.tizen)).toBe(true);
  });
});

describe('the TV mode setting', () => {
  beforeEach(async () => {
    setAppStorage(memoryStorage());
    await initStores();
  });
  afterEach(() => delete document.documentElement.dataset.tv);

  it('On and Off win over the browser; Automatic follows it', () => {
    expect(tvModeFor('on', AGENTS.desktopChrome)).toBe(true);
    expect(tvModeFor('off', AGENTS.tizen)).toBe(false);
    expect(tvModeFor('auto', AGENTS.tizen)).toBe(true);
    expect(tvModeFor('auto', AGENTS.desktopChrome)).toBe(false);
  });

  it('is Automatic on a new device; the setting the app hands down is what key handlers read', () => {
    expect(usePreferencesStore.getState().tvMode).toBe('auto');
    const { rerender } = renderHook(({ setting }) => useTvModeDocument(setting), {
      initialProps: { setting: usePreferencesStore.getState().tvMode },
    });
    // jsdom's user agent is no TV's.
    expect(isTvMode()).toBe(false);
    rerender({ setting: 'on' });
    expect(isTvMode()).toBe(true);
    rerender({ setting: 'auto' });
    expect(isTvMode()).toBe(false);
  });

  it('marks <html data-tv> while it is on, and unmarks it when it goes off', () => {
    const { result, rerender } = renderHook(({ setting }) => useTvModeDocument(setting), {
      initialProps: { setting: 'auto' as TvModeSetting },
    });
    expect(result.current).toBe(false);
    expect(document.documentElement.hasAttribute('data-tv')).toBe(false);
    rerender({ setting: 'on' });
    expect(result.current).toBe(true);
    expect(document.documentElement.hasAttribute('data-tv')).toBe(true);
    rerender({ setting: 'off' });
    expect(document.documentElement.hasAttribute('data-tv')).toBe(false);
  });

  it('a stored value that is none of the three reads as Automatic', () => {
    setAppStorage(
      memoryStorage({
        'marquee:preferences': JSON.stringify({ state: { tvMode: 'always' }, version: 1 }),
      }),
    );
    return initStores().then(() => expect(usePreferencesStore.getState().tvMode).toBe('auto'));
  });
});
