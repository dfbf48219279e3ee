import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Avatar } from '../../components/avatar.tsx';
import { Button, ButtonLink } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { FormField } from '../../components/form-field.tsx';
import { api } from '../../lib/api/index.ts';
import { dateTimeFormat } from '../../lib/intl.ts';
import { accountQueries } from '../../lib/api/queries/account.ts';
import { logout } from '../../lib/sync/session.ts';
import { useAccountStore, type Account } from '../../stores/index.ts';
import { PasskeysBlock } from './passkeys-block.tsx';
import type { AccountDraft } from './save-settings.ts';
import { Section } from './settings-ui.tsx';
import { ColorSwatches, IconChoices } from '../../components/profile-pickers.tsx';

interface DeviceRow {
  id: string;
  name: string | null;
  current: boolean;
  /** When the device last used its session (epoch ms). */
  lastUsed: number;
}

/** "Nov 30, 2026, 9:15 PM" in the viewer's language. */
const LAST_USED: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** Sessions of the account, names decrypted; this device first, the others by their last use. */
function useDevices(account: Account) {
  return useQuery({
    queryKey: accountQueries.sessionKeys.list(account.userId, account.sessionId),
    queryFn: async ({ signal }): Promise<DeviceRow[]> => {
      const [sessions, { readDeviceName, accountDeviceKey }] = await Promise.all([
        api.account.userSessions({ params: { uid: account.userId }, signal }),
        import('../../lib/account/device-name.ts'),
      ]);
      // Email accounts name their devices in clear; passphrase accounts encrypt the name with their seed
      // (kept as a key in IndexedDB where the platform allows, decision 074).
      const key = account.kind === 'email' ? null : await accountDeviceKey(account);
      const rows = await Promise.all(
        sessions.map(async (s) => ({
          id: s.id,
          name: account.kind === 'email' ? s.device || null : await readDeviceName(s.device, key),
          current: s.id === account.sessionId,
          lastUsed: Date.parse(s.accessedAt),
        })),
      );
      // This device first, then the most recently used.
      return rows.sort((a, b) => (a.current !== b.current ? (a.current ? -1 : 1) : b.lastUsed - a.lastUsed));
    },
    retry: 1,
  });
}

export function DeviceList({ account }: { account: Account }) {
  const { t, i18n } = useTranslation(['global', 'settings']);
  const devices = useDevices(account);
  const client = useQueryClient();
  const settled = () =>
    client.invalidateQueries({ queryKey: accountQueries.sessionKeys.ofUser(account.userId) });
  const remove = useMutation({
    mutationFn: (sid: string) => api.account.deleteSession({ params: { sid } }),
    onSettled: settled,
  });
  // "Sign out everywhere else": a lost phone, a shared computer left signed in.
  const others = useMutation({
    mutationFn: () => api.account.deleteOtherSessions({ params: { uid: account.userId } }),
    onSettled: settled,
  });
  if (devices.isPending) return <p className="text-fg-muted">{t('global.loading')}</p>;
  if (devices.isError)
    return (
      <p className="text-red-300" role="alert">
        {t('settings.account.devices.failed')}
      </p>
    );
  const format = dateTimeFormat(i18n.language, LAST_USED);
  return (
    <div className="flex flex-col gap-3">
      {/* At most 18 rem high; the rest scrolls. */}
      <ul className="flex max-h-[18rem] flex-col gap-2 overflow-y-auto" data-testid="device-list">
        {devices.data.map((d) => (
          <li
            key={d.id}
            className="flex items-center justify-between gap-3 rounded-lg bg-surface-1 px-4 py-3"
            data-testid="device"
          >
            <span className="flex min-w-0 flex-col">
              <span className="truncate text-fg">{d.name ?? t('settings.account.devices.unknown')}</span>
              {!d.current && Number.isFinite(d.lastUsed) && (
                <span className="text-xs text-fg-muted" data-testid="device-last-used">
                  {t('settings.account.devices.lastUsed', { date: format.format(d.lastUsed) })}
                </span>
              )}
            </span>
            {d.current ? (
              <span className="shrink-0 text-xs font-semibold uppercase text-fg-accent">
                {t('settings.account.devices.current')}
              </span>
            ) : (
              <Button variant="ghost" disabled={remove.isPending} onClick={() => remove.mutate(d.id)}>
                {t('settings.account.devices.remove')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {devices.data.some((d) => !d.current) && (
        <div>
          <Button variant="secondary" disabled={others.isPending} onClick={() => others.mutate()}>
            {t('settings.account.devices.signOutOthers')}
          </Button>
        </div>
      )}
      {others.isSuccess && (
        <p className="text-sm text-fg-muted" role="status" data-testid="signed-out-others">
          {t('settings.account.devices.signedOutOthers')}
        </p>
      )}
      {others.isError && (
        <p className="text-sm text-red-300" role="alert">
          {t('global.generic')}
        </p>
      )}
    </div>
  );
}

export function DeleteAccount({ account }: { account: Account }) {
  const { t } = useTranslation(['global', 'settings']);
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const open = params.get('m') === 'delete-account';
  const [error, setError] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.account.deleteUser({ params: { uid: account.userId } }),
    onSuccess: async () => {
      await logout();
      void navigate('/');
    },
    onError: () => setError(true),
  });
  // Opening pushes `?m=delete-account` marked in its history state, so closing goes back to the entry before
  // it (the browser's Back closes the dialog too). A dialog reached by a direct link has no such entry in the
  // app: closing then drops `?m=` in place and never leaves the site.
  const close = () => {
    setError(false);
    if ((location.state as { dialog?: boolean } | null)?.dialog) void navigate(-1);
    else
      setParams(
        (p) => {
          p.delete('m');
          return p;
        },
        { replace: true },
      );
  };
  return (
    <>
      <Button
        variant="secondary"
        className="text-red-300"
        onClick={() =>
          setParams(
            (p) => {
              p.set('m', 'delete-account');
              return p;
            },
            { state: { dialog: true } },
          )
        }
      >
        {t('settings.account.delete.button')}
      </Button>
      {open && (
        <Dialog labelledBy="delete-title" onClose={close}>
          <h2 id="delete-title" className="text-xl font-bold text-fg">
            {t('settings.account.delete.title')}
          </h2>
          <p className="mt-2 text-fg-muted">{t('settings.account.delete.text')}</p>
          {error && (
            <p className="mt-3 text-red-300" role="alert">
              {t('global.generic')}
            </p>
          )}
          <div className="mt-6 flex justify-end gap-3">
            <Button variant="secondary" onClick={close} data-autofocus>
              {t('settings.cancel')}
            </Button>
            <Button
              className="bg-red-700 hover:bg-red-600"
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
            >
              {t('settings.account.delete.confirm')}
            </Button>
          </div>
        </Dialog>
      )}
    </>
  );
}

export function AccountSection({
  draft,
  setDraft,
}: {
  draft: AccountDraft | null;
  setDraft: (d: AccountDraft) => void;
}) {
  const { t } = useTranslation(['account', 'auth', 'navigation', 'settings']);
  const account = useAccountStore((s) => s.account);
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);

  if (!account || !draft) {
    return (
      <Section id="account" title={t('settings.account.title')}>
        <div className="rounded-xl bg-surface-1 p-5">
          <p className="font-semibold text-fg">{t('settings.account.register.title')}</p>
          <p className="mt-1 text-sm text-fg-muted">{t('settings.account.register.text')}</p>
          <div className="mt-4 flex flex-wrap gap-3">
            <ButtonLink to="/register">{t('settings.account.register.button')}</ButtonLink>
            <Link to="/login" className="self-center text-sm font-semibold text-fg-accent hover:underline">
              {t('navigation.signIn')}
            </Link>
          </div>
        </div>
      </Section>
    );
  }
  return (
    <Section id="account" title={t('settings.account.title')}>
      <div className="flex flex-col gap-6">
        <div className="flex flex-wrap items-center gap-4">
          <Avatar {...draft.profile} size={64} />
          <Button variant="secondary" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
            {t('settings.account.editProfile')}
          </Button>
        </div>
        {editing && (
          <div className="flex flex-col gap-4 rounded-xl bg-surface-1 p-4" data-testid="profile-editor">
            <ColorSwatches
              name="settings-color-a"
              label={t('auth.profile.colorA')}
              value={draft.profile.colorA}
              onChange={(colorA) => setDraft({ ...draft, profile: { ...draft.profile, colorA } })}
            />
            <ColorSwatches
              name="settings-color-b"
              label={t('auth.profile.colorB')}
              value={draft.profile.colorB}
              onChange={(colorB) => setDraft({ ...draft, profile: { ...draft.profile, colorB } })}
            />
            <IconChoices
              value={draft.profile.icon}
              onChange={(icon) => setDraft({ ...draft, profile: { ...draft.profile, icon } })}
            />
          </div>
        )}
        <FormField
          id="settings-device"
          label={t('auth.deviceName')}
          value={draft.deviceName}
          onChange={(e) => setDraft({ ...draft, deviceName: e.target.value })}
        />
        <div>
          <h3 className="mb-2 text-sm font-semibold text-fg">{t('settings.account.devices.title')}</h3>
          <DeviceList account={account} />
        </div>
        <PasskeysBlock account={account} />
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => void logout().then(() => navigate('/'))}>
            {t('account.menu.logout')}
          </Button>
          <DeleteAccount account={account} />
        </div>
      </div>
    </Section>
  );
}
