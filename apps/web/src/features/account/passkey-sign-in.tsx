import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { passkeyProblem, type PasskeyProblem } from '../../lib/account/passkey-problem.ts';
import { passkeysSupported, signInWithPasskey } from '../../lib/account/passkeys.ts';
import { FormError } from './auth-ui.tsx';

/**
 * Signing in with a passkey (decision 109), for a sign-in form: `deviceName()` names this device when the
 * button is pressed (the form's field may have changed since); `onStart` clears the form's own message;
 * `onSignedIn` goes on as the form's own sign-in does. `clear()` drops the last try's message when the
 * form is sent the other way.
 */
export function usePasskeySignIn({
  deviceName,
  onStart,
  onSignedIn,
}: {
  deviceName: () => string;
  onStart: () => void;
  onSignedIn: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<PasskeyProblem | null>(null);
  const start = async () => {
    onStart();
    setProblem(null);
    setBusy(true);
    try {
      await signInWithPasskey(deviceName());
      onSignedIn();
    } catch (err) {
      setProblem(await passkeyProblem(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, start, clear: () => setProblem(null) };
}

export type PasskeySignInState = ReturnType<typeof usePasskeySignIn>;

/**
 * The form's secondary way in: nothing where this browser has no passkeys. A closed passkey dialog is the
 * viewer's choice: said in a status line, not as an error.
 */
export function PasskeySignIn({ passkey, disabled }: { passkey: PasskeySignInState; disabled: boolean }) {
  const { t } = useTranslation(['auth', 'customer', 'errors']);
  if (!passkeysSupported()) return null;
  const { busy, problem } = passkey;
  return (
    <>
      {problem?.calm ? (
        <p role="status" className="text-sm text-fg-muted" data-testid="passkey-status">
          {t(problem.key)}
        </p>
      ) : (
        <FormError message={problem && t(problem.key)} />
      )}
      <Button variant="secondary" disabled={disabled || busy} onClick={() => void passkey.start()}>
        {busy ? t('customer.passkeys.waiting') : t('customer.passkeys.signIn')}
      </Button>
    </>
  );
}
