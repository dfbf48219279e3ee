import { useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Button, ButtonLink } from '../../../components/button.tsx';
import { FormError, FormField } from '../../../components/form-field.tsx';
import { PARTY_NAME_MAX, PARTY_TOKEN_HEADER } from '@marquee/contract/values';
import type { PartyTitle } from '@marquee/contract';
import { ApiError, codeKey } from '../../../lib/api/errors.ts';
import { partyApi } from '../../../lib/api/party-api.ts';
import { paths } from '../../../lib/paths.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useOwnName } from '../ui/menus/party-menu.tsx';
import { beginSession, savedMembership } from './party-session.ts';
import { partyTitlePath } from './use-party-sync.ts';

/** A party title as a viewer names it: the film, or the show with its episode (S1 E2). */
function partyTitleLabel(title: PartyTitle): string {
  if (!title.season || !title.episode) return title.title;
  return `${title.title} · S${title.season.number} E${title.episode.number}`;
}

/** Refusals the page explains with a way on (sign in), beside the error's own text. */
const SIGN_IN_CODES = new Set(['party_guests_closed', 'login_required']);

/**
 * `/party/:partyId`, the invite link: the viewer's name in the party, then the player of its title at
 * the room's position. A tab that is a member already (a reload) goes straight back in.
 */
export function PartyJoinPage() {
  const { t } = useTranslation(['player', 'errors']);
  usePageTitle(t('player.party.joinTitle'));
  const { partyId = '' } = useParams();
  const navigate = useNavigate();
  const ownName = useOwnName();
  const [name, setName] = useState(ownName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ code: string | null; text: string } | null>(null);
  const nameId = useId();
  const rejoined = useRef(false);
  // What the party watches and who hosts it: a title the viewer knows before giving their name.
  const preview = useQuery({
    queryKey: ['party-preview', partyId],
    queryFn: ({ signal }) => partyApi.preview({ params: { partyId }, signal }),
    retry: false,
    staleTime: 30_000,
  });

  const join = async (joinName: string, token?: string) => {
    setBusy(true);
    setError(null);
    try {
      const joined = await partyApi.join({
        params: { partyId },
        body: { name: joinName },
        ...(token ? { headers: { [PARTY_TOKEN_HEADER]: token } } : {}),
      });
      beginSession(partyId, { memberId: joined.member.id, token: joined.member.token }, joined.party);
      void navigate(partyTitlePath(joined.party.title, partyId), { replace: true });
    } catch (e) {
      const code = e instanceof ApiError ? e.code : null;
      setError({ code, text: t(codeKey(code, e instanceof ApiError ? e.status : 400)) });
      setBusy(false);
    }
  };

  useEffect(() => {
    const saved = savedMembership(partyId);
    if (!saved || rejoined.current) return;
    rejoined.current = true;
    void join(ownName || '…', saved.token);
    // Once, for the membership this tab kept.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [partyId]);

  return (
    <main id="main" className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold text-fg">{t('player.party.joinTitle')}</h1>
      {preview.data && (
        <p className="text-lg text-fg" data-testid="party-join-preview">
          {t('player.party.invitedBy', {
            host: preview.data.host,
            title: partyTitleLabel(preview.data.title),
            count: preview.data.members,
          })}
        </p>
      )}
      <p className="text-fg-muted">{t('player.party.joinIntro')}</p>
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void join(name.trim());
        }}
      >
        <FormField
          id={nameId}
          label={t('player.party.yourName')}
          value={name}
          required
          maxLength={PARTY_NAME_MAX}
          autoComplete="nickname"
          onChange={(e) => setName(e.target.value)}
          invalid={error !== null}
          data-testid="party-join-name"
        />
        <FormError
          message={
            error
              ? error.code === 'party_not_found'
                ? t('player.party.notFound')
                : error.text
              : preview.error instanceof ApiError && preview.error.code === 'party_not_found'
                ? t('player.party.notFound')
                : null
          }
        />
        {error?.code && SIGN_IN_CODES.has(error.code) && (
          <ButtonLink
            variant="secondary"
            to={`${paths.login}?next=${encodeURIComponent(paths.party(partyId))}`}
          >
            {t('player.party.signIn')}
          </ButtonLink>
        )}
        <Button type="submit" disabled={busy || !name.trim()} data-testid="party-join">
          {t('player.party.join')}
        </Button>
      </form>
    </main>
  );
}
