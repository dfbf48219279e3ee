import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Controller,
  useForm,
  type DefaultValues,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
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
import { OtherMethod, SwitchLink } from './auth-links.tsx';
import { AuthCard, DismissibleAlert, FormError, SecretInput, TextField } from './auth-ui.tsx';
import { Captcha, useCaptchaGate } from './captcha.tsx';
import { paths } from '../../lib/paths.ts';
import { useDefaultDeviceName } from '../../lib/use-default-device-name.ts';
import { PasskeySignIn, usePasskeySignIn } from './passkey-sign-in.tsx';

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

/** An email-account form: the fields' errors are shown (and focused) by `useFieldProblems`, not the form. */
function useCustomerForm<T extends FieldValues>(defaultValues: DefaultValues<T>, resolver: Resolver<T>) {
  return useForm<T>({
    defaultValues,
    resolver,
    shouldFocusError: false,
    // A field's error stays until that field changes (then it clears), and comes back only on submit.
    reValidateMode: 'onSubmit',
  });
}

/** One field of an email-account form, with its own error under it (cleared as soon as it changes). */
function CustomerField<T extends FieldValues>({
  form,
  name,
  secret = false,
  type,
  ...input
}: {
  form: UseFormReturn<T>;
  name: FieldPath<T>;
  id: string;
  label: string;
  autoComplete: string;
  hint?: string;
  type?: string;
  /** A password: hidden, with a show/hide toggle. */
  secret?: boolean;
}) {
  const { t } = useTranslation(['customer', 'errors']);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => {
        const props = {
          ...input,
          value: field.value as string,
          onChange: (v: string) => {
            field.onChange(v);
            form.clearErrors(field.name);
          },
          error: fieldState.error?.message && t(fieldState.error.message as CustomerErrorKey),
        };
        return secret ? <SecretInput {...props} /> : <TextField {...props} type={type} />;
      }}
    />
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
  const state = (useLocation().state ?? {}) as LoginState;
  const { form, problem, failedSignIns, submit, passkey } = useEmailLogin(state.email);
  if (failedSignIns > 0) return <FailedSignIns count={failedSignIns} />;
  const busy = form.formState.isSubmitting;
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
        <CustomerField
          form={form}
          name="email"
          id="login-email"
          type="email"
          label={t('customer.login.email')}
          autoComplete="email"
        />
        <CustomerField
          form={form}
          name="password"
          id="login-password"
          secret
          label={t('customer.login.password')}
          autoComplete="current-password"
        />
        <FormError message={problem && t(problem)} />
        <Button type="submit" disabled={busy || passkey.busy}>
          {busy ? t('customer.login.working') : t('customer.login.submit')}
        </Button>
        <PasskeySignIn passkey={passkey} disabled={busy} />
      </form>
      <SwitchLink
        text={t('customer.login.noAccount')}
        to={paths.register}
        label={t('customer.login.register')}
      />
      <p className="mt-4 text-center text-sm">
        <Link to={paths.codeSignIn} className="font-semibold text-fg-accent hover:underline">
          {t('customer.login.useCode')}
        </Link>
      </p>
      {otherMethod && <OtherMethod to={otherMethod} label={t('customer.login.usePassphrase')} />}
    </AuthCard>
  );
}

/** Where a sign-in goes next: `?next=` when it is a page of this site (the approval page), else home. */
function useNextPage(): string {
  const [params] = useSearchParams();
  const next = params.get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : paths.home;
}

/** The sign-in form's state; `failedSignIns` > 0 once signed in on an account others tried to open. */
function useEmailLogin(email: string | undefined) {
  const navigate = useNavigate();
  const next = useNextPage();
  const form = useCustomerForm<LoginFormValues>({ email: email ?? '', password: '' }, loginFormResolver);
  const { problem, setProblem, show } = useFieldProblems<LoginFormValues>('login');
  /** Wrong passwords tried on the account since its last sign-in: the owner reads this before going on. */
  const [failedSignIns, setFailedSignIns] = useState(0);
  const defaultDevice = useDefaultDeviceName();
  // A passkey sign-in tells no count of wrong passwords (signInWithPasskey): on to where a password goes.
  const passkey = usePasskeySignIn({
    deviceName: () => defaultDevice,
    onStart: () => setProblem(null),
    onSignedIn: () => void navigate(next),
  });
  const send = form.handleSubmit(async ({ email, password }) => {
    setProblem(null);
    try {
      const signedIn = await (await auth()).loginWithEmail(email, password);
      if (signedIn.failedSignIns > 0) return setFailedSignIns(signedIn.failedSignIns);
      void navigate(next);
    } catch (err) {
      // A 401 (wrong email or password) is shown with the fields, as a validation error.
      setProblem(errorKey(err));
    }
  }, show);
  // One message at a time: the password's answer (or the fields' errors) replaces the passkey's.
  const submit = (e: FormEvent) => {
    passkey.clear();
    return send(e);
  };
  return { form, problem, failedSignIns, submit, passkey };
}

/** Signed in, but others tried wrong passwords on the account: settings, or on to the app. */
function FailedSignIns({ count }: { count: number }) {
  const { t } = useTranslation(['customer']);
  const navigate = useNavigate();
  const notice = useRef<HTMLParagraphElement>(null);
  // The form is gone: focus moves to the notice, so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (count > 0) notice.current?.focus();
  }, [count]);
  return (
    <AuthCard title={t('customer.login.title')}>
      <p
        ref={notice}
        tabIndex={-1}
        role="alert"
        className="mb-6 rounded-lg bg-amber-900/40 px-3 py-2 text-sm text-amber-100"
        data-testid="failed-sign-ins"
      >
        {t('customer.login.failedSignIns', { count })}
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

/**
 * `/register` with full name, email, password, its confirmation and the captcha.
 * The confirmation is not sent; the server's refusal shows in a dismissible alert; success goes to /login.
 */
export function EmailRegisterForm({ otherMethod }: { otherMethod?: string | null }) {
  const { t } = useTranslation(['customer', 'errors']);
  usePageTitle(t('customer.register.title'));
  const { form, problem, alert, dismissAlert, onSubmit, busy, captcha } = useEmailRegister();
  return (
    <AuthCard title={t('customer.register.title')}>
      <p className="mb-6 text-sm text-fg-muted">{t('customer.register.description')}</p>
      <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
        <DismissibleAlert message={alert} onDismiss={dismissAlert} />
        <RegisterFields form={form} />
        {captcha.needed && (
          <Captcha
            key={captcha.round}
            provider={captcha.provider}
            siteKey={captcha.siteKey}
            {...captcha.props}
          />
        )}
        <FormError message={problem && t(problem)} />
        <Button type="submit" disabled={busy}>
          {busy ? t('customer.register.working') : t('customer.register.submit')}
        </Button>
      </form>
      <SwitchLink
        text={t('customer.register.haveAccount')}
        to={paths.login}
        label={t('customer.register.login')}
      />
      {otherMethod && <OtherMethod to={otherMethod} label={t('customer.register.usePassphrase')} />}
    </AuthCard>
  );
}

function RegisterFields({ form }: { form: UseFormReturn<RegisterFormValues> }) {
  const { t } = useTranslation(['customer']);
  return (
    <>
      <CustomerField
        form={form}
        name="fullname"
        id="register-fullname"
        label={t('customer.register.fullname')}
        autoComplete="name"
      />
      <CustomerField
        form={form}
        name="email"
        id="register-email"
        type="email"
        label={t('customer.register.email')}
        autoComplete="email"
      />
      <CustomerField
        form={form}
        name="password"
        id="register-password"
        secret
        label={t('customer.register.password')}
        hint={t('customer.register.passwordHint')}
        autoComplete="new-password"
      />
      <CustomerField
        form={form}
        name="confirm"
        id="register-confirm"
        secret
        label={t('customer.register.confirm')}
        autoComplete="new-password"
      />
    </>
  );
}

/** The registration form's state: its fields, the captcha gate, and the messages of the last attempt. */
function useEmailRegister() {
  const { t } = useTranslation(['customer', 'errors']);
  const navigate = useNavigate();
  const form = useCustomerForm<RegisterFormValues>(
    { fullname: '', email: '', password: '', confirm: '' },
    registerFormResolver,
  );
  const { problem, setProblem, show } = useFieldProblems<RegisterFormValues>('register');
  const [alert, setAlert] = useState<string | null>(null);
  // A captcha solution is good for one attempt: a refused registration gets a fresh one.
  const [captchaRound, setCaptchaRound] = useState(0);
  const config = runtimeConfig().captcha;
  const needsCaptcha = config.provider !== 'none';
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
  return {
    form,
    problem,
    alert,
    dismissAlert: () => setAlert(null),
    onSubmit: (e: FormEvent) => {
      setAlert(null);
      void submit(e);
    },
    busy: form.formState.isSubmitting || captcha.waiting,
    captcha: {
      needed: needsCaptcha,
      provider: config.provider,
      siteKey: config.siteKey,
      round: captchaRound,
      props: captcha.captchaProps,
    },
  };
}
