import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepOnlyUnlock, openProfile, unlockOf } from '../../lib/account/profile-unlocks.ts';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { MAX_PROFILES } from '@marquee/contract/values';
import type { ContentLimit, CustomerUser, ProfileIcon, ProfileUnlockResponse } from '@marquee/contract';
import { Avatar } from '../../components/avatar.tsx';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { PageLoading } from '../../components/layout.tsx';
import { IconChoices } from '../../components/profile-pickers.tsx';
import {
  createProfile,
  deleteProfile,
  enterProfile,
  patchProfile,
  updateCustomer,
} from '../../lib/account/customer-api.ts';
import { useCustomer } from '../../lib/account/use-customer.ts';
import { ApiError, errorKey } from '../../lib/api/index.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { kidsLimitOf, liveUnlock, PROFILE_COLORS, useAccountStore } from '../../stores/index.ts';
import { FormError, TextField } from './auth-ui.tsx';
import { KidsLimitFields } from './kids-limit-fields.tsx';
import { PinPad, usePinCheck } from './pin-pad.tsx';
import { ProfileLockSection } from './profile-lock-section.tsx';
import { paths } from '../../lib/paths.ts';

const session = () => import('../../lib/sync/session.ts');

/**
 * Titles kept from before a kids' profile was entered or left were answered for another viewer: they go,
 * and the pages ask again (within the kid's limit, or not).
 */
function forgetTitles(queryClient: QueryClient): void {
  for (const queryKey of [['discover'], ['media'], ['search']]) queryClient.removeQueries({ queryKey });
}

/** One tile of the picker: the account's own profile ('' id) or a household profile. */
interface Tile {
  id: string;
  name: string;
  icon: string;
  owner: boolean;
  /** Locked with a PIN (decision 104). */
  hasPin: boolean;
  /** A kids' profile's limit (decision 106); null for the others. */
  kids: ContentLimit | null;
}

/**
 * `mainName`: what the account's own profile is called while it has no name (a passphrase account's);
 * `unnamed`: a household profile's whose name reads as '' (a passphrase account's that did not open here).
 */
function tilesOf(user: CustomerUser, mainName: string, unnamed: string): Tile[] {
  return [
    {
      id: '',
      name: user.fullname || mainName,
      icon: user.icon,
      owner: true,
      hasPin: user.hasPin === true,
      kids: null,
    },
    ...user.profiles.map((p) => ({
      id: p._id,
      name: p.fullname || unnamed,
      icon: p.icon,
      owner: false,
      hasPin: p.hasPin === true,
      kids: p.kids ?? null,
    })),
  ];
}

/** A tile being edited; a locked one with the unlock its PIN gave for the changes. */
type Editing = Tile & { unlockToken?: string };

const colorsOf = (index: number) => ({
  colorA: PROFILE_COLORS[index % PROFILE_COLORS.length]!,
  colorB: PROFILE_COLORS[(index + 2) % PROFILE_COLORS.length]!,
});

function ProfileEditor({
  tile,
  ownerHasPin,
  onDone,
}: {
  tile: Editing | null;
  ownerHasPin: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation(['customer', 'errors']);
  const [name, setName] = useState(tile?.name ?? '');
  const [icon, setIcon] = useState<string>(tile?.icon ?? 'cat');
  const [kids, setKids] = useState<ContentLimit | null>(tile?.kids ?? null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: async () => {
      const body = { fullname: name.trim(), icon: icon as ProfileIcon };
      if (!tile) await createProfile({ ...body, kids });
      else if (tile.owner) await updateCustomer(body);
      else await patchProfile(tile.id, { ...body, kids }, tile.unlockToken);
    },
    onSuccess: onDone,
    onError: (e) => setError(t(errorKey(e))),
  });
  const remove = useMutation({
    mutationFn: () => deleteProfile(tile!.id, tile!.unlockToken),
    onSuccess: onDone,
    // The error shows in the form, so the dialog closes.
    onError: (e) => {
      setConfirming(false);
      setError(t(errorKey(e)));
    },
  });
  return (
    <div className="flex flex-col gap-6">
      <form
        className="mx-auto flex w-full max-w-md flex-col gap-4 rounded-2xl bg-surface-2 p-6 text-start"
        noValidate
        data-testid="profile-editor"
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) return setError(t('customer.errors.fullnameRequired'));
          setError(null);
          save.mutate();
        }}
      >
        <h2 className="text-xl font-bold text-fg">
          {tile ? t('customer.profiles.editTitle') : t('customer.profiles.addTitle')}
        </h2>
        <TextField
          id="profile-name"
          label={t('customer.profiles.name')}
          value={name}
          onChange={setName}
          autoComplete="off"
        />
        <IconChoices value={icon} onChange={setIcon} name="profile-editor-icon" />
        {/* The account's own profile is its grown-up's: only household profiles are kids'. */}
        {!tile?.owner && <KidsLimitFields value={kids} onChange={setKids} ownerHasPin={ownerHasPin} />}
        <FormError message={error} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={save.isPending}>
            {t('customer.profiles.save')}
          </Button>
          <Button variant="secondary" onClick={onDone}>
            {t('customer.profiles.cancel')}
          </Button>
          {tile && !tile.owner && (
            <Button variant="ghost" className="ms-auto text-red-300" onClick={() => setConfirming(true)}>
              {t('customer.profiles.delete')}
            </Button>
          )}
        </div>
        {confirming && (
          <Dialog
            role="alertdialog"
            label={t('customer.profiles.delete')}
            onClose={() => setConfirming(false)}
            data-testid="profile-delete-dialog"
          >
            <p className="text-fg">{t('customer.profiles.deleteConfirm', { name: tile?.name })}</p>
            <div className="mt-6 flex justify-end gap-3">
              <Button variant="secondary" onClick={() => setConfirming(false)} data-autofocus>
                {t('customer.profiles.cancel')}
              </Button>
              <Button
                className="bg-red-700 hover:bg-red-600"
                disabled={remove.isPending}
                onClick={() => remove.mutate()}
              >
                {t('customer.profiles.deleteYes')}
              </Button>
            </div>
          </Dialog>
        )}
      </form>
      {tile && <ProfileLockSection profileId={tile.id} />}
    </div>
  );
}

/** One profile of "who's watching": its avatar (with its lock), its name, and what choosing it does. */
function ProfileTile({
  tile,
  index,
  managing,
  active,
  colors,
  onChoose,
}: {
  tile: Tile;
  index: number;
  managing: boolean;
  active: boolean;
  colors: { colorA: string; colorB: string };
  onChoose: () => void;
}) {
  const { t } = useTranslation(['customer']);
  return (
    <button
      type="button"
      onClick={onChoose}
      className="group flex w-28 flex-col items-center gap-3 rounded-xl p-2 focus-visible:outline-2 focus-visible:outline-accent sm:w-36"
      // The tile's name is what it shows (what a voice-control user says); what it does is its
      // description.
      aria-describedby={`profile-action-${index}`}
      data-testid="profile-tile"
    >
      <span id={`profile-action-${index}`} hidden>
        {managing
          ? t('customer.profiles.edit', { name: tile.name })
          : t('customer.profiles.choose', { name: tile.name })}
      </span>
      <span
        className={`relative rounded-full ring-offset-4 ring-offset-bg transition group-hover:ring-4 group-hover:ring-fg group-focus-visible:ring-4 group-focus-visible:ring-fg ${active ? 'ring-4 ring-accent' : ''}`}
      >
        <Avatar {...colors} icon={tile.icon} size={96} />
        {tile.hasPin && <LockBadge label={t('customer.profiles.locked')} />}
      </span>
      <span className="line-clamp-2 font-semibold text-fg" data-testid="profile-name">
        {tile.name}
      </span>
      {tile.owner && <span className="text-xs text-fg-muted">{t('customer.profiles.owner')}</span>}
      {tile.kids && (
        <span
          className="rounded-full bg-accent/20 px-2 py-0.5 text-xs font-semibold text-fg-accent"
          data-testid="profile-kids-badge"
        >
          {t('customer.profiles.kids.badge')}
        </span>
      )}
      {!tile.owner && active && (
        <span className="text-xs text-fg-accent">{t('customer.profiles.current')}</span>
      )}
    </button>
  );
}

/** The tile that adds a household profile. */
function AddTile({ onAdd }: { onAdd: () => void }) {
  const { t } = useTranslation(['customer']);
  return (
    <button
      type="button"
      onClick={onAdd}
      className="flex w-28 flex-col items-center gap-3 rounded-xl p-2 text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-accent sm:w-36"
      data-testid="profile-add"
    >
      <span
        className="flex h-24 w-24 items-center justify-center rounded-full border-2 border-dashed border-current text-4xl"
        aria-hidden="true"
      >
        +
      </span>
      <span className="font-semibold">{t('customer.profiles.add')}</span>
    </button>
  );
}

/** Asks for a locked profile's PIN. */
function PinDialog({
  tile,
  onUnlocked,
  onClose,
}: {
  tile: Tile;
  onUnlocked: (unlock: ProfileUnlockResponse) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(['customer']);
  const check = usePinCheck(tile.id, onUnlocked);
  return (
    <Dialog labelledBy="pin-pad-title" onClose={onClose} className="w-full max-w-sm" data-testid="pin-dialog">
      <PinPad
        title={t('customer.profiles.pin.title', { name: tile.name })}
        onSubmit={check}
        actions={
          <Button variant="secondary" onClick={onClose}>
            {t('customer.profiles.pin.cancel')}
          </Button>
        }
      />
    </Dialog>
  );
}

/** The lock on a PIN-locked profile's avatar; its name for screen readers says so. */
function LockBadge({ label }: { label: string }) {
  return (
    <span
      className="absolute -bottom-1 -end-1 flex h-8 w-8 items-center justify-center rounded-full bg-surface-3 text-fg ring-2 ring-bg"
      data-testid="profile-lock-badge"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor">
        <path d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5Zm-3 8V7a3 3 0 1 1 6 0v3H9Z" />
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/**
 * Tells the server which profile this device shows (decision 106): entering a kids' profile keeps the
 * device to the kid's limits there, and leaving one needs the next profile's PIN when it has one.
 * Answers null (entered), 'locked' (ask the PIN) or the error that stops it: offline, or on a server
 * from before kids' profiles, entering goes on (a kid's calls still name the kid's profile), but leaving
 * a kids' profile waits for the server's yes.
 */
async function enterOnServer(
  tile: Tile,
  unlockToken: string | undefined,
  leavingKids: boolean,
): Promise<unknown> {
  try {
    await enterProfile(tile.id, unlockToken);
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'profile_locked') return 'locked';
    return leavingKids ? error : null;
  }
}

/**
 * "Who's watching?": the account's own profile and its household profiles; choosing
 * one switches the library on this device. "Manage profiles" adds, renames, re-icons and deletes them.
 * Shown at / after a sign-in until a profile is chosen (a passphrase account: when it has household
 * profiles), and at /profiles to switch. Both account kinds (a passphrase account's names sealed,
 * decision 108).
 */
export function ProfilesPage() {
  const { t } = useTranslation(['customer', 'errors']);
  usePageTitle(t('customer.profiles.pageTitle'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const account = useAccountStore((s) => s.account);
  const customer = useCustomer();
  const user = customer.user;
  const [managing, setManaging] = useState(false);
  const [editing, setEditing] = useState<Editing | 'new' | null>(null);
  /** A locked tile whose PIN is asked for, and what the PIN is for. */
  const [asking, setAsking] = useState<{ tile: Tile; purpose: 'choose' | 'manage' } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const queryClient = useQueryClient();

  if (!account) return <Navigate replace to={paths.home} />;
  if (!user) {
    if (customer.isError) {
      return (
        <div className="flex flex-col items-center gap-4 py-16 text-center" role="alert">
          <p className="text-fg-muted">{t('customer.profiles.loadFailed')}</p>
          <Button onClick={customer.refetch}>{t('customer.profiles.retry')}</Button>
        </div>
      );
    }
    return <PageLoading />;
  }

  const tiles = tilesOf(user, t('customer.profiles.mainProfile'), t('customer.profiles.unnamed'));
  const active = account.profileId;
  const kidsNow = kidsLimitOf(account) !== null;
  const enter = async (tile: Tile, unlockToken = liveUnlock(account, tile.id)?.token) => {
    setFailure(null);
    const refusal = await enterOnServer(tile, unlockToken, kidsNow);
    if (refusal === 'locked') return setAsking({ tile, purpose: 'choose' });
    if (refusal) return setFailure(t(errorKey(refusal)));
    if (kidsNow || tile.kids) forgetTitles(queryClient);
    // Only the profile chosen stays open on this device: leaving a locked one locks it again.
    keepOnlyUnlock(tile.id);
    void session().then((m) => m.chooseProfile(tile.id));
    const next = params.get('next');
    void navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
  };
  const choose = (tile: Tile) => {
    // A locked profile asks for its PIN, unless it is the one open on this device now.
    const open = active === tile.id ? liveUnlock(account, tile.id) : null;
    if (tile.hasPin && !open) return setAsking({ tile, purpose: managing ? 'manage' : 'choose' });
    if (managing) return setEditing(open ? { ...tile, unlockToken: open.token } : tile);
    void enter(tile);
  };
  /** The PIN was right: the profile opens here, or (managing) its editor opens with the unlock. */
  const unlocked = (tile: Tile, purpose: 'choose' | 'manage', unlock: ProfileUnlockResponse) => {
    setAsking(null);
    if (purpose === 'manage') return setEditing({ ...tile, unlockToken: unlock.token });
    openProfile(tile.id, unlockOf(unlock));
    void enter(tile, unlock.token);
  };

  if (editing) {
    return (
      <div className="py-12">
        <ProfileEditor
          key={editing === 'new' ? 'new' : editing.id}
          tile={editing === 'new' ? null : editing}
          ownerHasPin={user.hasPin === true}
          onDone={() => setEditing(null)}
        />
      </div>
    );
  }

  return (
    <div className="flex flex-col items-center gap-10 py-12 text-center sm:py-20" data-testid="profiles-page">
      {asking && (
        <PinDialog
          tile={asking.tile}
          onUnlocked={(unlock) => unlocked(asking.tile, asking.purpose, unlock)}
          onClose={() => setAsking(null)}
        />
      )}
      <h1 className="text-3xl font-bold text-fg sm:text-5xl">
        {managing ? t('customer.profiles.manageTitle') : t('customer.profiles.title')}
      </h1>
      <FormError message={failure} />
      <ul className="flex flex-wrap justify-center gap-6 sm:gap-10">
        {tiles.map((tile, i) => (
          <li key={tile.id || 'owner'}>
            <ProfileTile
              tile={tile}
              index={i}
              managing={managing}
              active={active === tile.id}
              colors={tile.owner ? account.profile : colorsOf(i)}
              onChoose={() => choose(tile)}
            />
          </li>
        ))}
        {/* A kids' profile chooses who watches; managing profiles is the grown-ups' (decision 106). */}
        {user.profiles.length < MAX_PROFILES && !kidsNow && (
          <li>
            <AddTile onAdd={() => setEditing('new')} />
          </li>
        )}
      </ul>
      {user.profiles.length >= MAX_PROFILES && (
        <p className="text-sm text-fg-muted">{t('customer.profiles.limit', { count: MAX_PROFILES })}</p>
      )}
      {!kidsNow && (
        <Button variant="secondary" onClick={() => setManaging((m) => !m)} aria-pressed={managing}>
          {managing ? t('customer.profiles.done') : t('customer.profiles.manage')}
        </Button>
      )}
    </div>
  );
}
