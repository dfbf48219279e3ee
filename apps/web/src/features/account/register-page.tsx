import { PatchSessionBody } from '../../lib/contract-schemas.ts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Controller, useForm, useWatch, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { COPY_CONFIRMATION_MS } from '../../lib/calendar.ts';
import { Avatar } from '../../components/avatar.tsx';
import { Button, ButtonLink } from '../../components/button.tsx';
import { FormField } from '../../components/form-field.tsx';
import { PageLoading } from '../../components/layout.tsx';
import { register as registerAccount } from '../../lib/account/auth.ts';
import { accountBaseUrl } from '../../lib/api/index.ts';
import { firstErrorKey, keyedZodResolver } from '../../lib/account/form-resolver.ts';
import { newPassphrase, normalizePassphrase } from '../../lib/account/passphrase.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { accountQueries } from '../../lib/api/queries/account.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { z } from '../../lib/zod.ts';
import { PROFILE_COLORS, type AccountProfile } from '../../stores/index.ts';
import { AuthCard, ColorPicker, FormError, IconPicker, SecretInput } from './auth-ui.tsx';
import { OtherMethod, SwitchLink } from './auth-links.tsx';
import { Captcha, useCaptchaGate } from './captcha.tsx';
import { EmailRegisterForm } from './email-forms.tsx';
import { authErrorKey, useAuthMethod } from './login-page.tsx';
import { paths } from '../../lib/paths.ts';

const STEPS = ['trust', 'passphrase', 'profile', 'verify'] as const;
type Step = (typeof STEPS)[number];
const STEP_TITLES = {
  trust: 'auth.trust.title',
  passphrase: 'auth.passphrase.title',
  profile: 'auth.profile.title',
  verify: 'auth.verify.title',
} as const satisfies Record<Step, string>;

interface RegisterValues {
  device: string;
  profile: AccountProfile;
  /** The passphrase as the user types it back. */
  typed: string;
}
type RegisterForm = UseFormReturn<RegisterValues>;

/** A device name as the contract allows it (not empty); the passphrase typed back (case and spaces aside). */
function registerResolver(passphrase: string) {
  const schema = z.looseObject({
    // The contract's rule for a device name, on the name as trimmed.
    device: z.string().trim().pipe(PatchSessionBody.shape.deviceName.unwrap()),
    typed: z.string().refine((typed) => normalizePassphrase(typed) === passphrase),
  });
  return keyedZodResolver(schema, ({ path, value }): (typeof REGISTER_ERROR_ORDER)[number] =>
    path === 'typed'
      ? 'auth.errors.noMatch'
      : typeof value === 'string' && value.trim()
        ? 'auth.errors.invalidData'
        : 'auth.errors.deviceName',
  ) as unknown as Resolver<RegisterValues>;
}
const REGISTER_ERROR_ORDER = [
  'auth.errors.noMatch',
  'auth.errors.deviceName',
  'auth.errors.invalidData',
] as const;

function serverHost(): string {
  const base = accountBaseUrl();
  try {
    return new URL(base || window.location.origin).host;
  } catch {
    return base;
  }
}

function TrustStep({ onTrust }: { onTrust: () => void }) {
  const { t } = useTranslation(['auth']);
  const meta = useQuery({
    ...accountQueries.meta(),
    retry: 1,
  });
  if (meta.isPending) return <PageLoading />;
  if (meta.isError) {
    return (
      <div className="flex flex-col gap-4">
        <FormError message={t('auth.trust.failed', { host: serverHost() })} />
        <ButtonLink to={paths.home} variant="secondary">
          {t('auth.trust.back')}
        </ButtonLink>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <p className="text-fg-muted">{t('auth.trust.text')}</p>
      <div className="rounded-lg bg-surface-1 p-4">
        <p className="text-lg font-bold text-fg" data-testid="trust-host">
          {serverHost()}
        </p>
        <p className="font-semibold text-fg">{meta.data.name}</p>
        {meta.data.description && <p className="text-sm text-fg-muted">{meta.data.description}</p>}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button onClick={onTrust}>{t('auth.trust.yes')}</Button>
        <ButtonLink to={paths.home} variant="secondary">
          {t('auth.trust.no')}
        </ButtonLink>
      </div>
    </div>
  );
}

function PassphraseStep({ passphrase, onNext }: { passphrase: string; onNext: () => void }) {
  const { t } = useTranslation(['auth']);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(passphrase);
      setCopied(true);
    } catch {
      // No clipboard (insecure context): the words stay selectable on screen.
    }
  };
  return (
    <div className="flex flex-col gap-4">
      <p className="text-fg-muted">{t('auth.passphrase.text')}</p>
      <ol className="grid grid-cols-3 gap-2 sm:grid-cols-4" data-testid="passphrase-words">
        {passphrase.split(' ').map((word, i) => (
          <li key={i} className="rounded-lg bg-surface-1 px-3 py-2 font-mono text-sm text-fg">
            <span className="me-1 text-fg-muted">{i + 1}.</span>
            <span data-testid="passphrase-word">{word}</span>
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => void copy()}>
          {copied ? t('auth.passphrase.copied') : t('auth.passphrase.copy')}
        </Button>
        <Button onClick={onNext}>{t('auth.next')}</Button>
      </div>
    </div>
  );
}

function ProfileStep({ form, onNext }: { form: RegisterForm; onNext: () => void }) {
  const { t } = useTranslation(['auth']);
  const [error, setError] = useState<string | null>(null);
  const profile = useWatch({ control: form.control, name: 'profile' });
  const deviceField = form.register('device');
  const setProfile = (p: AccountProfile) => form.setValue('profile', p, { shouldDirty: true });
  return (
    <form
      className="flex flex-col gap-5"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void form.trigger('device', { shouldFocus: true }).then((valid) => {
          const problem = firstErrorKey(form.formState.errors, REGISTER_ERROR_ORDER);
          if (!valid) return setError(t(problem ?? 'auth.errors.deviceName'));
          onNext();
        });
      }}
    >
      <div className="flex items-center gap-4">
        <Avatar {...profile} size={56} />
        <p className="text-sm text-fg-muted">{t('auth.profile.text')}</p>
      </div>
      <FormField
        id="register-device"
        label={t('auth.deviceName')}
        {...deviceField}
        placeholder={t('auth.deviceNamePlaceholder')}
        autoComplete="off"
      />
      <ColorPicker
        name="color-a"
        label={t('auth.profile.colorA')}
        value={profile.colorA}
        onChange={(colorA) => setProfile({ ...profile, colorA })}
      />
      <ColorPicker
        name="color-b"
        label={t('auth.profile.colorB')}
        value={profile.colorB}
        onChange={(colorB) => setProfile({ ...profile, colorB })}
      />
      <IconPicker value={profile.icon} onChange={(icon) => setProfile({ ...profile, icon })} />
      <FormError message={error} />
      <Button type="submit">{t('auth.next')}</Button>
    </form>
  );
}

/** `/register`: email and password, or a passphrase account, as the instance's variant and sign-in methods say. */
export function RegisterPage() {
  const { method, otherLink } = useAuthMethod();
  return method === 'email' ? (
    <EmailRegisterForm otherMethod={otherLink} />
  ) : (
    <PassphraseRegister otherMethod={otherLink} />
  );
}

/** Trust the server, note the passphrase, set up the profile, type the passphrase back. */
function PassphraseRegister({ otherMethod }: { otherMethod: string | null }) {
  const { t } = useTranslation(['auth', 'customer']);
  usePageTitle(t('auth.register.title'));
  const [step, setStep] = useState<Step>('trust');
  const [passphrase] = useState(newPassphrase);
  const registration = usePassphraseRegistration(passphrase);
  return (
    <AuthCard title={t(STEP_TITLES[step])} wide={step === 'passphrase'}>
      <p
        className="mb-4 text-xs font-semibold uppercase tracking-wider text-fg-accent"
        data-testid="register-step"
      >
        {t('auth.register.step', { current: STEPS.indexOf(step) + 1, total: STEPS.length })}
      </p>
      {step === 'trust' && <TrustStep onTrust={() => setStep('passphrase')} />}
      {step === 'passphrase' && <PassphraseStep passphrase={passphrase} onNext={() => setStep('profile')} />}
      {step === 'profile' && <ProfileStep form={registration.form} onNext={() => setStep('verify')} />}
      {step === 'verify' && <VerifyStep registration={registration} onBack={() => setStep('profile')} />}
      {step !== 'verify' && (
        <SwitchLink text={t('auth.register.haveAccount')} to={paths.login} label={t('auth.register.login')} />
      )}
      {otherMethod && step === 'trust' && (
        <OtherMethod to={otherMethod} label={t('customer.register.useEmail')} />
      )}
    </AuthCard>
  );
}

/**
 * The registration's form (device name, profile, the passphrase typed back, across the steps) and its
 * sending: once the captcha has a token, and with the error of the last attempt.
 */
function usePassphraseRegistration(passphrase: string) {
  const { t } = useTranslation(['auth']);
  const navigate = useNavigate();
  const config = runtimeConfig().captcha;
  const resolver = useMemo(() => registerResolver(passphrase), [passphrase]);
  const form = useForm<RegisterValues>({
    defaultValues: {
      device: '',
      profile: { colorA: PROFILE_COLORS[0], colorB: PROFILE_COLORS[0], icon: 'userGroup' },
      typed: '',
    },
    resolver,
    shouldFocusError: false,
  });
  const [error, setError] = useState<string | null>(null);
  const needsCaptcha = config.provider !== 'none';
  const captcha = useCaptchaGate(needsCaptcha);
  const captchaToken = captcha.token;
  const formRef = useRef<HTMLFormElement>(null);

  const send = form.handleSubmit(
    async ({ device, profile }) => {
      try {
        await registerAccount({
          passphrase,
          deviceName: device,
          profile,
          captchaToken: captchaToken ?? undefined,
        });
        void navigate(paths.home);
      } catch (err) {
        setError(t(authErrorKey(err)));
      }
    },
    (errors) => {
      const key = firstErrorKey(errors, REGISTER_ERROR_ORDER);
      setError(key && t(key));
      if (key === 'auth.errors.noMatch') document.getElementById('verify-passphrase')?.focus();
    },
  );
  const submit = (e: FormEvent) => {
    setError(null);
    // Pressed while the captcha still works: sent as soon as it is done.
    if (!captcha.ready(() => formRef.current?.requestSubmit())) {
      e.preventDefault();
      if (captcha.failed) setError(t('auth.errors.captcha'));
      return;
    }
    void send(e);
  };
  return {
    form,
    formRef,
    submit,
    error,
    busy: form.formState.isSubmitting || captcha.waiting,
    captcha: {
      needed: needsCaptcha,
      provider: config.provider,
      siteKey: config.siteKey,
      props: captcha.captchaProps,
    },
  };
}

/** The last step: the passphrase typed back (and the captcha), then the account is made. */
function VerifyStep({
  registration,
  onBack,
}: {
  registration: ReturnType<typeof usePassphraseRegistration>;
  onBack: () => void;
}) {
  const { t } = useTranslation(['auth']);
  const { form, formRef, submit, error, busy, captcha } = registration;
  return (
    <form ref={formRef} onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <p className="text-sm text-fg-muted">{t('auth.verify.text')}</p>
      <Controller
        control={form.control}
        name="typed"
        render={({ field }) => (
          <SecretInput
            id="verify-passphrase"
            oneLinePaste
            label={t('auth.login.passphrase')}
            value={field.value}
            onChange={field.onChange}
          />
        )}
      />
      {captcha.needed && <Captcha provider={captcha.provider} siteKey={captcha.siteKey} {...captcha.props} />}
      <FormError message={error} />
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={onBack}>
          {t('auth.back')}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? t('auth.register.working') : t('auth.register.submit')}
        </Button>
      </div>
    </form>
  );
}
