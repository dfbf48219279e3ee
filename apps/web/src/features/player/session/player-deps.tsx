import { createContext, useContext, type ReactNode } from 'react';
import { autoSelectCaption, selectCaption, toggleCaptions } from '../captions/caption-actions.ts';
import { setUpCasting } from '../display/cast.ts';
import { testVolumeSupport } from '../display/display.ts';
import { generateThumbnails, loadSpriteThumbnails } from '../display/thumbnails.ts';
import { instanceProviders, runSession } from '../scrape/session.ts';
import { attachDisplay } from './attach-display.ts';
import { autoplayAllowed } from './autoplay-allowed.ts';

/**
 * What the player reaches outside the page through: the network, the `<video>`, Google's Cast script,
 * the device. Its hooks read them from context (a hook's own option, given in its unit test, wins), so
 * a test renders the real view inside a `PlayerDepsProvider` of fakes instead of replacing modules.
 */
export interface PlayerDeps {
  /** The play session: release check, metadata, scraping (scrape/session.ts). */
  runSession: typeof runSession;
  /** This instance's sources and embeds (names in the menus, the error report). */
  instanceProviders: typeof instanceProviders;
  /** Gives the `<video>` to the display; returns the teardown. */
  attachDisplay: typeof attachDisplay;
  /** Whether a page may set the volume here (iOS says no). */
  testVolumeSupport: typeof testVolumeSupport;
  setUpCasting: typeof setUpCasting;
  loadSpriteThumbnails: typeof loadSpriteThumbnails;
  generateThumbnails: typeof generateThumbnails;
  autoplayAllowed: typeof autoplayAllowed;
  /** Caption actions that download and parse. */
  selectCaption: typeof selectCaption;
  autoSelectCaption: typeof autoSelectCaption;
  toggleCaptions: typeof toggleCaptions;
}

export const defaultPlayerDeps: PlayerDeps = {
  runSession,
  instanceProviders,
  attachDisplay,
  testVolumeSupport,
  setUpCasting,
  loadSpriteThumbnails,
  generateThumbnails,
  autoplayAllowed,
  selectCaption,
  autoSelectCaption,
  toggleCaptions,
};

// The real implementations are the default: a view mounted without a provider behaves as in production.
const PlayerDepsContext = createContext<PlayerDeps>(defaultPlayerDeps);

export function PlayerDepsProvider({ value, children }: { value: PlayerDeps; children: ReactNode }) {
  return <PlayerDepsContext.Provider value={value}>{children}</PlayerDepsContext.Provider>;
}

export const usePlayerDeps = (): PlayerDeps => useContext(PlayerDepsContext);
