import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openProfile, unlockOf } from '../../lib/account/profile-unlocks.ts';
import { PROFILE_PIN_MAX_LENGTH } from '@marquee/contract/values';
import { Button } from '../../components/button.tsx';
import { setProfilePin, unlockProfile } from '../../lib/account/customer-api.ts';
import { errorKey } from '../../lib/api/index.ts';
import { profileHasPin, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import { FormError, SecretInput } from './auth-ui.tsx';
import { asciiDigits, isPin } from './pin-pad.tsx';

type Proof = 'pin' | 'password';

/**
 * "Profile lock" in the profile editor ('' = the account's own profile) (decision 104): set a PIN (with the account's password), change it
 * or remove it (with the current PIN, or the password when it is forgotten). A PIN set on the profile
 * in use here opens it on this device at once: the owner just proved who they are.
 */
export function ProfileLockSection({ profileId }: { profileId: string }) {
  const { t } = useTranslation(['customer', 'errors']);
  // As the server last said (every answer of the customer API updates it).
  const hasPin = useAccountStore((s) => profileHasPin(s.account, profileId));
  const target = { id: profileId, hasPin };
  const [pin, setPin] = useState('');
  const [proofKind, setProofKind] = useState<Proof>(target.hasPin ? 'pin' : 'password');
  const [proof, setProof] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const proofField = target.hasPin && proofKind === 'pin' ? 'currentPin' : 'password';

  const save = useMutation({
    mutationFn: async (next: string | null) => {
      await setProfilePin({ profileId: target.id, pin: next, [proofField]: proof });
      if (next !== null && useLibraryStore.getState().profile === target.id) {
        const unlock = await unlockProfile(target.id, next);
        openProfile(target.id, unlockOf(unlock));
      }
      return next;
    },
    onSuccess: (next) => {
      setPin('');
      setProof('');
      setProofKind('pin');
      setDone(next === null ? t('customer.profiles.lock.removed') : t('customer.profiles.lock.saved'));
    },
    onError: (e) => setError(t(errorKey(e))),
  });

  const submit = (next: string | null) => {
    setDone(null);
    if (next !== null && !isPin(next)) return setError(t('customer.profiles.lock.pinInvalid'));
    if (!proof)
      return setError(
        target.hasPin
          ? t('customer.profiles.lock.proofRequired')
          : t('customer.profiles.lock.passwordRequired'),
      );
    setError(null);
    save.mutate(next);
  };

  return (
    <form
      className="mx-auto flex w-full max-w-md flex-col gap-4 rounded-2xl bg-surface-2 p-6 text-start"
      noValidate
      data-testid="profile-lock"
      aria-labelledby="profile-lock-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit(pin);
      }}
    >
      <h2 id="profile-lock-title" className="text-lg font-bold text-fg">
        {t('customer.profiles.lock.title')}
      </h2>
      <p className="text-sm text-fg-muted" data-testid="profile-lock-state">
        {target.hasPin ? t('customer.profiles.lock.on') : t('customer.profiles.lock.off')}
      </p>
      <SecretInput
        id="profile-lock-new"
        label={t('customer.profiles.lock.newPin')}
        value={pin}
        autoComplete="new-password"
        onChange={(v) => setPin(pinDigits(v))}
      />
      <ProofField
        kind={proofField}
        canSwitch={target.hasPin}
        value={proof}
        onChange={setProof}
        onSwitch={() => {
          setProof('');
          setProofKind(proofKind === 'pin' ? 'password' : 'pin');
        }}
      />
      <FormError message={error} />
      {done && (
        <p role="status" className="text-sm text-fg-accent" data-testid="profile-lock-done">
          {done}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={save.isPending}>
          {target.hasPin ? t('customer.profiles.lock.change') : t('customer.profiles.lock.set')}
        </Button>
        {target.hasPin && (
          <Button variant="secondary" disabled={save.isPending} onClick={() => submit(null)}>
            {t('customer.profiles.lock.remove')}
          </Button>
        )}
      </div>
    </form>
  );
}

/** The owner's proof: the current PIN, or the account's password (forgotten PIN, or none yet). */
function ProofField({
  kind,
  canSwitch,
  value,
  onChange,
  onSwitch,
}: {
  kind: 'currentPin' | 'password';
  canSwitch: boolean;
  value: string;
  onChange: (value: string) => void;
  onSwitch: () => void;
}) {
  const { t } = useTranslation(['customer']);
  return (
    <>
      {kind === 'currentPin' ? (
        <SecretInput
          id="profile-lock-current"
          label={t('customer.profiles.lock.currentPin')}
          value={value}
          onChange={(v) => onChange(pinDigits(v))}
        />
      ) : (
        <SecretInput
          id="profile-lock-password"
          label={t('customer.profiles.lock.password')}
          value={value}
          autoComplete="current-password"
          onChange={onChange}
        />
      )}
      {canSwitch && (
        <button type="button" className="self-start text-sm text-fg-accent underline" onClick={onSwitch}>
          {kind === 'currentPin'
            ? t('customer.profiles.lock.usePassword')
            : t('customer.profiles.lock.usePin')}
        </button>
      )}
    </>
  );
}

/** What a PIN field keeps of what is typed: digits (of any script, as ASCII), at most six. */
const pinDigits = (text: string) =>
  asciiDigits(text)
    .replace(/[^0-9]/g, '')
    .slice(0, PROFILE_PIN_MAX_LENGTH);
