import { createContext, useContext, type ReactNode } from 'react';
import type { MediaDetails, MediaSummary } from '@marquee/contract';

/**
 * Actions the app puts on titles (the bookmark toggle) without the features that show titles
 * (search, discover, title page) knowing the library feature: the app provides the renderers.
 */
export interface MediaActions {
  card?: (media: MediaSummary) => ReactNode;
  title?: (media: MediaDetails) => ReactNode;
}

const MediaActionsContext = createContext<MediaActions>({});
export const MediaActionsProvider = MediaActionsContext.Provider;
export const useMediaActions = () => useContext(MediaActionsContext);
