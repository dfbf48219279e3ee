import { useSessionStatus } from '../../stores/session-status.ts';
import { startLiveWhenSignedIn } from './live-loader.ts';
import { createOutboxDelivery, createOutboxEngine } from './outbox-delivery.ts';
import { createProfileSwitch, forgetActiveProfile } from './profile-switch.ts';
import { createRestore } from './restore.ts';
import { createSignOut } from './sign-out.ts';
import { createStartSync } from './start-sync.ts';

/*
 * The sync session (docs/architecture.md, `src/lib/sync/`): one module per job, wired here. A job is
 * handed the engine, restore, sign-out or the delivery it uses rather than importing another job's
 * state: they call one another in a circle (the engine asks restore, restore signs out, sign-out stops
 * the engine), and each job can then be tested alone. The app imports this module; no job imports it.
 */

export { useSessionStatus };
export { ACCESS_TOKEN_KEY, PENDING_SIGN_OUTS_KEY } from './sign-out.ts';
export { changeSyncedSettings } from './settings-sync.ts';

const delivery = createOutboxDelivery();

// `restore` is declared below: the engine only calls it after a send, long after this module ran.
export const syncEngine = createOutboxEngine({
  deliver: delivery.deliver,
  onAuthError: () => void restore(),
});

const signOut = createSignOut({ stopSending: () => syncEngine.stop() });
export const logout = signOut.logout;
const sendPendingSignOuts = signOut.sendPendingSignOuts;

const restoring = createRestore({ engine: syncEngine, logout, forgetActiveProfile });
export const restore = restoring.restore;
export const pull = restoring.pull;

const profiles = createProfileSwitch({ restore });
export const chooseProfile = profiles.chooseProfile;
export const profileDeleted = profiles.profileDeleted;

// Only a sign-in imports, so its code is fetched then, not with the session every visit loads: the first
// view of / stays within its 150 KB of JavaScript (docs/decisions/003-contract-without-schemas-in-first-view.md).
export const importLocalData = async (): Promise<void> => {
  const { createLocalImport } = await import('./local-import.ts');
  await createLocalImport({ writeHeaders: delivery.writeHeaders })();
};

export const startSync = createStartSync({
  engine: syncEngine,
  delivery,
  restore,
  pull,
  lastPullAt: restoring.lastPullAt,
  sendPendingSignOuts,
  startLive: startLiveWhenSignedIn,
});
