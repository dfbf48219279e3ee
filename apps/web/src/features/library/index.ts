export { BookmarkToggle } from './bookmark-toggle.tsx';
export { RejectedChanges } from './rejected-changes.tsx';
