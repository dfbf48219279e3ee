import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Credit,
  type CrewCredit,
  type EpisodeRef,
  type MediaDetails,
  type MediaSummary,
  type Trailer,
  type WatchProvider,
} from '@marquee/contract';
import { MediaCard } from '../../components/media-card.tsx';
import { listFormat, dateTimeFormat, displayNames } from '../../lib/intl.ts';

/** Sections of the title page below its header: people, trailers, where to watch, more like this. */

const SECTION = 'mt-10';
const HEADING = 'mb-4 text-xl font-bold text-fg';
/**
 * A row that scrolls sideways on a phone (snapping to items) and wraps into a grid on wider screens. In TV
 * mode it keeps room for the focus ring and a card scrolled into view stops short of its ends (as the
 * discover rows, discover/carousel.tsx).
 */
const ROW =
  'flex snap-x gap-4 overflow-x-auto pb-2 [scrollbar-width:thin] tv:-mx-2 tv:px-2 tv:pt-2 tv:scroll-px-8';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

function Person({ person }: { person: Credit }) {
  // A photo the image host cannot deliver gives way to the initials, never a broken image.
  const [photoFailed, setPhotoFailed] = useState(false);
  return (
    <li className="w-28 shrink-0 snap-start sm:w-32">
      {person.photo && !photoFailed ? (
        <img
          src={person.photo}
          alt=""
          loading="lazy"
          decoding="async"
          width={185}
          height={278}
          onError={() => setPhotoFailed(true)}
          className="aspect-[2/3] w-full rounded-lg bg-surface-2 object-cover"
        />
      ) : (
        <div
          aria-hidden="true"
          className="flex aspect-[2/3] w-full items-center justify-center rounded-lg bg-surface-2 text-2xl font-bold text-fg-muted"
        >
          {initials(person.name)}
        </div>
      )}
      <p className="mt-2 text-sm font-semibold text-fg" dir="auto">
        {person.name}
      </p>
      {person.role && (
        <p className="text-xs text-fg-muted" dir="auto">
          {person.role}
        </p>
      )}
    </li>
  );
}

export function CastSection({ cast }: { cast: Credit[] }) {
  const { t } = useTranslation(['media', 'title']);
  if (cast.length === 0) return null;
  return (
    <section className={SECTION} aria-labelledby="cast-heading" data-testid="title-cast">
      <h2 id="cast-heading" className={HEADING}>
        {t('title.details.cast')}
      </h2>
      <ul id="cast-row" className={ROW} data-tv-row="">
        {cast.map((person) => (
          <Person key={`${person.id}-${person.role ?? ''}`} person={person} />
        ))}
      </ul>
    </section>
  );
}

/** Directors, writers, creators: names with their jobs (in the viewer's language), as a list of terms. */
export function CrewSection({ crew }: { crew: CrewCredit[] }) {
  const { t, i18n } = useTranslation(['media', 'title']);
  const list = listFormat(i18n.language, { style: 'short', type: 'unit' });
  if (crew.length === 0) return null;
  return (
    <section className={SECTION} aria-labelledby="crew-heading" data-testid="title-crew">
      <h2 id="crew-heading" className={HEADING}>
        {t('title.details.crew')}
      </h2>
      <dl className="grid grid-cols-1 gap-x-8 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
        {crew.map((person) => (
          <div key={person.id}>
            <dt className="font-semibold text-fg" dir="auto">
              {person.name}
            </dt>
            <dd className="text-sm text-fg-muted">
              {list.format(person.jobs.map((job) => t(`title.details.jobs.${job}`)))}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Trailers are links that open the video site on demand: nothing loads or plays by itself. */
export function TrailersSection({ trailers }: { trailers: Trailer[] }) {
  const { t } = useTranslation(['media', 'title']);
  if (trailers.length === 0) return null;
  return (
    <section className={SECTION} aria-labelledby="trailers-heading" data-testid="title-trailers">
      <h2 id="trailers-heading" className={HEADING}>
        {t('title.details.trailers')}
      </h2>
      <ul className="flex flex-wrap gap-3">
        {trailers.map((trailer) => (
          <li key={trailer.url}>
            <a
              href={trailer.url}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center gap-2 rounded-full bg-surface-2 px-4 py-2 text-sm font-semibold text-fg hover:bg-surface-3 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 fill-current">
                <path d="M8 5v14l11-7z" />
              </svg>
              <span dir="auto">{trailer.name}</span>
              <span className="sr-only">{t('title.details.opensOn', { site: trailer.site })}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

const PROVIDER_KINDS: WatchProvider['kind'][] = ['flatrate', 'free', 'ads', 'rent', 'buy'];

/** Where to watch in the viewer's region, by kind of offer, with the data's attribution (JustWatch via TMDB). */
/** A provider's logo; an empty tile when there is none or the image host fails (no broken image). */
function ProviderLogo({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) return <span aria-hidden="true" className="h-9 w-9 rounded-md bg-surface-3" />;
  return (
    <img
      src={src}
      alt=""
      width={36}
      height={36}
      loading="lazy"
      onError={() => setFailed(true)}
      className="h-9 w-9 rounded-md"
      data-testid="provider-logo"
    />
  );
}

export function WatchSection({ providers }: { providers: MediaDetails['watchProviders'] }) {
  const { t, i18n } = useTranslation(['media', 'title']);
  if (!providers || providers.providers.length === 0) return null;
  const region = displayNames([i18n.language], { type: 'region' }).of(providers.region);
  return (
    <section className={SECTION} aria-labelledby="watch-heading" data-testid="title-watch">
      <h2 id="watch-heading" className={HEADING}>
        {t('title.details.whereToWatch', { region: region ?? providers.region })}
      </h2>
      <div className="flex flex-col gap-4">
        {PROVIDER_KINDS.map((kind) => {
          const offers = providers.providers.filter((p) => p.kind === kind);
          if (offers.length === 0) return null;
          return (
            <div key={kind} className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
              <h3 className="w-32 shrink-0 text-sm font-semibold uppercase tracking-wider text-fg-muted">
                {t(`title.details.offer.${kind}`)}
              </h3>
              <ul className="flex flex-wrap gap-3">
                {offers.map((p) => (
                  <li key={p.id} className="flex items-center gap-2 rounded-lg bg-surface-2 py-1 pe-3 ps-1">
                    <ProviderLogo src={p.logo} />
                    <span className="text-sm text-fg" dir="auto">
                      {p.name}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </div>
      <p className="mt-3 text-xs text-fg-muted">
        {providers.link ? (
          <a href={providers.link} target="_blank" rel="noopener noreferrer" className="underline">
            {t('title.details.offersBy')}
          </a>
        ) : (
          t('title.details.offersBy')
        )}
      </p>
    </section>
  );
}

export function MoreLikeThis({ items }: { items: MediaSummary[] }) {
  const { t } = useTranslation(['media', 'title']);
  if (items.length === 0) return null;
  return (
    <section className={SECTION} aria-labelledby="more-heading" data-testid="title-more">
      <h2 id="more-heading" className={HEADING}>
        {t('title.details.moreLikeThis')}
      </h2>
      <ul id="more-row" className={ROW} data-tv-row="">
        {items.map((media) => (
          <li key={`${media.type}-${media.id}`} className="w-32 shrink-0 snap-start sm:w-40">
            <MediaCard media={media} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Next episode: S2 E4 · 12 March 2027" (or the last aired one for an ended show). */
export function EpisodeLine({ label, episode }: { label: 'next' | 'last'; episode: EpisodeRef }) {
  const { t, i18n } = useTranslation(['media', 'title']);
  const date = episode.airDate
    ? dateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${episode.airDate}T00:00:00Z`),
      )
    : null;
  return (
    <p className="text-sm text-fg-muted" data-testid={`title-${label}-episode`}>
      <span className="font-semibold text-fg">{t(`title.details.${label}Episode`)}</span>{' '}
      {t('media.seasons.seasonEpisode', { season: episode.season, episode: episode.episode })}
      {episode.title && (
        <>
          {' · '}
          <span dir="auto">{episode.title}</span>
        </>
      )}
      {date && ` · ${date}`}
    </p>
  );
}
