/** Query keys of the news API: public lists under `['news', …]`, the operator's feeds under `['news', 'feeds']`. */
import type { NewsCountry } from './types';

/** A search's country filter: one country or every one. */
export type SearchCountry = NewsCountry | 'ALL';

export const newsKeys = {
  all: ['news'] as const,
  list: (country: NewsCountry) => ['news', 'list', country] as const,
  top: (country: NewsCountry) => ['news', 'top', country] as const,
  instrument: (id: string) => ['news', 'instrument', id] as const,
  search: (q: string, country: SearchCountry) => ['news', 'search', q, country] as const,
  article: (id: number) => ['news', 'article', id] as const,
  feeds: () => ['news', 'feeds'] as const,
};

/** How long a list counts as fresh: new articles are announced live, and the page has a refresh button. */
export const NEWS_STALE_MS = 60_000;
