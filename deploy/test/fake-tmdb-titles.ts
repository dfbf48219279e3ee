import {
  catalogData,
  FAKE_TMDB_READ_TOKEN,
  FakeTmdb,
  withSearchExtras,
  type FakeTmdbOptions,
} from '../../apps/server/test/fake-tmdb.ts';
import { TMDB_MOVIE } from '../../apps/server/test/tmdb-title-fixtures.ts';
import { Catalog } from '../../apps/server/src/modules/metadata/catalog/catalog.ts';
import type { TmdbApi, TmdbMovieDetails } from '../../apps/server/src/modules/metadata/tmdb/tmdb.types.ts';

export { FAKE_TMDB_READ_TOKEN, type FakeTmdb };

/** The embedded catalog in TMDB's shapes, except Inception (27205): a complete answer with every append. */
function titlesSource(): TmdbApi {
  const catalog = withSearchExtras(new Catalog(catalogData()));
  const source = Object.create(catalog) as TmdbApi;
  source.movie = async (id, language) =>
    id === 27205 ? (structuredClone(TMDB_MOVIE) as unknown as TmdbMovieDetails) : catalog.movie(id, language);
  return source;
}

/**
 * A local TMDB for end-to-end tests of title pages (processes talk to it over HTTP, as to TMDB): the
 * catalog, plus Inception with credits, videos, certifications, watch providers and recommendations.
 */
export function startTitlesFakeTmdb(options: Pick<FakeTmdbOptions, 'image'> = {}): Promise<FakeTmdb> {
  return FakeTmdb.start({ ...options, source: titlesSource() });
}
