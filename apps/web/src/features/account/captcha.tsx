import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaptchaProvider } from '@marquee/contract';
import { Button } from '../../components/button.tsx';

declare global {
  interface Window {
    turnstile?: {
      render(
        el: HTMLElement,
        options: { sitekey: string; callback(token: string): void; 'error-callback'?(): void },
      ): string;
    };
    grecaptcha?: {
      ready(cb: () => void): void;
      execute(siteKey: string, options: { action: string }): Promise<string>;
    };
  }
}

type Status = 'working' | 'done' | 'failed' | 'unreachable';

const SCRIPTS = {
  turnstile: () => 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
  recaptcha: (key: string) => `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(key)}`,
};

function loadScript(src: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const el = document.createElement('script');
    const timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    el.src = src;
    el.async = true;
    el.onload = () => {
      clearTimeout(timer);
      resolve();
    };
    el.onerror = () => {
      clearTimeout(timer);
      reject(new Error('script failed to load'));
    };
    document.head.appendChild(el);
  });
}

/**
 * Human verification for registration. ALTCHA (default) is a proof of work solved here, no third
 * party involved; Turnstile and reCAPTCHA need their vendor's script, and when it cannot load (offline,
 * blocked) the user is told so instead of waiting forever.
 */
export function Captcha({
  provider,
  siteKey,
  onToken,
  onFailed,
}: {
  provider: CaptchaProvider;
  siteKey: string | null;
  /** null while it works (again), then the token. */
  onToken: (token: string | null) => void;
  /** It could not be solved (or its vendor reached): only a retry can give a token now. */
  onFailed?: () => void;
}) {
  const { t } = useTranslation(['auth']);
  const [status, setStatus] = useState<Status>('working');
  const [attempt, setAttempt] = useState(0);
  const [turnstileEl, setTurnstileEl] = useState<HTMLDivElement | null>(null);

  const run = useCallback(async (): Promise<string> => {
    if (provider === 'altcha') {
      const [{ fetchAltchaChallenge }, { solveAltchaChallenge }] = await Promise.all([
        import('../../lib/account/auth.ts'),
        import('../../lib/captcha/solve.ts'),
      ]);
      return solveAltchaChallenge(await fetchAltchaChallenge());
    }
    if (!siteKey) throw Object.assign(new Error('no site key'), { unreachable: true });
    if (provider === 'recaptcha') {
      await loadScript(SCRIPTS.recaptcha(siteKey)).catch((e: Error) =>
        Promise.reject(Object.assign(e, { unreachable: true })),
      );
      const g = window.grecaptcha!;
      await new Promise<void>((r) => g.ready(r));
      return g.execute(siteKey, { action: 'register' });
    }
    await loadScript(SCRIPTS.turnstile()).catch((e: Error) =>
      Promise.reject(Object.assign(e, { unreachable: true })),
    );
    return new Promise<string>((resolve, reject) => {
      if (!turnstileEl || !window.turnstile) return reject(new Error('turnstile not ready'));
      window.turnstile.render(turnstileEl, {
        sitekey: siteKey,
        callback: resolve,
        'error-callback': () => reject(new Error('turnstile failed')),
      });
    });
  }, [provider, siteKey, turnstileEl]);

  useEffect(() => {
    if (provider === 'turnstile' && !turnstileEl) return;
    let live = true;
    setStatus('working');
    onToken(null);
    run().then(
      (token) => {
        if (!live) return;
        setStatus('done');
        onToken(token);
      },
      (error: { unreachable?: boolean }) => {
        if (!live) return;
        setStatus(error?.unreachable ? 'unreachable' : 'failed');
        onFailed?.();
      },
    );
    return () => {
      live = false;
    };
  }, [run, attempt, onToken, onFailed, provider, turnstileEl]);

  return (
    <div
      className="rounded-lg border border-white/10 bg-surface-1 p-3 text-sm"
      data-testid="captcha"
      data-status={status}
    >
      {provider === 'turnstile' && <div ref={setTurnstileEl} />}
      {status === 'working' && (
        <p className="text-fg-muted" role="status">
          {t('auth.captcha.working')}
        </p>
      )}
      {status === 'done' && (
        <p className="text-fg" role="status">
          {t('auth.captcha.done')}
        </p>
      )}
      {status === 'failed' && (
        <div className="flex items-center justify-between gap-3" role="alert">
          <p className="text-red-300">{t('auth.captcha.failed')}</p>
          <Button variant="secondary" onClick={() => setAttempt((a) => a + 1)}>
            {t('auth.captcha.retry')}
          </Button>
        </div>
      )}
      {status === 'unreachable' && (
        <p className="text-red-300" role="alert">
          {t('auth.captcha.unreachable')}
        </p>
      )}
    </div>
  );
}

/**
 * A form whose submission needs a captcha token: pressed while the captcha is still working, the form
 * waits and is sent as soon as the token arrives (it used to say "Captcha validation failed", and keep
 * saying it after the captcha turned Verified). Only a captcha that failed is reported.
 */
export function useCaptchaGate(needsCaptcha: boolean) {
  const [token, setToken] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const pending = useRef<(() => void) | null>(null);
  const onToken = useCallback((next: string | null) => {
    setToken(next);
    if (next !== null) setFailed(false);
  }, []);
  const onFailed = useCallback(() => setFailed(true), []);
  useEffect(() => {
    if (!waiting || (!token && !failed)) return;
    setWaiting(false);
    const send = pending.current;
    pending.current = null;
    if (token) send?.();
  }, [waiting, token, failed]);
  return {
    token,
    /** The captcha failed: say so (a retry is offered by the captcha itself). */
    failed: needsCaptcha && failed,
    /** Waiting for the captcha to finish before sending. */
    waiting,
    captchaProps: { onToken, onFailed },
    /**
     * Whether `send` may go now. If the captcha is still working, `send` runs once it has a token
     * (false is returned); if it failed, false is returned and `failed` says so.
     */
    ready(send: () => void): boolean {
      if (!needsCaptcha || token) return true;
      if (!failed) {
        pending.current = send;
        setWaiting(true);
      }
      return false;
    },
  };
}
