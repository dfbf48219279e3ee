export { useProfileLoadFailure } from './profile-load-error.tsx';
export { useShutProfile } from './profile-shut.ts';
