import { viewerRegion as regionOf } from '@marquee/contract/values';

/** The viewer's country (the contract's rule, shared with the server): from the browser's languages. */
export function viewerRegion(
  languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages,
): string {
  return regionOf(languages);
}
