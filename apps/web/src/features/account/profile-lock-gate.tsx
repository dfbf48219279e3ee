import { useTranslation } from 'react-i18next';
import { openProfile, unlockOf } from '../../lib/account/profile-unlocks.ts';
import { useNavigate } from 'react-router';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { paths } from '../../lib/paths.ts';
import { useAccountStore } from '../../stores/index.ts';
import { PinPad, usePinCheck } from './pin-pad.tsx';

const restore = () => import('../../lib/sync/session.ts').then((m) => m.restore());

/**
 * Over every page while the profile in use is PIN-locked and not open on this device (decision 104): its
 * library, settings and playback wait for the PIN; "Switch profile" goes to "who's watching" (email
 * accounts). Modal: the page behind cannot be reached by pointer, keyboard or screen reader.
 */
export function ProfileLockGate({ profileId }: { profileId: string }) {
  const { t } = useTranslation(['customer', 'errors']);
  const navigate = useNavigate();
  const account = useAccountStore((s) => s.account);
  const name =
    profileId === ''
      ? account?.user?.fullname || t('customer.profiles.mainProfile')
      : (account?.user?.profiles.find((p) => p._id === profileId)?.fullname ?? '');
  const check = usePinCheck(profileId, (unlock) => {
    openProfile(profileId, unlockOf(unlock));
    // The library, held changes and live updates go on.
    void restore();
  });
  return (
    <Dialog
      labelledBy="pin-pad-title"
      // Nothing behind it is for this viewer until the PIN is entered: Esc does not close it.
      onClose={() => undefined}
      className="w-full max-w-sm"
      data-testid="profile-lock-gate"
    >
      <PinPad
        title={t('customer.profiles.pin.lockedTitle', { name })}
        description={t('customer.profiles.pin.lockedDescription')}
        onSubmit={check}
        actions={
          (account?.kind === 'email' || account?.user) && (
            <Button variant="secondary" onClick={() => void navigate(paths.profiles)}>
              {t('customer.profiles.pin.switchProfile')}
            </Button>
          )
        }
      />
    </Dialog>
  );
}
