import type { LibraryStoreData, StashedLibrary } from './library-store.ts';
import { noRemovals, type Removals } from './outbox.ts';

/**
 * Switching household profiles (decision 042): the library of the profile left is stashed on this
 * device, the one chosen comes out of the stash (or starts empty until restore fills it). The outbox is
 * left alone: every op names its profile, so pending changes of the profile left are still sent to it.
 * Pure; `lib/sync/profile-switch.ts` applies it to the store.
 */
export function switchLibrary(
  state: Pick<LibraryStoreData, 'bookmarks' | 'progress' | 'profile' | 'stash'> & {
    removals?: Removals;
    history?: LibraryStoreData['history'];
    ratings?: LibraryStoreData['ratings'];
    groupOrder?: string[];
  },
  to: string,
  leavingPrefs?: StashedLibrary['prefs'],
): {
  data: Pick<
    LibraryStoreData,
    'bookmarks' | 'progress' | 'history' | 'ratings' | 'removals' | 'groupOrder' | 'profile' | 'stash'
  >;
  prefs: StashedLibrary['prefs'] | undefined;
} | null {
  if (to === state.profile) return null;
  const { [to]: next, ...others } = state.stash;
  const left: StashedLibrary = {
    bookmarks: state.bookmarks,
    progress: state.progress,
    history: state.history ?? {},
    ratings: state.ratings ?? {},
    removals: state.removals ?? noRemovals(),
    groupOrder: state.groupOrder ?? [],
    ...(leavingPrefs ? { prefs: leavingPrefs } : {}),
  };
  return {
    data: {
      bookmarks: next?.bookmarks ?? {},
      progress: next?.progress ?? {},
      history: next?.history ?? {},
      // Stashed before ratings were kept: none known.
      ratings: next?.ratings ?? {},
      removals: next?.removals ?? noRemovals(),
      // Stashed before lists were kept: none known.
      groupOrder: next?.groupOrder ?? [],
      profile: to,
      stash: { ...others, [state.profile]: left },
    },
    prefs: next?.prefs,
  };
}

/** A deleted profile: its stash and its pending changes go (the server deleted its library). */
export function forgetProfile(
  state: Pick<LibraryStoreData, 'outbox' | 'stash'>,
  profile: string,
): Pick<LibraryStoreData, 'outbox' | 'stash'> {
  const { [profile]: _gone, ...stash } = state.stash;
  return { stash, outbox: state.outbox.filter((op) => (op.profile ?? '') !== profile) };
}
