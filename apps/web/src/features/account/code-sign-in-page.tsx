import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { DEVICE_LINK_POLL_MS } from '@marquee/contract/values';
import type { DeviceLinkCreated, DeviceLinkPollResponse } from '@marquee/contract';
import { Button } from '../../components/button.tsx';
import { PageLoading } from '../../components/layout.tsx';
import { ApiError, errorKey } from '../../lib/api/index.ts';
import { deviceLinksApi } from '../../lib/api/device-links-api.ts';
import { keyFingerprint, newLinkKey, openSeed, type LinkKey } from '../../lib/account/seed-seal.ts';
import { paths } from '../../lib/paths.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAccountStore } from '../../stores/index.ts';
import { AuthCard, FormError } from './auth-ui.tsx';

const emailAuth = () => import('../../lib/account/email-auth.ts');
const passphraseAuth = () => import('../../lib/account/auth.ts');

/** A code asked for, with the one-time key its seed would be sealed to (passphrase accounts). */
type Asked = DeviceLinkCreated & { key: LinkKey | null };

/**
 * Asks for a code. Where passphrase accounts sign in, with a one-time X25519 key (decision 107): a
 * passphrase account that approves seals its seed to it.
 */
async function askForCode(): Promise<Asked> {
  const key = runtimeConfig().authMethods.includes('passphrase') ? newLinkKey() : null;
  const link = await deviceLinksApi.create({ token: null, body: key ? { publicKey: key.publicKey } : {} });
  return { ...link, key };
}

/** Signs in with what the approval brought: a session (email accounts) or the sealed seed (passphrase). */
async function signInWith(answer: DeviceLinkPollResponse, link: Asked): Promise<void> {
  if (answer.status === 'approved') return (await emailAuth()).signInWithSession(answer.auth);
  if (answer.status !== 'sealed' || !link.key) return;
  const seed = openSeed(answer.sealed, link.key, link.code);
  await (await passphraseAuth()).loginWithSeed(seed, link.device);
}

/** "123 456": easier to read out and to type. */
const spaced = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;

/**
 * `/login/code` (decision 105): this device shows a code and a QR code of the approval page; it asks every
 * 2 s whether a signed-in viewer let it in, and is signed in when they did. A code that expired offers a
 * new one.
 */
export function CodeSignInPage() {
  const { t, i18n } = useTranslation(['customer', 'errors']);
  usePageTitle(t('customer.codeSignIn.title'));
  const navigate = useNavigate();
  const signedIn = useAccountStore((s) => s.account !== null);
  const create = useMutation({ mutationFn: askForCode });
  const [signInError, setSignInError] = useState<unknown>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    create.mutate();
  }, [create]);
  const link = create.data;
  const status = useLinkStatus(link, async (answer) => {
    try {
      await signInWith(answer, link!);
      void navigate(paths.home, { replace: true });
    } catch (error) {
      setSignInError(error);
    }
  });

  if (signedIn && !status.approved) return <Navigate replace to={paths.home} />;
  if (create.isPending || (!link && !create.isError)) return <PageLoading />;
  const expired =
    status.error instanceof ApiError && ['link_expired', 'link_not_found'].includes(status.error.code);
  const time = link
    ? new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(new Date(link.expiresAt))
    : '';
  // The page the QR code opens, without its code (which is shown big below).
  const approvalPage = link ? link.linkUrl.split('?')[0]! : '';
  const emailFirst = runtimeConfig().authMethods[0] === 'email';

  return (
    <AuthCard title={t('customer.codeSignIn.title')}>
      {create.isError && (
        <div className="flex flex-col gap-4">
          <FormError message={t('customer.codeSignIn.failed')} />
          <Button onClick={() => create.mutate()}>{t('customer.codeSignIn.newCode')}</Button>
        </div>
      )}
      {link && !expired && (
        <div className="flex flex-col items-center gap-4 text-center" data-testid="code-sign-in">
          <p className="text-fg-muted">{t('customer.codeSignIn.instructions', { url: approvalPage })}</p>
          <p
            className="font-mono text-5xl font-bold tracking-widest text-fg"
            dir="ltr"
            data-testid="sign-in-code"
            aria-label={link.code.split('').join(' ')}
          >
            {spaced(link.code)}
          </p>
          <p className="text-sm text-fg-muted">{t('customer.codeSignIn.scan')}</p>
          <img
            src={link.qr}
            alt={t('customer.codeSignIn.qrAlt')}
            width={200}
            height={200}
            className="rounded-lg bg-white p-2"
          />
          <p className="text-sm text-fg-muted">{t('customer.codeSignIn.expires', { time })}</p>
          {link.key && (
            <p className="text-sm text-fg-muted" data-testid="code-key-check">
              {t('customer.codeSignIn.keyCheck', { fingerprint: keyFingerprint(link.key.publicKey) })}
            </p>
          )}
          <p role="status" className="text-sm text-fg-accent" data-testid="code-sign-in-status">
            {status.approved ? t('customer.codeSignIn.approved') : t('customer.codeSignIn.waiting')}
          </p>
          {status.error && !expired && <FormError message={t(errorKey(status.error))} />}
          {signInError !== null && <FormError message={t('customer.codeSignIn.signInFailed')} />}
        </div>
      )}
      {expired && (
        <div className="flex flex-col gap-4" data-testid="code-expired">
          <p role="alert" className="text-fg">
            {t('customer.codeSignIn.expired')}
          </p>
          <Button onClick={() => create.mutate()}>{t('customer.codeSignIn.newCode')}</Button>
        </div>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to={paths.login} className="font-semibold text-fg-accent hover:underline">
          {emailFirst ? t('customer.codeSignIn.usePassword') : t('customer.login.usePassphrase')}
        </Link>
      </p>
    </AuthCard>
  );
}

/** Asks whether `link` was approved, every 2 s until it is (then `onApproved`, once) or it ends. */
function useLinkStatus(
  link: DeviceLinkCreated | undefined,
  onApproved: (answer: Exclude<DeviceLinkPollResponse, { status: 'pending' }>) => Promise<void>,
) {
  const handled = useRef<string | null>(null);
  const query = useQuery({
    queryKey: ['device-link', link?.linkId],
    enabled: link !== undefined,
    queryFn: () =>
      deviceLinksApi.poll({
        token: null,
        params: { linkId: link!.linkId },
        body: { pollToken: link!.pollToken },
      }),
    refetchInterval: (q) =>
      q.state.data?.status === 'pending' && !q.state.error ? DEVICE_LINK_POLL_MS : false,
    // A lost connection is asked again at the next tick; an answer (expired) is final.
    retry: (count, error) => !(error instanceof ApiError && error.status > 0) && count < 30,
    retryDelay: DEVICE_LINK_POLL_MS,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
  const answer = query.data;
  useEffect(() => {
    if (!answer || answer.status === 'pending' || !link || handled.current === link.linkId) return;
    handled.current = link.linkId;
    void onApproved(answer);
  }, [answer, link, onApproved]);
  return { approved: answer !== undefined && answer.status !== 'pending', error: query.error };
}
