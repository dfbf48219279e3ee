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

type Proof = 'pin' | 'secret';
/** How the owner proves it is them besides the current PIN: an email account's password, a passphrase account's 12 words. */
type OwnerProof = 'password' | 'words';

const passphraseAuth = () => import('../../lib/account/auth.ts');

/** The body's proof: the current PIN, the password, or a fresh signed challenge of the 12 words (decision 108). */
async function proofBody(field: 'currentPin' | OwnerProof, value: string) {
  if (field !== 'words') return { [field]: value };
  const { proof } = await (await passphraseAuth()).proveWords(value);
  return { proof };
}

/**
 * "Profile lock" in the profile editor ('' = the account's own profile) (decision 104): set a PIN (with
 * the account's password, or a passphrase account's 12 words), change it or remove it (with the current
 * PIN, or the password or words when it is forgotten). A PIN set on the profile in use here opens it on
 * this device at once: the owner just proved who they are.
 */
export function ProfileLockSection({ profileId }: { profileId: string }) {
  const { t } = useTranslation(['customer', 'errors', 'auth']);
  // As the server last said (every answer of the customer API updates it).
  const hasPin = useAccountStore((s) => profileHasPin(s.account, profileId));
  const owner: OwnerProof = useAccountStore((s) => (s.account?.kind === 'email' ? 'password' : 'words'));
  const target = { id: profileId, hasPin };
  const [pin, setPin] = useState('');
  const [proofKind, setProofKind] = useState<Proof>(target.hasPin ? 'pin' : 'secret');
  const [proof, setProof] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const proofField = target.hasPin && proofKind === 'pin' ? 'currentPin' : owner;

  const save = useMutation({
    mutationFn: async (next: string | null) => {
      await setProfilePin({ profileId: target.id, pin: next, ...(await proofBody(proofField, proof)) });
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
    onError: async (e) => {
      const { AuthError } = await passphraseAuth();
      setError(e instanceof AuthError ? t(`auth.errors.${e.kind}`) : t(errorKey(e)));
    },
  });

  const submit = (next: string | null) => {
    setDone(null);
    if (next !== null && !isPin(next)) return setError(t('customer.profiles.lock.pinInvalid'));
    if (!proof.trim())
      return setError(
        target.hasPin
          ? t(
              owner === 'words'
                ? 'customer.profiles.lock.proofRequiredWords'
                : 'customer.profiles.lock.proofRequired',
            )
          : t(owner === 'words' ? 'customer.link.wordsRequired' : 'customer.profiles.lock.passwordRequired'),
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
        owner={owner}
        canSwitch={target.hasPin}
        value={proof}
        onChange={setProof}
        onSwitch={() => {
          setProof('');
          setProofKind(proofKind === 'pin' ? 'secret' : 'pin');
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

/** The owner's proof: the current PIN, or the account's password or 12 words (forgotten PIN, or none yet). */
function ProofField({
  kind,
  owner,
  canSwitch,
  value,
  onChange,
  onSwitch,
}: {
  kind: 'currentPin' | OwnerProof;
  owner: OwnerProof;
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
      ) : kind === 'words' ? (
        <SecretInput
          id="profile-lock-words"
          label={t('customer.link.words')}
          value={value}
          autoComplete="off"
          oneLinePaste
          onChange={onChange}
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
          {kind !== 'currentPin'
            ? t('customer.profiles.lock.usePin')
            : owner === 'words'
              ? t('customer.profiles.lock.useWords')
              : t('customer.profiles.lock.usePassword')}
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
