import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { PARTY_NAME_MAX } from '@marquee/contract/values';
import { ApiError, codeKey } from '../../../../lib/api/errors.ts';
import { partyApi } from '../../../../lib/api/party-api.ts';
import { paths } from '../../../../lib/paths.ts';
import { householdProfileName, useAccountStore } from '../../../../stores/index.ts';
import { playerStore } from '../../core/player-store.ts';
import type { PlayerMeta } from '../../core/types.ts';
import { beginSession, leaveParty, useParty } from '../../party/party-session.ts';
import { partyIdOf, partyTitleOf, PARTY_QUERY } from '../../party/use-party-sync.ts';
import { ROW, MenuCard, RowError } from './menu-parts.tsx';

/** The invite link of a party, on this instance. */
export const inviteLink = (partyId: string) => `${window.location.origin}${paths.party(partyId)}`;

/** The name a signed-in viewer has here: the profile in use, else the account's. */
export function useOwnName(): string {
  const account = useAccountStore((s) => s.account);
  return (householdProfileName(account) || account?.user?.fullname || '').slice(0, PARTY_NAME_MAX);
}

const FIELD =
  'min-h-11 w-full rounded-lg border border-white/20 bg-black/40 px-3 text-sm text-white placeholder:text-white/40 focus-visible:outline-2 focus-visible:outline-white';

/** Copies the invite link; says so. */
export function InviteLink({ partyId }: { partyId: string }) {
  const { t } = useTranslation(['player']);
  const [copied, setCopied] = useState(false);
  const id = useId();
  const link = inviteLink(partyId);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs text-white/70">
        {t('player.party.inviteLabel')}
      </label>
      <div className="flex gap-2">
        <input id={id} readOnly value={link} className={FIELD} data-testid="party-invite-link" dir="ltr" />
        <button
          type="button"
          className="min-h-11 shrink-0 rounded-lg bg-white px-3 text-sm font-semibold text-black hover:bg-white/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(link)
              .then(() => setCopied(true))
              .catch(() => setCopied(false))
          }
          data-testid="party-copy"
        >
          {copied ? t('player.party.copied') : t('player.party.copy')}
        </button>
      </div>
    </div>
  );
}

/** Starting a party: the viewer's name in it and who controls playback. */
function StartParty({ meta }: { meta: PlayerMeta }) {
  const { t } = useTranslation(['player', 'errors']);
  const ownName = useOwnName();
  const [name, setName] = useState(ownName);
  const [hostOnly, setHostOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const location = useLocation();
  const nameId = useId();
  const errorId = useId();
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      // The party starts where this player is, playing if it plays.
      const { time, isPaused } = playerStore.getState().playback;
      const joined = await partyApi.create({
        body: { title: partyTitleOf(meta), name: name.trim(), hostOnly, position: time, playing: !isPaused },
      });
      beginSession(joined.party.id, { memberId: joined.member.id, token: joined.member.token }, joined.party);
      const search = new URLSearchParams(location.search);
      search.set(PARTY_QUERY, joined.party.id);
      search.delete('r');
      void navigate({ pathname: location.pathname, search: `?${search}` }, { replace: true });
    } catch (e) {
      setError(t(codeKey(e instanceof ApiError ? e.code : null, e instanceof ApiError ? e.status : 400)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="flex flex-col gap-3 p-1"
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
    >
      <p className="text-sm text-white/80">{t('player.party.intro')}</p>
      <div className="flex flex-col gap-1">
        <label htmlFor={nameId} className="text-xs text-white/70">
          {t('player.party.yourName')}
        </label>
        <input
          id={nameId}
          className={FIELD}
          value={name}
          maxLength={PARTY_NAME_MAX}
          required
          autoComplete="nickname"
          onChange={(e) => setName(e.target.value)}
          aria-describedby={error ? errorId : undefined}
          data-testid="party-name"
        />
      </div>
      <label className={`${ROW} cursor-pointer`}>
        <input
          type="checkbox"
          className="h-5 w-5 accent-[var(--color-fg-accent)]"
          checked={hostOnly}
          onChange={(e) => setHostOnly(e.target.checked)}
          data-testid="party-host-only"
        />
        <span className="flex-1">{t('player.party.hostOnly')}</span>
      </label>
      {error && <RowError id={errorId} text={error} />}
      <button
        type="submit"
        disabled={busy || !name.trim()}
        className="min-h-11 rounded-lg bg-white px-4 text-sm font-semibold text-black hover:bg-white/90 disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        data-testid="party-start"
      >
        {t('player.party.start')}
      </button>
    </form>
  );
}

/**
 * `/party`: start a watch party for what plays (signed in), or — in one — its invite link and leaving it.
 */
export function PartyMenu({ back, meta }: { back(): void; meta: PlayerMeta }) {
  const { t } = useTranslation(['player']);
  const location = useLocation();
  const navigate = useNavigate();
  const signedIn = useAccountStore((s) => s.account !== null);
  const partyId = partyIdOf(location.search);
  const status = useParty((s) => s.status);
  const inParty = partyId !== null && status !== 'ended' && status !== 'left';
  const leave = async () => {
    await leaveParty();
    const search = new URLSearchParams(location.search);
    search.delete(PARTY_QUERY);
    search.delete('r');
    void navigate(
      { pathname: location.pathname, search: search.size ? `?${search}` : '' },
      { replace: true },
    );
  };
  return (
    <MenuCard
      title={t('player.party.title')}
      testId="party-menu"
      back={{ label: t('player.menu.back'), go: back }}
      parent={back}
      panel
    >
      {inParty ? (
        <div className="flex flex-col gap-3 p-1">
          <InviteLink partyId={partyId} />
          <button
            type="button"
            className="min-h-11 rounded-lg border border-white/30 px-4 text-sm font-semibold hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
            onClick={() => void leave()}
            data-testid="party-leave"
          >
            {t('player.party.leave')}
          </button>
        </div>
      ) : signedIn ? (
        <StartParty meta={meta} />
      ) : (
        <div className="flex flex-col gap-3 p-1">
          <p className="text-sm text-white/80">{t('player.party.signInToStart')}</p>
          <Link
            to={paths.login}
            className="inline-flex min-h-11 items-center justify-center rounded-lg bg-white px-4 text-sm font-semibold text-black"
          >
            {t('player.party.signIn')}
          </Link>
        </div>
      )}
    </MenuCard>
  );
}
