import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DEVICE_LINK_CODE_LENGTH } from '@marquee/contract/values';
import { Button, ButtonLink } from '../../components/button.tsx';
import { errorKey } from '../../lib/api/index.ts';
import { keyFingerprint, sealSeed } from '../../lib/account/seed-seal.ts';
import { deviceLinksApi } from '../../lib/api/device-links-api.ts';
import { paths } from '../../lib/paths.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAccountStore } from '../../stores/index.ts';
import { AuthCard, FormError, SecretInput, TextField } from './auth-ui.tsx';
import { asciiDigits } from './pin-pad.tsx';

interface Asking {
  code: string;
  device: string;
  createdAt: string;
  /** The new device's one-time key (what a passphrase account's seed is sealed to), or null. */
  publicKey: string | null;
}

const passphraseAuth = () => import('../../lib/account/auth.ts');

/**
 * `/link?code=…` (decision 105): a signed-in viewer lets another device into their account. The code
 * (typed, or from the QR code) names the device waiting; its name is shown so the viewer can tell it is
 * theirs; their password approves (a fresh sign-in here, so a device left signed in cannot let strangers
 * in). A passphrase account approves with its 12 words, and its seed goes to the new device sealed to
 * that device's key, whose check both devices show (decision 107). Signed out, the page asks to sign in
 * first and comes back.
 */
export function LinkPage() {
  const { t } = useTranslation(['customer', 'errors']);
  usePageTitle(t('customer.link.title'));
  const [params] = useSearchParams();
  const account = useAccountStore((s) => s.account);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [approved, setApproved] = useState<string | null>(null);

  if (!account) {
    const back = `${paths.link}${params.get('code') ? `?code=${params.get('code')}` : ''}`;
    return (
      <AuthCard title={t('customer.link.title')}>
        <p className="mb-6 text-fg-muted">{t('customer.link.signInFirst')}</p>
        <ButtonLink to={`${paths.login}?next=${encodeURIComponent(back)}`}>
          {t('customer.link.signIn')}
        </ButtonLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('customer.link.title')}>
      {approved !== null ? (
        <div className="flex flex-col gap-6" data-testid="link-approved">
          <p role="status" className="text-lg text-fg">
            {t('customer.link.approved', { device: approved })}
          </p>
          <ButtonLink to={paths.home}>{t('customer.link.done')}</ButtonLink>
        </div>
      ) : asking ? (
        <ApproveStep
          asking={asking}
          withWords={account.kind !== 'email'}
          onApproved={() => setApproved(asking.device)}
          onCancel={() => setAsking(null)}
        />
      ) : (
        <CodeStep initial={params.get('code') ?? ''} onFound={setAsking} />
      )}
    </AuthCard>
  );
}

/** The code: 6 digits (of any script, as ASCII); the server says which device waits with it. */
function CodeStep({ initial, onFound }: { initial: string; onFound: (asking: Asking) => void }) {
  const { t } = useTranslation(['customer', 'errors']);
  const [code, setCode] = useState(() => digits(initial));
  const [error, setError] = useState<string | null>(null);
  const lookUp = useMutation({
    mutationFn: () => deviceLinksApi.byCode({ params: { code } }),
    onSuccess: (info) =>
      onFound({ code, device: info.device, createdAt: info.createdAt, publicKey: info.publicKey ?? null }),
    onError: (e) => setError(t(errorKey(e))),
  });
  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      data-testid="link-code"
      onSubmit={(e) => {
        e.preventDefault();
        if (code.length !== DEVICE_LINK_CODE_LENGTH) return setError(t('customer.link.codeInvalid'));
        setError(null);
        lookUp.mutate();
      }}
    >
      <p className="text-fg-muted">{t('customer.link.description')}</p>
      <TextField
        id="link-code-field"
        label={t('customer.link.code')}
        value={code}
        onChange={(v) => setCode(digits(v))}
        autoComplete="one-time-code"
        inputMode="numeric"
      />
      <FormError message={error} />
      <Button type="submit" disabled={lookUp.isPending}>
        {t('customer.link.lookUp')}
      </Button>
    </form>
  );
}

/**
 * The device's name and when it asked; the account's password lets it in — or, for a passphrase account
 * (`withWords`), its 12 words: they prove it here and make the seed sealed to the device's key.
 */
function ApproveStep({
  asking,
  withWords,
  onApproved,
  onCancel,
}: {
  asking: Asking;
  withWords: boolean;
  onApproved: () => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation(['customer', 'errors', 'auth']);
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const approve = useMutation({
    mutationFn: async () => {
      if (!withWords)
        return deviceLinksApi.approve({ params: { code: asking.code }, body: { password: secret } });
      const { proveWords } = await passphraseAuth();
      const { seed, proof } = await proveWords(secret);
      const sealed = sealSeed(seed, asking.publicKey!, asking.code);
      return deviceLinksApi.approve({ params: { code: asking.code }, body: { proof, sealed } });
    },
    onSuccess: onApproved,
    onError: async (e) => {
      const { AuthError } = await passphraseAuth();
      setError(e instanceof AuthError ? t(`auth.errors.${e.kind}`) : t(errorKey(e)));
    },
  });
  const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(
    new Date(asking.createdAt),
  );
  const header = (
    <>
      <p className="text-lg font-semibold text-fg" data-testid="link-device">
        {t('customer.link.asking', { device: asking.device })}
      </p>
      <p className="text-sm text-fg-muted">{t('customer.link.askedAt', { time })}</p>
    </>
  );
  // A device from before decision 107 offered no key: a passphrase account cannot be sealed to it.
  if (withWords && !asking.publicKey)
    return (
      <div className="flex flex-col gap-4" data-testid="link-approve">
        {header}
        <p role="alert" className="text-fg">
          {t('customer.link.noKey')}
        </p>
        <Button variant="secondary" onClick={onCancel}>
          {t('customer.link.cancel')}
        </Button>
      </div>
    );
  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      data-testid="link-approve"
      onSubmit={(e) => {
        e.preventDefault();
        if (!secret.trim())
          return setError(t(withWords ? 'customer.link.wordsRequired' : 'customer.link.passwordRequired'));
        setError(null);
        approve.mutate();
      }}
    >
      {header}
      {withWords && (
        <p className="rounded-lg bg-surface-3 p-3 text-sm text-fg" data-testid="link-key-check">
          {t('customer.link.keyCheck', { fingerprint: keyFingerprint(asking.publicKey!) })}
        </p>
      )}
      <SecretInput
        id="link-password"
        label={withWords ? t('customer.link.words') : t('customer.link.password')}
        value={secret}
        onChange={setSecret}
        autoComplete={withWords ? 'off' : 'current-password'}
        {...(withWords ? { oneLinePaste: true } : {})}
      />
      {withWords && <p className="text-sm text-fg-muted">{t('customer.link.wordsHint')}</p>}
      <FormError message={error} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={approve.isPending}>
          {t('customer.link.approve')}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t('customer.link.cancel')}
        </Button>
      </div>
    </form>
  );
}

const digits = (text: string) =>
  asciiDigits(text)
    .replace(/[^0-9]/g, '')
    .slice(0, DEVICE_LINK_CODE_LENGTH);
