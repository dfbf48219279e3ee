import { createContext, useContext, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { MediaDetails, MediaSummary } from '@marquee/contract';

/**
 * Actions the app puts on titles (the bookmark toggle) without the features that show titles
 * (search, discover, title page) knowing the library feature: the app provides the renderers.
 */
export interface MediaActions {
  card?: (media: MediaSummary) => ReactNode;
  title?: (media: MediaDetails) => ReactNode;
  /**
   * Marks every aired episode of a show watched (its seasons read through `client`'s queries), as the
   * title page's "Mark whole show as watched" does; the cards' menu offers it.
   */
  markShow?: (show: MediaSummary, client: QueryClient) => Promise<void>;
}

const MediaActionsContext = createContext<MediaActions>({});
export const MediaActionsProvider = MediaActionsContext.Provider;
export const useMediaActions = () => useContext(MediaActionsContext);
