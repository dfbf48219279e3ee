export { AccountMenu } from './account-menu.tsx';
export { ProfileLoadErrorScreen, ProfileLoadNotice, useProfileLoadFailure } from './profile-load-error.tsx';
