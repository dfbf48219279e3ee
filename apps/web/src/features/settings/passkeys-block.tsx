import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SecretInput } from '../../components/secret-input.tsx';
import { passkeyProblem, type PasskeyProblem } from '../../lib/account/passkey-problem.ts';
import {
  addPasskey,
  listPasskeys,
  passkeysSupported,
  removePasskey,
  type PasskeyItem,
} from '../../lib/account/passkeys.ts';
import { isMissingNewerRoute } from '../../lib/api/index.ts';
import { accountQueries } from '../../lib/api/queries/account.ts';
import { dateTimeFormat } from '../../lib/intl.ts';
import { useDefaultDeviceName } from '../../lib/use-default-device-name.ts';
import { kidsLimitOf, type Account } from '../../stores/index.ts';

/** "Nov 30, 2026" in the viewer's language. */
const DAY: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };

/** The account's passkeys, names readable ('' where a passphrase account's does not open here). */
function usePasskeys(account: Account) {
  return useQuery({
    queryKey: accountQueries.passkeyKeys.ofUser(account.userId),
    queryFn: listPasskeys,
    // A server without passkeys answers the same every time: no second try.
    retry: (count, error) => count < 1 && !isMissingNewerRoute(error),
  });
}

type OwnNotice = 'removed' | 'added' | 'nameRequired' | 'passwordRequired' | 'wordsRequired';
/** What the last action said: a calm status line (done, or the passkey dialog closed), or an alert. */
interface Notice {
  key: PasskeyProblem['key'] | `customer.passkeys.${OwnNotice}`;
  calm: boolean;
}

function NoticeLine({ notice, testId }: { notice: Notice | null; testId: string }) {
  const { t } = useTranslation(['customer', 'errors', 'auth']);
  if (!notice) return null;
  if (!notice.calm) return <FormError message={t(notice.key)} />;
  return (
    <p role="status" className="text-sm text-fg-muted" data-testid={testId}>
      {t(notice.key)}
    </p>
  );
}

/**
 * Settings → Passkeys (decision 109), beside the devices: the account's passkeys, each removable after a
 * confirmation, and a form that adds one made on this device. Nothing in a kids' profile (its grown-ups
 * manage the account), nor where the account server has no passkeys (an older one of the family).
 */
export function PasskeysBlock({ account }: { account: Account }) {
  if (kidsLimitOf(account) !== null) return null;
  return <PasskeysOf account={account} />;
}

function PasskeysOf({ account }: { account: Account }) {
  const { t } = useTranslation(['customer']);
  const passkeys = usePasskeys(account);
  // Nothing until the server answers: a block that then vanishes (an older server) would only jump.
  if (passkeys.isPending || (passkeys.isError && isMissingNewerRoute(passkeys.error))) return null;
  const words = account.kind !== 'email';
  return (
    <div className="flex flex-col gap-3" data-testid="passkeys-block">
      <h3 id="passkeys-heading" className="text-sm font-semibold text-fg">
        {t('customer.passkeys.title')}
      </h3>
      <p className="text-sm text-fg-muted">
        {words ? t('customer.passkeys.textWords') : t('customer.passkeys.textEmail')}
      </p>
      <PasskeyList account={account} passkeys={passkeys} words={words} />
      {passkeysSupported() ? (
        <AddPasskeyForm account={account} words={words} />
      ) : (
        <p className="text-sm text-fg-muted" data-testid="passkeys-unsupported">
          {t('customer.passkeys.unsupported')}
        </p>
      )}
    </div>
  );
}

/** The passkeys with when each was added and last used; removing one asks first. */
function PasskeyList({
  account,
  passkeys,
  words,
}: {
  account: Account;
  passkeys: UseQueryResult<PasskeyItem[]>;
  words: boolean;
}) {
  const { t, i18n } = useTranslation(['customer', 'errors']);
  const client = useQueryClient();
  const [confirming, setConfirming] = useState<PasskeyItem | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [settled, setSettled] = useState(0);
  const messages = useRef<HTMLDivElement>(null);
  const remove = useMutation({
    mutationFn: (id: string) => removePasskey(id),
    onSuccess: () => setNotice({ key: 'customer.passkeys.removed', calm: true }),
    onError: async (e) => setNotice(await passkeyProblem(e)),
    // Already removed elsewhere (passkey_not_found) or not: the list says what is left.
    onSettled: async () => {
      setConfirming(null);
      setSettled((n) => n + 1);
      await client.invalidateQueries({ queryKey: accountQueries.passkeyKeys.ofUser(account.userId) });
    },
  });
  // The row whose Remove had the focus is gone: the focus goes to what happened, not to the page's start.
  useEffect(() => {
    if (settled) messages.current?.focus();
  }, [settled]);
  if (passkeys.isError)
    return (
      <p className="text-sm text-red-300" role="alert">
        {t('customer.passkeys.loadFailed')}
      </p>
    );
  const day = dateTimeFormat(i18n.language, DAY);
  const when = (iso: string) => day.format(new Date(iso));
  const list = passkeys.data ?? [];
  return (
    <>
      {list.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('customer.passkeys.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-labelledby="passkeys-heading" data-testid="passkey-list">
          {list.map((p) => (
            <PasskeyRow
              key={p.id}
              passkey={p}
              words={words}
              when={when}
              onRemove={() => {
                setNotice(null);
                setConfirming(p);
              }}
            />
          ))}
        </ul>
      )}
      <div ref={messages} tabIndex={-1} className="focus:outline-none">
        <NoticeLine notice={notice} testId="passkey-list-status" />
      </div>
      {confirming && (
        <RemoveDialog
          name={confirming.name || t('customer.passkeys.unnamed')}
          busy={remove.isPending}
          onConfirm={() => remove.mutate(confirming.id)}
          onClose={() => setConfirming(null)}
        />
      )}
    </>
  );
}

/** One passkey: its name (or a placeholder), when it was added and last used, and its Remove button. */
function PasskeyRow({
  passkey,
  words,
  when,
  onRemove,
}: {
  passkey: PasskeyItem;
  words: boolean;
  when: (iso: string) => string;
  onRemove: () => void;
}) {
  const { t } = useTranslation(['customer']);
  const name = passkey.name || t('customer.passkeys.unnamed');
  return (
    <li
      className="flex items-center justify-between gap-3 rounded-lg bg-surface-1 px-4 py-3"
      data-testid="passkey"
    >
      <span className="flex min-w-0 flex-col">
        <span className={`truncate ${passkey.name ? 'text-fg' : 'italic text-fg-muted'}`}>{name}</span>
        <span className="text-xs text-fg-muted">
          {t('customer.passkeys.addedOn', { date: when(passkey.createdAt) })}
        </span>
        <span className="text-xs text-fg-muted">
          {passkey.lastUsedAt
            ? t('customer.passkeys.lastUsed', { date: when(passkey.lastUsedAt) })
            : t('customer.passkeys.neverUsed')}
        </span>
        {/* Only a passphrase account's passkey can carry the account to a new device. */}
        {words && passkey.unlocksAccount && (
          <span className="text-xs text-fg-accent">{t('customer.passkeys.unlocks')}</span>
        )}
      </span>
      {/* Every row says "Remove": its accessible name says which passkey. */}
      <Button
        variant="ghost"
        className="shrink-0"
        aria-label={t('customer.passkeys.removeNamed', { name })}
        onClick={onRemove}
      >
        {t('customer.passkeys.remove')}
      </Button>
    </li>
  );
}

/** "Remove this passkey?": Cancel has the focus, so Enter on a reflex keeps the passkey. */
function RemoveDialog({
  name,
  busy,
  onConfirm,
  onClose,
}: {
  name: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(['customer']);
  return (
    <Dialog
      role="alertdialog"
      labelledBy="passkey-remove-title"
      onClose={onClose}
      data-testid="passkey-remove-dialog"
    >
      <h2 id="passkey-remove-title" className="text-xl font-bold text-fg">
        {t('customer.passkeys.removeTitle')}
      </h2>
      <p className="mt-2 text-fg-muted">{t('customer.passkeys.removeText', { name })}</p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose} data-autofocus>
          {t('customer.passkeys.cancel')}
        </Button>
        <Button className="bg-red-700 hover:bg-red-600" disabled={busy} onClick={onConfirm}>
          {t('customer.passkeys.remove')}
        </Button>
      </div>
    </Dialog>
  );
}

/**
 * A passkey made on this device: its name (this device's by default) and a fresh proof that the owner
 * adds it — the password, or a passphrase account's 12 words (they also give the seed the passkey keeps).
 */
function AddPasskeyForm({ account, words }: { account: Account; words: boolean }) {
  const { t } = useTranslation(['customer', 'errors', 'auth']);
  const client = useQueryClient();
  const device = useDefaultDeviceName();
  const [name, setName] = useState(device);
  const [secret, setSecret] = useState('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const add = useMutation({
    mutationFn: () => addPasskey({ name, secret }),
    onSuccess: async () => {
      setSecret('');
      setName(device);
      setNotice({ key: 'customer.passkeys.added', calm: true });
      await client.invalidateQueries({ queryKey: accountQueries.passkeyKeys.ofUser(account.userId) });
    },
    onError: async (e) => setNotice(await passkeyProblem(e)),
  });
  const refuse = (key: Notice['key'], field: string) => {
    setNotice({ key, calm: false });
    document.getElementById(field)?.focus();
  };
  return (
    <form
      className="flex flex-col gap-4 rounded-xl bg-surface-1 p-4"
      noValidate
      aria-labelledby="passkey-add-title"
      data-testid="passkey-add"
      onSubmit={(e) => {
        e.preventDefault();
        if (!name.trim()) return refuse('customer.passkeys.nameRequired', 'passkey-name');
        if (!secret.trim())
          return refuse(
            words ? 'customer.passkeys.wordsRequired' : 'customer.passkeys.passwordRequired',
            'passkey-secret',
          );
        setNotice(null);
        add.mutate();
      }}
    >
      <h4 id="passkey-add-title" className="font-semibold text-fg">
        {t('customer.passkeys.addTitle')}
      </h4>
      <FormField
        id="passkey-name"
        label={t('customer.passkeys.name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        autoComplete="off"
      />
      <SecretInput
        id="passkey-secret"
        label={words ? t('customer.passkeys.words') : t('customer.passkeys.password')}
        value={secret}
        onChange={setSecret}
        autoComplete={words ? 'off' : 'current-password'}
        {...(words ? { oneLinePaste: true } : {})}
      />
      <NoticeLine notice={notice} testId="passkey-add-status" />
      <div>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? t('customer.passkeys.waiting') : t('customer.passkeys.submit')}
        </Button>
      </div>
    </form>
  );
}
