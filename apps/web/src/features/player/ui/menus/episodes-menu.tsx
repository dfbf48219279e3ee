import { useQuery } from '@tanstack/react-query';
import { isReleased } from '@marquee/contract/values';
import { mediaPath } from '../../../../lib/media-keys.ts';
import { libraryKey } from '../../../../stores/library/library-rules.ts';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { withParty } from '../../party/use-party-sync.ts';
import { clock } from '../../../../lib/clock.ts';
import { useLibraryStore } from '../../../../stores/index.ts';
import type { PlayerMeta } from '../../core/types.ts';
import { Icon } from '../icons.tsx';
import { seasonEpisodesQuery } from '../queries.ts';
import { MenuCard, MenuItem, MenuList, type OpenMenu } from './menu-parts.tsx';
import { useSeasonLabel } from '../../../../lib/use-season-label.ts';

/**
 * `/episodes[/<season id>]`: a season's episodes (with progress); `/episodes/seasons` lists the seasons.
 * A season opened from the list goes back to it; the season that plays and its episode are current.
 */
export function EpisodesMenu({
  meta,
  seasonId,
  open,
  back,
  onClose,
}: {
  meta: PlayerMeta;
  seasonId: string | null;
  open: OpenMenu;
  back(): void;
  onClose(): void;
}) {
  const { t } = useTranslation(['global', 'library', 'media', 'player']);
  const seasonLabel = useSeasonLabel();
  const navigate = useNavigate();
  const { search } = useLocation();
  const season = meta.seasons?.find((s) => s.id === (seasonId ?? meta.season?.id)) ?? meta.season;
  const q = useQuery({ ...seasonEpisodesQuery(meta.tmdbId, season?.number ?? 1), enabled: !!season });
  const progress = useLibraryStore((s) => s.progress[libraryKey('show', meta.tmdbId)]?.episodes);
  if (seasonId === 'seasons') {
    return (
      <MenuCard
        title={t('player.episodes.seasons')}
        testId="seasons-menu"
        back={{ label: t('player.menu.close'), go: onClose }}
      >
        <MenuList>
          {(meta.seasons ?? []).map((s) => (
            <MenuItem
              key={s.id}
              onClick={() => open(`/episodes/${s.id}`)}
              data-opens={`/episodes/${s.id}`}
              aria-current={s.id === meta.season?.id ? 'true' : undefined}
              data-testid="season-option"
            >
              <span className="flex-1">{seasonLabel(s)}</span>
              <Icon name="chevronRight" className="h-4 w-4 text-white/50" />
            </MenuItem>
          ))}
        </MenuList>
      </MenuCard>
    );
  }
  const message = q.isPending
    ? { text: t('global.loading'), className: 'text-white/60' }
    : q.isError
      ? { text: t('media.seasons.loadFailed'), className: 'text-red-400' }
      : q.data.episodes.length === 0
        ? { text: t('media.seasons.empty'), className: 'text-white/60' }
        : null;
  return (
    <MenuCard
      title={season ? seasonLabel(season) : t('player.episodes.title')}
      testId="episodes-menu"
      back={{ label: t('player.episodes.seasons'), go: seasonId ? back : () => open('/episodes/seasons') }}
      parent={seasonId ? back : undefined}
    >
      {message || !q.data ? (
        <p className={`px-3 py-2 text-sm ${message?.className ?? ''}`}>{message?.text}</p>
      ) : (
        <MenuList>
          {q.data.episodes.map((e) => {
            const aired = isReleased(e.airDate, clock.now());
            const p = progress?.[e.id]?.progress;
            const percent = p && p.duration > 0 ? Math.round((p.watched / p.duration) * 100) : 0;
            const current = e.id === meta.episode?.id;
            return (
              <MenuItem
                key={e.id}
                disabled={!aired}
                className={current ? 'bg-accent/30' : ''}
                aria-current={current ? 'true' : undefined}
                data-testid="episode-option"
                data-unaired={aired ? undefined : 'true'}
                onClick={() => navigate(withParty(mediaPath(meta.mediaKey, q.data.id, e.id), search))}
              >
                <span className="w-10 shrink-0 rounded bg-white/10 px-1 text-center font-mono text-xs">
                  {t('media.seasons.episodeNumber', { number: e.number })}
                </span>
                <bdi className="flex-1 truncate">{e.title}</bdi>
                {percent > 0 && (
                  <span
                    className="h-4 w-4 rounded-full"
                    style={{
                      background: `conic-gradient(currentColor ${percent}%, rgba(255,255,255,0.2) 0)`,
                    }}
                    role="img"
                    aria-label={t('library.watched', { percent })}
                  />
                )}
                {!aired && <span className="text-xs text-white/60">{t('media.seasons.unaired')}</span>}
              </MenuItem>
            );
          })}
        </MenuList>
      )}
    </MenuCard>
  );
}
