export { ProfileLoadNotice, useProfileLoadFailure } from './profile-load-error.tsx';
