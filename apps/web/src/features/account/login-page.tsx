import { PatchSessionBody } from '../../lib/contract-schemas.ts';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { OtherMethod, SwitchLink } from './auth-links.tsx';
import { Button } from '../../components/button.tsx';
import { AuthError, login } from '../../lib/account/auth.ts';
import { firstErrorKey, keyedZodResolver } from '../../lib/account/form-resolver.ts';
import { isValidPassphrase, normalizePassphrase } from '../../lib/account/passphrase.ts';
import { z } from '../../lib/zod.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { authMethodOrder, chosenMethod } from './auth-methods.ts';
import { AuthCard, FormError, INPUT, SecretInput } from './auth-ui.tsx';
import { EmailLoginForm } from './email-forms.tsx';
import { paths } from '../../lib/paths.ts';
import { useDefaultDeviceName } from '../../lib/use-default-device-name.ts';
import { PasskeySignIn, usePasskeySignIn } from './passkey-sign-in.tsx';

/** The catalog key of a failed passphrase sign-in or registration. */
export function authErrorKey(error: unknown) {
  const kind = error instanceof AuthError ? error.kind : 'failed';
  return `auth.errors.${kind}` as const;
}

/** The sign-in methods of this instance, the one shown, and a link to the other (if enabled). */
export function useAuthMethod() {
  const [params] = useSearchParams();
  const order = authMethodOrder(runtimeConfig());
  const method = chosenMethod(order, params.get('method'));
  const other = order.find((m) => m !== method);
  return { method, otherLink: other ? `?method=${other}` : null };
}

/** `/login`: email and password, or the passphrase, as the instance's variant and sign-in methods say. */
export function LoginPage() {
  const { method, otherLink } = useAuthMethod();
  return method === 'email' ? (
    <EmailLoginForm otherMethod={otherLink} />
  ) : (
    <PassphraseLogin otherMethod={otherLink} />
  );
}

const PASSPHRASE_LOGIN_ERRORS = ['auth.errors.invalidPassphrase', 'auth.errors.deviceName'] as const;

/** The passphrase as typed (case and spaces aside) must be a valid one; the device needs a name. */
const passphraseLoginResolver = keyedZodResolver(
  z.object({
    passphrase: z.string().transform(normalizePassphrase).refine(isValidPassphrase),
    // The contract's rule for a device name, on the name as trimmed.
    device: z.string().trim().pipe(PatchSessionBody.shape.deviceName.unwrap()),
  }),
  ({ path }): (typeof PASSPHRASE_LOGIN_ERRORS)[number] =>
    path === 'passphrase' ? 'auth.errors.invalidPassphrase' : 'auth.errors.deviceName',
);

/** The 12-word passphrase and a name for this device. */
function PassphraseLogin({ otherMethod }: { otherMethod: string | null }) {
  const { t } = useTranslation(['auth', 'customer']);
  usePageTitle(t('auth.login.title'));
  const navigate = useNavigate();
  const form = useForm({ resolver: passphraseLoginResolver, defaultValues: { passphrase: '', device: '' } });
  const [error, setError] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;
  const deviceField = form.register('device');
  const defaultDevice = useDefaultDeviceName();
  // A passkey opens the account without the words: the device is named as typed, else by its browser.
  const passkey = usePasskeySignIn({
    deviceName: () => form.getValues('device').trim() || defaultDevice,
    onStart: () => setError(null),
    onSignedIn: () => void navigate(paths.home),
  });

  const submit = form.handleSubmit(
    async ({ passphrase, device }) => {
      setError(null);
      try {
        await login(passphrase, device);
        void navigate(paths.home);
      } catch (err) {
        setError(t(authErrorKey(err)));
      }
    },
    (errors) => {
      const key = firstErrorKey(errors, PASSPHRASE_LOGIN_ERRORS);
      setError(key && t(key));
      document
        .getElementById(key === 'auth.errors.deviceName' ? 'login-device' : 'login-passphrase')
        ?.focus();
    },
  );

  return (
    <AuthCard title={t('auth.login.title')}>
      <p className="mb-6 text-sm text-fg-muted">{t('auth.login.description')}</p>
      <form
        onSubmit={(e) => {
          // One message at a time: the words' answer replaces the passkey's.
          passkey.clear();
          void submit(e);
        }}
        className="flex flex-col gap-4"
        noValidate
      >
        <Controller
          control={form.control}
          name="passphrase"
          render={({ field }) => (
            <SecretInput
              id="login-passphrase"
              oneLinePaste
              label={t('auth.login.passphrase')}
              value={field.value}
              onChange={field.onChange}
            />
          )}
        />
        <div>
          <label htmlFor="login-device" className="mb-1 block text-sm font-semibold text-fg">
            {t('auth.deviceName')}
          </label>
          <input
            id="login-device"
            {...deviceField}
            placeholder={t('auth.deviceNamePlaceholder')}
            className={INPUT}
            autoComplete="off"
          />
        </div>
        <FormError message={error} />
        <Button type="submit" disabled={busy || passkey.busy}>
          {busy ? t('auth.login.working') : t('auth.login.submit')}
        </Button>
        <PasskeySignIn passkey={passkey} disabled={busy} />
      </form>
      <SwitchLink text={t('auth.login.noAccount')} to={paths.register} label={t('auth.login.register')} />
      {/* Another device that is signed in seals the account to this one (decision 107). */}
      <p className="mt-4 text-center text-sm">
        <Link to={paths.codeSignIn} className="font-semibold text-fg-accent hover:underline">
          {t('customer.login.useCode')}
        </Link>
      </p>
      {otherMethod && <OtherMethod to={otherMethod} label={t('customer.login.useEmail')} />}
    </AuthCard>
  );
}
