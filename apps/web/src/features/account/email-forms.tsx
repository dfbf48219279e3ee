import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/button.tsx';
import {
  type CustomerErrorKey,
  CUSTOMER_ERROR_ORDER,
  customerErrorField,
  loginFormResolver,
  registerFormResolver,
  type LoginFormValues,
  type RegisterFormValues,
} from '../../lib/account/customer-forms.ts';
import { registerBody } from '../../lib/account/customer-rules.ts';
import { firstErrorKey } from '../../lib/account/form-resolver.ts';
import { errorKey, type ErrorKey } from '../../lib/api/index.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { AuthCard, DismissibleAlert, FormError, SecretInput, TextField } from './auth-ui.tsx';
import { Captcha, useCaptchaGate } from './captcha.tsx';
import { paths } from '../../lib/paths.ts';

const auth = () => import('../../lib/account/email-auth.ts');

/**
 * A form's messages: every field's own error shows under that field (all at once) and the focus moves to
 * the first; `problem` is what belongs to no field (the captcha, the server's answer).
 */
function useFieldProblems<T extends Record<string, unknown>>(prefix: string) {
  const [problem, setProblem] = useState<ErrorKey | 'customer.errors.captcha' | null>(null);
  const show = (errors: FieldErrors<T>) => {
    setProblem(null);
    const key = firstErrorKey(errors, CUSTOMER_ERROR_ORDER);
    if (key) document.getElementById(`${prefix}-${customerErrorField(key)}`)?.focus();
  };
  return { problem, setProblem, show };
}

/** Where the other sign-in method is offered, when the instance has both. */
function OtherMethod({ to, label }: { to: string; label: string }) {
  return (
    <p className="mt-4 text-center text-sm">
      <Link
        to={to}
        replace
        className="font-semibold text-fg-accent hover:underline"
        data-testid="other-method"
      >
        {label}
      </Link>
    </p>
  );
}

interface LoginState {
  registered?: boolean;
  email?: string;
}

/** `/login` with email and password: success stores the user and goes to /. */
export function EmailLoginForm({ otherMethod }: { otherMethod?: string | null }) {
  const { t } = useTranslation(['customer', 'errors']);
  usePageTitle(t('customer.login.title'));
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as LoginState;
  const form = useForm<LoginFormValues>({
    defaultValues: { email: state.email ?? '', password: '' },
    resolver: loginFormResolver,
    shouldFocusError: false,
    // A field's error stays until that field changes (then it clears), and comes back only on submit.
    reValidateMode: 'onSubmit',
  });
  const { problem, setProblem, show } = useFieldProblems<LoginFormValues>('login');
  /** Wrong passwords tried on the account since its last sign-in: the owner reads this before going on. */
  const [failedSignIns, setFailedSignIns] = useState(0);
  const failedNotice = useRef<HTMLParagraphElement>(null);
  // The form is gone: focus moves to the notice, so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (failedSignIns > 0) failedNotice.current?.focus();
  }, [failedSignIns]);

  const submit = form.handleSubmit(async ({ email, password }) => {
    setProblem(null);
    try {
      const signedIn = await (await auth()).loginWithEmail(email, password);
      if (signedIn.failedSignIns > 0) return setFailedSignIns(signedIn.failedSignIns);
      void navigate(paths.home);
    } catch (err) {
      // A 401 (wrong email or password) is shown with the fields, as a validation error.
      setProblem(errorKey(err));
    }
  }, show);
  const busy = form.formState.isSubmitting;

  if (failedSignIns > 0) {
    return (
      <AuthCard title={t('customer.login.title')}>
        <p
          ref={failedNotice}
          tabIndex={-1}
          role="alert"
          className="mb-6 rounded-lg bg-amber-900/40 px-3 py-2 text-sm text-amber-100"
          data-testid="failed-sign-ins"
        >
          {t('customer.login.failedSignIns', { count: failedSignIns })}
        </p>
        <div className="flex flex-wrap gap-3">
          <Button onClick={() => void navigate(paths.settings)}>{t('customer.login.openSettings')}</Button>
          <Button variant="secondary" onClick={() => void navigate(paths.home)}>
            {t('customer.login.continue')}
          </Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('customer.login.title')}>
      <p className="mb-6 text-sm text-fg-muted">{t('customer.login.description')}</p>
      {state.registered && (
        <p
          role="status"
          className="mb-4 rounded-lg bg-green-900/40 px-3 py-2 text-sm text-green-200"
          data-testid="registered-notice"
        >
          {t('customer.login.registered')}
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" noValidate>
        <Controller
          control={form.control}
          name="email"
          render={({ field, fieldState }) => (
            <TextField
              id="login-email"
              type="email"
              label={t('customer.login.email')}
              value={field.value}
              onChange={(v) => {
                field.onChange(v);
                form.clearErrors(field.name);
              }}
              error={fieldState.error?.message && t(fieldState.error.message as CustomerErrorKey)}
              autoComplete="email"
            />
          )}
        />
        <Controller
          control={form.control}
          name="password"
          render={({ field, fieldState }) => (
            <SecretInput
              id="login-password"
              label={t('customer.login.password')}
              value={field.value}
              onChange={(v) => {
                field.onChange(v);
                form.clearErrors(field.name);
              }}
              error={fieldState.error?.message && t(fieldState.error.message as CustomerErrorKey)}
              autoComplete="current-password"
            />
          )}
        />
        <FormError message={problem && t(problem)} />
        <Button type="submit" disabled={busy}>
          {busy ? t('customer.login.working') : t('customer.login.submit')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-fg-muted">
        {t('customer.login.noAccount')}{' '}
        <Link to={paths.register} className="font-semibold text-fg-accent hover:underline">
          {t('customer.login.register')}
        </Link>
      </p>
      {otherMethod && <OtherMethod to={otherMethod} label={t('customer.login.usePassphrase')} />}
    </AuthCard>
  );
}

/**
 * `/register` with full name, email, password, its confirmation and the captcha.
 * The confirmation is not sent; the server's refusal shows in a dismissible alert; success goes to /login.
 */
export function EmailRegisterForm({ otherMethod }: { otherMethod?: string | null }) {
  const { t } = useTranslation(['customer', 'errors']);
  usePageTitle(t('customer.register.title'));
  const navigate = useNavigate();
  const config = runtimeConfig();
  const form = useForm<RegisterFormValues>({
    defaultValues: { fullname: '', email: '', password: '', confirm: '' },
    resolver: registerFormResolver,
    shouldFocusError: false,
    // A field's error stays until that field changes (then it clears), and comes back only on submit.
    reValidateMode: 'onSubmit',
  });
  const { problem, setProblem, show } = useFieldProblems<RegisterFormValues>('register');
  const [alert, setAlert] = useState<string | null>(null);
  // A captcha solution is good for one attempt: a refused registration gets a fresh one.
  const [captchaRound, setCaptchaRound] = useState(0);
  const needsCaptcha = config.captcha.provider !== 'none';
  const captcha = useCaptchaGate(needsCaptcha);
  const captchaToken = captcha.token;

  const submit = form.handleSubmit(
    async () => {
      // Pressed while the captcha still works: sent as soon as it is done.
      if (!captcha.ready(() => void submit()))
        return setProblem(captcha.failed ? 'customer.errors.captcha' : null);
      setProblem(null);
      const values = form.getValues();
      try {
        await (await auth()).registerWithEmail(registerBody(values, captchaToken));
        void navigate(paths.login, {
          state: { registered: true, email: values.email.trim() } satisfies LoginState,
        });
      } catch (err) {
        setAlert(t(errorKey(err)));
        if (needsCaptcha) setCaptchaRound((n) => n + 1);
      }
    },
    (errors) => {
      show(errors);
      // Every problem at once: a failed captcha too.
      if (captcha.failed && !captchaToken) setProblem('customer.errors.captcha');
    },
  );
  const busy = form.formState.isSubmitting || captcha.waiting;
  return (
    <AuthCard title={t('customer.register.title')}>
      <p className="mb-6 text-sm text-fg-muted">{t('customer.register.description')}</p>
      <form
        onSubmit={(e) => {
          setAlert(null);
          void submit(e);
        }}
        className="flex flex-col gap-4"
        noValidate
      >
        <DismissibleAlert message={alert} onDismiss={() => setAlert(null)} />
        <Controller
          control={form.control}
          name="fullname"
          render={({ field, fieldState }) => (
            <TextField
              id="register-fullname"
              label={t('customer.register.fullname')}
              value={field.value}
              onChange={(v) => {
                field.onChange(v);
                form.clearErrors(field.name);
              }}
              error={fieldState.error?.message && t(fieldState.error.message as CustomerErrorKey)}
              autoComplete="name"
            />
          )}
        />
        <Controller
          control={form.control}
          name="email"
          render={({ field, fieldState }) => (
            <TextField
              id="register-email"
              type="email"
              label={t('customer.register.email')}
              value={field.value}
              onChange={(v) => {
                field.onChange(v);
                form.clearErrors(field.name);
              }}
              error={fieldState.error?.message && t(fieldState.error.message as CustomerErrorKey)}
              autoComplete="email"
            />
          )}
        />
        <Controller
          control={form.control}
          name="password"
          render={({ field, fieldState }) => (
            <SecretInput
              id="register-password"
              label={t('customer.register.password')}
              hint={t('customer.register.passwordHint')}
              value={field.value}
              onChange={(v) => {
                field.onChange(v);
                form.clearErrors(field.name);
              }}
              error={fieldState.error?.message && t(fieldState.error.message as CustomerErrorKey)}
              autoComplete="new-password"
            />
          )}
        />
        <Controller
          control={form.control}
          name="confirm"
          render={({ field, fieldState }) => (
            <SecretInput
              id="register-confirm"
              label={t('customer.register.confirm')}
              value={field.value}
              onChange={(v) => {
                field.onChange(v);
                form.clearErrors(field.name);
              }}
              error={fieldState.error?.message && t(fieldState.error.message as CustomerErrorKey)}
              autoComplete="new-password"
            />
          )}
        />
        {needsCaptcha && (
          <Captcha
            key={captchaRound}
            provider={config.captcha.provider}
            siteKey={config.captcha.siteKey}
            {...captcha.captchaProps}
          />
        )}
        <FormError message={problem && t(problem)} />
        <Button type="submit" disabled={busy}>
          {busy ? t('customer.register.working') : t('customer.register.submit')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-fg-muted">
        {t('customer.register.haveAccount')}{' '}
        <Link to={paths.login} className="font-semibold text-fg-accent hover:underline">
          {t('customer.register.login')}
        </Link>
      </p>
      {otherMethod && <OtherMethod to={otherMethod} label={t('customer.register.usePassphrase')} />}
    </AuthCard>
  );
}
