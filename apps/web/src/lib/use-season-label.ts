import { useTranslation } from 'react-i18next';

/** English names a source gives when a season has no name of its own ("Season 2", "Specials"). */
const GENERIC_NAME = /^(?:season|series|specials?)(?:\s+\d+)?$/i;

/**
 * A season's name as the viewer reads it: the source's own name where it has one ("The Northern
 * Lights", "Part 1": TMDB names seasons in the viewer's language), else "Season 2" in their language
 * (generic names are English for the embedded catalog), "Specials" for season 0.
 */
export function useSeasonLabel(): (season: { number: number; title?: string | null | undefined }) => string {
  const { t } = useTranslation(['media']);
  return (season) => {
    const generic =
      season.number === 0
        ? t('media.seasons.specials')
        : t('media.seasons.numbered', { number: season.number });
    const name = season.title?.trim();
    if (!name || GENERIC_NAME.test(name) || name === generic) return generic;
    return name;
  };
}
