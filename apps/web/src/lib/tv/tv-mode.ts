import { useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

/**
 * TV mode (issue 30, decision 114): the 10-foot layout and remote-control navigation. Chosen by the
 * device's setting (`tvMode`: automatic, on, off; kept on the device, not synced: it is about the screen),
 * automatically on for TV browsers.
 */
export type TvModeSetting = 'auto' | 'on' | 'off';
export const TV_MODE_SETTINGS: readonly TvModeSetting[] = ['auto', 'on', 'off'];

/**
 * TV browsers by their user agents: Samsung (Tizen, SMART-TV), LG (webOS, NetCast), Hisense (VIDAA),
 * Panasonic (Viera), Philips, Sony (BRAVIA), Android and Google TV, Fire TV sticks (AFT…), Chromecast,
 * HbbTV sets, Titan OS and Roku.
 */
const TV_AGENT =
  /\b(SMART-?TV|SmartTV|Tizen|Web0S|webOS\.TV|NetCast|HbbTV|BRAVIA|VIDAA|Viera|PhilipsTV|GoogleTV|Android ?TV|AFT[A-Z]\w*|CrKey|TitanOS|Roku|DTV)\b/i;

/**
 * Whether this looks like a TV: its user agent, or a large screen with no pointer and no touch (a
 * browser on a stick or a console driven by a remote or a pad reports neither).
 */
export function looksLikeTv(
  userAgent: string,
  matches: (query: string) => boolean = (q) =>
    typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(q).matches,
): boolean {
  if (TV_AGENT.test(userAgent)) return true;
  return matches('(any-pointer: none)') && !matches('(any-hover: hover)') && matches('(min-width: 960px)');
}

const agent = () => (typeof navigator === 'undefined' ? '' : navigator.userAgent);

/** TV mode for a setting: on, off, or (automatic) whether this looks like a TV. */
export const tvModeFor = (setting: TvModeSetting, userAgent = agent()): boolean =>
  setting === 'on' || (setting === 'auto' && looksLikeTv(userAgent));

/**
 * The device's setting as the app last handed it down (app.tsx, from the preferences store: `lib` does
 * not read the stores, docs/architecture.md "Layers").
 */
const settingStore = createStore<{ setting: TvModeSetting }>()(() => ({ setting: 'auto' }));

/** Hands down the device's setting (what `useTvModeDocument` does for the app; tests call it). */
export const setTvModeSetting = (setting: TvModeSetting): void => settingStore.setState({ setting });

/** Whether TV mode is on now (read at the time: a key handler's question). */
export const isTvMode = (): boolean => tvModeFor(settingStore.getState().setting);

/** Whether TV mode is on, as a component sees it (changes with the setting). */
export function useTvMode(): boolean {
  return tvModeFor(useStore(settingStore, (s) => s.setting));
}

/**
 * Takes the device's setting (the app root passes the preferences store's) and marks the document
 * (`<html data-tv>`) while TV mode is on: the 10-foot styles (index.css) follow it.
 */
export function useTvModeDocument(setting: TvModeSetting): boolean {
  useEffect(() => setTvModeSetting(setting), [setting]);
  const on = tvModeFor(setting);
  useEffect(() => {
    const root = document.documentElement;
    if (on) root.dataset.tv = '';
    else delete root.dataset.tv;
  }, [on]);
  return on;
}
