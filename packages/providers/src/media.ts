/** What a scrape is asked for: a movie, or one episode of a show (TMDB ids as strings). */
export interface CommonMedia {
  title: string;
  releaseYear: number;
  tmdbId: string;
  imdbId?: string;
}

export interface MovieMedia extends CommonMedia {
  type: 'movie';
}

export interface ShowMedia extends CommonMedia {
  type: 'show';
  season: { number: number; tmdbId: string };
  episode: { number: number; tmdbId: string };
}

export type ScrapeMedia = MovieMedia | ShowMedia;
export type ScrapeMediaType = ScrapeMedia['type'];
