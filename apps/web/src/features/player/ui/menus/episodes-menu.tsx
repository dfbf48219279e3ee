import { useQuery } from '@tanstack/react-query';
import { isReleased } from '@marquee/contract/values';
import { mediaPath } from '../../../../lib/media-keys.ts';
import { libraryKey } from '../../../../stores/library/library-rules.ts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { clock } from '../../../../lib/clock.ts';
import { useLibraryStore } from '../../../../stores/index.ts';
import type { PlayerMeta } from '../../core/types.ts';
import { Icon } from '../icons.tsx';
import { seasonEpisodesQuery } from '../queries.ts';
import { MenuCard, ROW, type OpenMenu } from './menu-parts.tsx';
import { useSeasonLabel } from '../../../../lib/use-season-label.ts';

/** `/episodes[/<season id>]`: a season's episodes (with progress); `/episodes/seasons` lists the seasons. */
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
  const season = meta.seasons?.find((s) => s.id === (seasonId ?? meta.season?.id)) ?? meta.season;
  const q = useQuery({ ...seasonEpisodesQuery(meta.tmdbId, season?.number ?? 1), enabled: !!season });
  const progress = useLibraryStore((s) => s.progress[libraryKey('show', meta.tmdbId)]?.episodes);
  if (seasonId === 'seasons') {
    return (
      <MenuCard
        title={t('player.episodes.seasons')}
        testId="seasons-menu"
        back={t('player.menu.close')}
        onBack={onClose}
      >
        <ul>
          {(meta.seasons ?? []).map((s) => (
            <li key={s.id}>
              <button
                type="button"
                className={ROW}
                onClick={() => open(`/episodes/${s.id}`)}
                data-testid="season-option"
              >
                <span className="flex-1">{seasonLabel(s)}</span>
                <Icon name="chevronRight" className="h-4 w-4 text-white/50" />
              </button>
            </li>
          ))}
        </ul>
      </MenuCard>
    );
  }
  return (
    <MenuCard
      title={season ? seasonLabel(season) : t('player.episodes.title')}
      testId="episodes-menu"
      back={t('player.episodes.seasons')}
      onBack={seasonId ? back : () => open('/episodes/seasons')}
    >
      {q.isPending ? (
        <p className="px-3 py-2 text-sm text-white/60">{t('global.loading')}</p>
      ) : q.isError ? (
        <p className="px-3 py-2 text-sm text-red-400">{t('media.seasons.loadFailed')}</p>
      ) : q.data.episodes.length === 0 ? (
        <p className="px-3 py-2 text-sm text-white/60">{t('media.seasons.empty')}</p>
      ) : (
        <ul>
          {q.data.episodes.map((e) => {
            const aired = isReleased(e.airDate, clock.now());
            const p = progress?.[e.id]?.progress;
            const percent = p && p.duration > 0 ? Math.round((p.watched / p.duration) * 100) : 0;
            const current = e.id === meta.episode?.id;
            return (
              <li key={e.id}>
                <button
                  type="button"
                  disabled={!aired}
                  className={`${ROW} ${current ? 'bg-accent/30' : ''}`}
                  aria-current={current ? 'true' : undefined}
                  data-testid="episode-option"
                  data-unaired={aired ? undefined : 'true'}
                  onClick={() => navigate(mediaPath(meta.mediaKey, q.data.id, e.id))}
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
                      aria-label={t('library.watched', { percent })}
                    />
                  )}
                  {!aired && <span className="text-xs text-white/60">{t('media.seasons.unaired')}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </MenuCard>
  );
}
