import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { PARTY_CHAT_MAX, PARTY_REACTIONS, partyHolding } from '@marquee/contract/values';
import { codeKey } from '../../../lib/api/errors.ts';
import { InviteLink } from '../ui/menus/party-menu.tsx';
import { leaveParty, serverNow, useParty, type PartySession } from './party-session.ts';
import { PARTY_QUERY } from './use-party-sync.ts';

const BUTTON =
  'min-h-11 rounded-lg px-3 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

/** Who the room waits for ("Waiting for Ana…"), while it holds; re-read as the hold ends. */
function useWaitingFor(): string[] {
  const view = useParty((s) => s.view);
  const [, setTick] = useState(0);
  const holding = view ? partyHolding(view.playback, serverNow()) : false;
  useEffect(() => {
    if (!view || !holding || view.playback.holdUntil === null) return;
    const timer = setTimeout(
      () => setTick((n) => n + 1),
      Math.max(0, view.playback.holdUntil - serverNow()) + 50,
    );
    return () => clearTimeout(timer);
  }, [view, holding]);
  if (!view || !holding) return [];
  return view.playback.waitingFor.map((id) => view.members.find((m) => m.id === id)?.name ?? '?');
}

function Members() {
  const { t } = useTranslation(['player']);
  const members = useParty((s) => s.view?.members ?? []);
  const me = useParty((s) => s.memberId);
  return (
    <ul
      className="flex flex-wrap gap-1"
      aria-label={t('player.party.members', { count: members.length })}
      data-testid="party-members"
    >
      {members.map((m) => (
        <li key={m.id} className="rounded-full bg-white/10 px-2 py-1 text-xs" data-testid="party-member">
          <bdi>{m.name}</bdi>
          {m.id === me && <span className="text-white/60"> · {t('player.party.you')}</span>}
          {m.host && <span className="text-white/60"> · {t('player.party.host')}</span>}
        </li>
      ))}
    </ul>
  );
}

/** The chat and the reactions, newest last; the log is read out politely as lines arrive. */
function Chat({ session }: { session: PartySession }) {
  const { t } = useTranslation(['player']);
  const chat = useParty((s) => s.chat);
  const reactions = useParty((s) => s.reactions);
  const [text, setText] = useState('');
  const log = useRef<HTMLOListElement>(null);
  const inputId = useId();
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [chat, reactions]);
  const send = async () => {
    const trimmed = text.trim();
    if (!trimmed) return;
    if (await session.say({ text: trimmed })) setText('');
  };
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <ol
        ref={log}
        role="log"
        aria-live="polite"
        aria-label={t('player.party.chat')}
        className="min-h-24 flex-1 overflow-y-auto rounded-lg bg-black/30 p-2 text-sm"
        data-testid="party-chat"
      >
        {chat.map((line) => (
          <li key={line.id} className="break-words py-0.5" data-testid="party-chat-line">
            <bdi className="font-semibold">{line.name}</bdi>: <bdi>{line.text}</bdi>
          </li>
        ))}
        {reactions.map((r) => (
          <li key={r.id} className="py-0.5" data-testid="party-reaction">
            <bdi className="font-semibold">{r.name}</bdi>{' '}
            <span aria-label={t('player.party.reacted')}>{r.reaction}</span>
          </li>
        ))}
      </ol>
      {/* 44 px targets: eight in a row where they fit (a phone), two rows beside the video. */}
      <div
        className="grid grid-cols-4 gap-0.5 min-[380px]:grid-cols-8 lg:grid-cols-4"
        role="group"
        aria-label={t('player.party.reactions')}
      >
        {PARTY_REACTIONS.map((r) => (
          <button
            key={r}
            type="button"
            className="flex min-h-11 min-w-11 items-center justify-center rounded-lg text-lg hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
            onClick={() => void session.say({ reaction: r })}
            aria-label={t('player.party.react', { reaction: r })}
            data-testid="party-react"
          >
            {r}
          </button>
        ))}
      </div>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <label htmlFor={inputId} className="sr-only">
          {t('player.party.message')}
        </label>
        <input
          id={inputId}
          value={text}
          maxLength={PARTY_CHAT_MAX}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('player.party.message')}
          className="min-h-11 min-w-0 flex-1 rounded-lg border border-white/20 bg-black/40 px-3 text-sm text-white placeholder:text-white/40 focus-visible:outline-2 focus-visible:outline-white"
          data-testid="party-message"
        />
        <button type="submit" className={`${BUTTON} bg-white text-black`} data-testid="party-send">
          {t('player.party.send')}
        </button>
      </form>
    </div>
  );
}

/** The host's switch: whether only they control playback. */
function HostOnlySwitch({ session }: { session: PartySession }) {
  const { t } = useTranslation(['player']);
  const hostOnly = useParty((s) => s.view?.hostOnly ?? false);
  const amHost = useParty((s) => s.view?.members.some((m) => m.id === s.memberId && m.host) ?? false);
  if (!amHost)
    return hostOnly ? <p className="text-xs text-white/70">{t('player.party.hostControls')}</p> : null;
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
      <input
        type="checkbox"
        className="h-5 w-5 accent-[var(--color-fg-accent)]"
        checked={hostOnly}
        onChange={(e) => void session.command({ type: 'hostOnly', value: e.target.checked })}
        data-testid="party-panel-host-only"
      />
      {t('player.party.hostOnly')}
    </label>
  );
}

/**
 * The watch party beside the video (under it on a phone): who is here, whom the room waits for, the
 * invite link, chat and reactions, leaving. When the party is over, it says so and the player plays on alone.
 */
export function PartyPanel({ session }: { session: PartySession }) {
  const { t } = useTranslation(['player', 'errors']);
  const status = useParty((s) => s.status);
  const errorCode = useParty((s) => s.errorCode);
  const driftMs = useParty((s) => s.driftMs);
  const waitingFor = useWaitingFor();
  const location = useLocation();
  const navigate = useNavigate();
  const alone = () => {
    const search = new URLSearchParams(location.search);
    search.delete(PARTY_QUERY);
    void navigate(
      { pathname: location.pathname, search: search.size ? `?${search}` : '' },
      { replace: true },
    );
  };
  const over = status === 'ended' || status === 'left';
  return (
    <aside
      className="flex min-h-[40dvh] w-full flex-col gap-3 bg-neutral-900 p-3 text-white lg:h-dvh lg:w-80 lg:shrink-0"
      aria-label={t('player.party.title')}
      data-testid="party-panel"
      data-status={status}
      data-drift-ms={driftMs ?? undefined}
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="min-w-0 flex-1 text-base font-bold">{t('player.party.title')}</h2>
        {!over && (
          <button
            type="button"
            className={`${BUTTON} shrink-0 whitespace-nowrap border border-white/30 hover:bg-white/10`}
            onClick={() => void leaveParty().then(alone)}
            data-testid="party-panel-leave"
          >
            {t('player.party.leave')}
          </button>
        )}
      </div>
      <p role="status" className="text-sm text-white/80" data-testid="party-status">
        {over
          ? t(status === 'ended' ? 'player.party.ended' : 'player.party.left')
          : status === 'reconnecting' || status === 'connecting'
            ? t('player.party.reconnecting')
            : waitingFor.length > 0
              ? t('player.party.waitingFor', { names: waitingFor.join(', ') })
              : ''}
      </p>
      {over ? (
        <button
          type="button"
          className={`${BUTTON} bg-white text-black`}
          onClick={alone}
          data-testid="party-alone"
        >
          {t('player.party.watchAlone')}
        </button>
      ) : (
        <>
          <Members />
          <HostOnlySwitch session={session} />
          {errorCode && (
            <p role="alert" className="text-sm text-red-300" data-testid="party-error">
              {t(codeKey(errorCode as Parameters<typeof codeKey>[0]))}
            </p>
          )}
          <details className="text-sm">
            <summary className="min-h-11 cursor-pointer py-3">{t('player.party.invite')}</summary>
            <InviteLink partyId={session.partyId} />
          </details>
          <Chat session={session} />
        </>
      )}
    </aside>
  );
}
