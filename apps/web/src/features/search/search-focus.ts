/**
 * Location state of a link that opens the home page's search with its field focused (the phone header's
 * search button): the field is where the user is going to type.
 */
export const FOCUS_SEARCH = { focusSearch: true } as const;

export const asksSearchFocus = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && 'focusSearch' in state && state.focusSearch === true;
