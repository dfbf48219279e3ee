import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Avatar } from '../../components/avatar.tsx';
import { useMenuKeys } from '../../components/use-menu-keys.ts';
import { useDeviceName } from '../../lib/account/use-device-name.ts';
import { kidsLimitOf, useAccountStore } from '../../stores/index.ts';
import { paths } from '../../lib/paths.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';

const ITEM =
  'flex min-h-11 w-full items-center rounded-md px-3 py-2 text-start text-sm text-fg hover:bg-surface-3 focus-visible:bg-surface-3 focus-visible:outline-none';

/** The signed-in header's profile menu: Profile, Start a membership (where memberships are sold), Log out. */
export function AccountMenu() {
  const { t } = useTranslation(['account']);
  const account = useAccountStore((s) => s.account);
  const deviceName = useDeviceName(account);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const { triggerProps, menuProps } = useMenuKeys({ button: { open, setOpen } });
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!account) return null;
  // Who is watching (their profile); a passphrase account's own unnamed profile shows this device's name.
  const watching = account.profileId
    ? account.user?.profiles.find((p) => p._id === account.profileId)
    : undefined;
  const avatar = { ...account.profile, ...(watching ? { icon: watching.icon } : {}) };
  const name =
    account.kind === 'email'
      ? (watching?.fullname ?? account.user?.fullname)
      : watching?.fullname || account.user?.fullname || deviceName;
  // A kids' profile reaches its own preferences and "who's watching", nothing of the account (decision 106).
  const kids = kidsLimitOf(account) !== null;
  return (
    <div className="relative" ref={root}>
      <button
        type="button"
        {...triggerProps}
        onClick={() => setOpen(!open)}
        aria-label={t('account.menu.label')}
        // A 44 px target around the 36 px avatar.
        className="flex h-11 w-11 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        data-testid="account-menu-button"
      >
        <Avatar {...avatar} />
      </button>
      {open && (
        <div
          {...menuProps}
          className="absolute end-0 top-12 z-40 w-60 rounded-xl border border-white/10 bg-surface-2 p-2 shadow-2xl"
        >
          <div className="flex items-center gap-3 px-3 py-2">
            <Avatar {...avatar} size={32} />
            <span className="truncate text-sm font-semibold text-fg" data-testid="account-device-name">
              {name || t('account.menu.thisDevice')}
            </span>
          </div>
          <hr className="my-1 border-white/10" />
          <Link role="menuitem" to={paths.settings} className={ITEM}>
            {t('account.menu.profile')}
          </Link>
          {/* Only an instance with a payment gateway sells memberships (issue 15). */}
          {runtimeConfig().paymentGateway && !kids && (
            <Link role="menuitem" to={paths.subscription} className={ITEM}>
              {t('account.menu.membership')}
            </Link>
          )}
          {/* A passphrase account has profiles where its server keeps them (decision 108). */}
          {(account.kind === 'email' || account.user) && (
            <Link role="menuitem" to={paths.profiles} className={ITEM}>
              {t('account.menu.switchProfile')}
            </Link>
          )}
          {account.user?.isAdmin && !kids && (
            <>
              <Link role="menuitem" to={paths.admin} className={ITEM}>
                {t('account.menu.admin')}
              </Link>
              <Link role="menuitem" to={paths.promos} className={ITEM}>
                {t('account.menu.promos')}
              </Link>
            </>
          )}
          {!kids && (
            <button
              role="menuitem"
              type="button"
              className={ITEM}
              onClick={() => {
                setOpen(false);
                void import('../../lib/sync/session.ts')
                  .then((m) => m.logout())
                  .then(() => navigate(paths.home));
              }}
            >
              {t('account.menu.logout')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
