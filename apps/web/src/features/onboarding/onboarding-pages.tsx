import { detect } from 'detect-browser';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Button, ButtonLink } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { extensionClient, type ExtensionState } from '../../lib/extension/messaging.ts';
import { instanceProviders } from '../../lib/instance-providers.ts';
import { testProxy, type ProxyTestResult } from '../../lib/proxy-entries.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { isSignedIn, useAccountStore, useOnboardingStore } from '../../stores/index.ts';
import { paths } from '../../lib/paths.ts';

/** Onboarding ends by going where the viewer wanted to go (`?redirect=`, same site only), else home. */
export function useCompleteOnboarding() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return () => {
    useOnboardingStore.getState().setCompleted(true);
    const redirect = params.get('redirect');
    navigate(redirect && redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/', {
      replace: true,
    });
  };
}

function Stepper({ current }: { current: 1 | 2 }) {
  const { t } = useTranslation(['onboarding']);
  return (
    <p
      className="text-sm font-semibold uppercase tracking-wider text-fg-accent"
      data-testid="onboarding-step"
    >
      {t('onboarding.step', { current, total: 2 })}
    </p>
  );
}

function Shell({
  step,
  title,
  text,
  children,
}: {
  step: 1 | 2;
  title: string;
  text: string;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <section className="mx-auto max-w-3xl py-10">
      <Stepper current={step} />
      <h1 className="mt-2 text-3xl font-bold text-fg">{title}</h1>
      <p className="mt-3 text-fg-muted">{text}</p>
      <div className="mt-8">{children}</div>
    </section>
  );
}

const CARD = 'flex flex-col gap-3 rounded-xl border border-white/10 bg-surface-2 p-6';

/** Step 1 of 2: extension or custom proxy; the default setup only when the instance has sources. */
export function OnboardingPage() {
  const { t } = useTranslation(['onboarding']);
  const { search, state } = useLocation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const complete = useCompleteOnboarding();
  const [hasSources, setHasSources] = useState(false);
  useEffect(() => {
    let live = true;
    void instanceProviders().then((all) => live && setHasSources(all.some((p) => p.type === 'source')));
    return () => {
      live = false;
    };
  }, []);
  const confirming = params.get('m') === 'default-setup';
  // Opened from the button: back to the entry before it. Opened by a direct link: drop `?m=` in place, so
  // Cancel never leaves the site.
  const closeConfirm = () => {
    if ((state as { dialog?: boolean } | null)?.dialog) void navigate(-1);
    else {
      const next = new URLSearchParams(params);
      next.delete('m');
      setParams(next, { replace: true });
    }
  };
  return (
    <Shell step={1} title={t('onboarding.start.title')} text={t('onboarding.start.text')}>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className={CARD}>
          <span className="w-fit rounded-full bg-accent/20 px-2 py-0.5 text-xs font-bold uppercase text-fg-accent">
            {t('onboarding.start.best')}
          </span>
          <h2 className="text-xl font-bold text-fg">{t('onboarding.start.extension.title')}</h2>
          <p className="flex-1 text-fg-muted">{t('onboarding.start.extension.text')}</p>
          <ButtonLink to={paths.onboardingExtension(search)} data-testid="choose-extension">
            {t('onboarding.start.extension.action')}
          </ButtonLink>
        </div>
        <div className={CARD}>
          <span className="w-fit rounded-full bg-white/10 px-2 py-0.5 text-xs font-bold uppercase text-fg-muted">
            {t('onboarding.start.good')}
          </span>
          <h2 className="text-xl font-bold text-fg">{t('onboarding.start.proxy.title')}</h2>
          <p className="flex-1 text-fg-muted">{t('onboarding.start.proxy.text')}</p>
          <ButtonLink to={paths.onboardingProxy(search)} variant="secondary" data-testid="choose-proxy">
            {t('onboarding.start.proxy.action')}
          </ButtonLink>
        </div>
      </div>
      {hasSources && (
        <p className="mt-8 text-sm text-fg-muted">
          {t('onboarding.start.defaultText')}{' '}
          <button
            type="button"
            className="font-semibold text-fg-accent underline"
            data-testid="use-default"
            onClick={() => {
              const next = new URLSearchParams(params);
              next.set('m', 'default-setup');
              setParams(next, { state: { dialog: true } });
            }}
          >
            {t('onboarding.start.defaultAction')}
          </button>
        </p>
      )}
      {confirming && (
        <Dialog labelledBy="default-setup-title" onClose={closeConfirm}>
          <div>
            <h2 id="default-setup-title" className="text-xl font-bold text-fg">
              {t('onboarding.defaultConfirm.title')}
            </h2>
            <p className="mt-3 text-fg-muted">{t('onboarding.defaultConfirm.text')}</p>
            <div className="mt-6 flex justify-end gap-3">
              <Button variant="secondary" onClick={closeConfirm}>
                {t('onboarding.defaultConfirm.cancel')}
              </Button>
              <Button onClick={complete} data-testid="confirm-default">
                {t('onboarding.defaultConfirm.confirm')}
              </Button>
            </div>
          </div>
        </Dialog>
      )}
    </Shell>
  );
}

export type BrowserKind = 'chrome' | 'firefox' | 'ios' | 'unknown';

/** Chrome, Chromium-based (Edge, Opera, webviews) → chrome; Firefox; anything on iOS → ios. */
export function browserKind(userAgent: string): BrowserKind {
  const info = detect(userAgent);
  if (!info) return 'unknown';
  if (info.os === 'iOS') return 'ios';
  if (info.name === 'firefox' || info.name === 'fxios') return 'firefox';
  if (['chrome', 'chromium-webview', 'edge-chromium', 'opera', 'crios', 'edge'].includes(info.name))
    return 'chrome';
  return 'unknown';
}

/** Extension status every second (decision 050). */
function useExtensionStatus(): { state: ExtensionState | 'loading'; checks: number } {
  const [state, setState] = useState<ExtensionState | 'loading'>('loading');
  const [checks, setChecks] = useState(0);
  const busy = useRef(false);
  useEffect(() => {
    let live = true;
    const check = async () => {
      if (busy.current) return;
      busy.current = true;
      const next = await extensionClient().state();
      busy.current = false;
      if (!live) return;
      setState(next);
      setChecks((n) => n + 1);
    };
    void check();
    const timer = setInterval(() => void check(), 1_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  return { state, checks };
}

const STATUS_TEXT = {
  loading: 'onboarding.extension.status.loading',
  unknown: 'onboarding.extension.status.notEnabled',
  failed: 'onboarding.extension.status.failed',
  outdated: 'onboarding.extension.status.outdated',
  disallowed: 'onboarding.extension.status.permission',
  noperms: 'onboarding.extension.status.permission',
  success: 'onboarding.extension.status.working',
} as const satisfies Record<ExtensionState | 'loading', string>;

/** Step 2 of 2 (extension): how to install it here, and its live status. */
export function OnboardingExtensionPage() {
  const { t } = useTranslation(['onboarding']);
  const { search } = useLocation();
  const complete = useCompleteOnboarding();
  const kind = browserKind(navigator.userAgent);
  const links = runtimeConfig().links;
  const { state, checks } = useExtensionStatus();
  const install =
    kind === 'firefox' ? links.firefoxExtension : kind === 'chrome' ? links.chromeExtension : null;
  return (
    <Shell step={2} title={t('onboarding.extension.title')} text={t(`onboarding.extension.browsers.${kind}`)}>
      <div className="flex flex-col gap-4" data-testid="extension-onboarding" data-browser={kind}>
        {install && (
          <a
            href={install}
            target="_blank"
            rel="noreferrer"
            className="w-fit rounded-lg bg-accent px-4 py-2 text-sm font-semibold text-white hover:bg-accent-strong"
          >
            {t('onboarding.extension.install')}
          </a>
        )}
        {(kind === 'firefox' || kind === 'unknown') && (
          <p className={`${CARD} text-fg-muted`}>{t('onboarding.extension.help')}</p>
        )}
        <div className={CARD} role="status" data-testid="extension-status" data-state={state}>
          <p className="text-sm font-semibold uppercase tracking-wide text-fg-muted">
            {t('onboarding.extension.statusTitle')}
          </p>
          <p className="text-lg font-bold text-fg">{t(STATUS_TEXT[state])}</p>
          {(state === 'disallowed' || state === 'noperms') && (
            <Button
              className="w-fit"
              onClick={() => void extensionClient().openPage('PermissionGrant', window.location.href)}
              data-testid="grant-permission"
            >
              {t('onboarding.extension.grant')}
            </Button>
          )}
          {state === 'success' && (
            <Button className="w-fit" onClick={complete} data-testid="extension-continue">
              {t('onboarding.continue')}
            </Button>
          )}
        </div>
        {state === 'unknown' && checks >= 5 && (
          <p className={`${CARD} text-fg-muted`} data-testid="extension-reload-hint">
            {t('onboarding.extension.notDetecting')}{' '}
            <button
              type="button"
              className="font-semibold text-fg-accent underline"
              onClick={() => window.location.reload()}
            >
              {t('onboarding.extension.reload')}
            </button>
          </p>
        )}
        <Link to={paths.onboarding(search)} className="text-sm text-fg-muted hover:text-fg">
          {t('onboarding.back')}
        </Link>
      </div>
    </Shell>
  );
}

const PROXY_ERRORS = {
  invalidUrl: 'onboarding.proxy.errors.invalidUrl',
  unreachable: 'onboarding.proxy.errors.unreachable',
  notProxy: 'onboarding.proxy.errors.notProxy',
} as const satisfies Record<Exclude<ProxyTestResult, 'ok'>, string>;

/** Step 2 of 2 (custom proxy): a URL, tested, then kept as the viewer's only proxy (and synced). */
export function OnboardingProxyPage() {
  const { t } = useTranslation(['onboarding']);
  const { search } = useLocation();
  const complete = useCompleteOnboarding();
  const install = runtimeConfig().links.proxyInstall;
  const [url, setUrl] = useState('');
  const [state, setState] = useState<'idle' | 'testing' | Exclude<ProxyTestResult, 'ok'>>('idle');
  const submit = async () => {
    setState('testing');
    const result = await testProxy(url.trim());
    if (result !== 'ok') {
      setState(result);
      return;
    }
    const list = [url.trim()];
    if (isSignedIn()) {
      const { changeSyncedSettings } = await import('../../lib/sync/session.ts');
      changeSyncedSettings({ proxyUrls: list });
    } else {
      useAccountStore.getState().setProxyUrls(list);
    }
    complete();
  };
  return (
    <Shell step={2} title={t('onboarding.proxy.title')} text={t('onboarding.proxy.text')}>
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {install && (
          <a
            href={install}
            target="_blank"
            rel="noreferrer"
            className="w-fit text-sm font-semibold text-fg-accent underline"
          >
            {t('onboarding.proxy.install')}
          </a>
        )}
        <label className="flex flex-col gap-2 text-sm font-semibold text-fg" htmlFor="proxy-url">
          {t('onboarding.proxy.label')}
        </label>
        <input
          id="proxy-url"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setState('idle');
          }}
          placeholder={t('onboarding.proxy.placeholder')}
          className="rounded-lg border border-white/10 bg-surface-2 px-3 py-2 text-fg"
          dir="ltr"
          data-testid="proxy-url"
        />
        {state !== 'idle' && state !== 'testing' && (
          <p className="text-sm text-red-400" role="alert" data-testid="proxy-error">
            {t(PROXY_ERRORS[state])}
          </p>
        )}
        <Button
          type="submit"
          className="w-fit"
          disabled={state === 'testing' || url.trim() === ''}
          data-testid="proxy-submit"
        >
          {state === 'testing' ? t('onboarding.proxy.testing') : t('onboarding.proxy.submit')}
        </Button>
        <Link to={paths.onboarding(search)} className="text-sm text-fg-muted hover:text-fg">
          {t('onboarding.back')}
        </Link>
      </form>
    </Shell>
  );
}
