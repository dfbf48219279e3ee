export { BookmarkToggle } from './bookmark-toggle.tsx';
export { HomeLibrary } from './library-sections.tsx';
export { RejectedChanges } from './rejected-changes.tsx';
