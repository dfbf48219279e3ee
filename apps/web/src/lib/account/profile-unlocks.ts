import { useAccountStore, type ProfileUnlock } from '../../stores/account-store.ts';

/*
 * This device's unlocks of PIN-locked profiles (decision 104), kept in the account store (`unlocks`). Only
 * the profile in use stays open: entering another ends the others' unlocks here.
 */

/** The PIN was entered here: `profileId` is open on this device, and no other profile stays open. */
export function openProfile(profileId: string, unlock: ProfileUnlock): void {
  useAccountStore.setState((s) =>
    s.account ? { account: { ...s.account, unlocks: { [profileId]: unlock } } } : {},
  );
}

/** Entering `profileId`: the unlocks of the other profiles end on this device. */
export function keepOnlyUnlock(profileId: string): void {
  useAccountStore.setState((s) => {
    if (!s.account?.unlocks) return {};
    const kept = s.account.unlocks[profileId];
    return { account: { ...s.account, unlocks: kept ? { [profileId]: kept } : {} } };
  });
}

/** An unlock as the server answered it. */
export const unlockOf = (answer: { token: string; expiresAt: string }): ProfileUnlock => ({
  token: answer.token,
  expiresAt: Date.parse(answer.expiresAt),
});
