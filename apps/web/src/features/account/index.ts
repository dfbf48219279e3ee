export { AccountMenu } from './account-menu.tsx';
export { ProfileLoadNotice, useProfileLoadFailure } from './profile-load-error.tsx';
