import { useTranslation } from 'react-i18next';

/**
 * A season's name as the viewer reads it: "Season 2" in their language (the source's names are
 * English for the embedded catalog, and vary by source), "Specials" for season 0.
 */
export function useSeasonLabel(): (season: { number: number }) => string {
  const { t } = useTranslation(['media']);
  return (season) =>
    season.number === 0
      ? t('media.seasons.specials')
      : t('media.seasons.numbered', { number: season.number });
}
