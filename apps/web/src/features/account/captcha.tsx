import { useCallback, useEffect, useState } from 'react';
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
}: {
  provider: CaptchaProvider;
  siteKey: string | null;
  onToken: (token: string | null) => void;
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
        if (live) setStatus(error?.unreachable ? 'unreachable' : 'failed');
      },
    );
    return () => {
      live = false;
    };
  }, [run, attempt, onToken, provider, turnstileEl]);

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
