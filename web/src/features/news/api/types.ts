/**
 * The news API's shapes (docs/news.md, "API"). All times are RFC 3339 UTC.
 */
// Replaced by the generated ApiSchema types when the server lands.

/** The countries news is kept for. */
export type NewsCountry = 'KR' | 'US';

/**
 * Whether news can arrive: `not_configured` (no enabled feed), `unreachable` (enabled
 * feeds, none succeeded since its last attempt), `ok`. `last_success_at`: the newest
 * success of any feed.
 */
export interface NewsStatus {
  state: 'not_configured' | 'unreachable' | 'ok';
  last_success_at: string | null;
}

/** An instrument an article names (`in_title`: named in its title). */
export interface InstrumentLink {
  instrument_id: string;
  ticker: string;
  name_ko: string;
  name_en: string;
  in_title: boolean;
}

/** An article in a list: `summary` plain text (≤ 300 characters), `image_url` a same-origin `/media/news/…` path. */
export interface ArticleSummary {
  id: number;
  title: string;
  summary: string;
  /** The original, http or https. */
  url: string;
  /** The first outlet. */
  source: string;
  /** Outlets that carried the story. */
  source_count: number;
  published_at: string;
  country: NewsCountry;
  language: string;
  image_url: string | null;
  instruments: InstrumentLink[];
}

/** One article with every outlet that carried it. */
export interface Article extends ArticleSummary {
  sources: { name: string; url: string }[];
  fetched_at: string;
}

/** A page of articles, newest first; `next_cursor` null on the last page. */
export interface NewsList {
  items: ArticleSummary[];
  next_cursor: string | null;
  status: NewsStatus;
}

/** A page of search results; `terms`: the words to highlight. */
export interface NewsSearch extends NewsList {
  terms: string[];
}

/** How a feed is doing. */
export type FeedStatus = 'pending' | 'ok' | 'error' | 'disabled';

/** A feed the operator configured. `last_error` is English, for the operator. */
export interface Feed {
  id: number;
  url: string;
  source_name: string;
  country: NewsCountry;
  language: string;
  enabled: boolean;
  is_default: boolean;
  status: FeedStatus;
  last_fetch_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  error_count: number;
  items_total: number;
  items_last_fetch: number;
  next_poll_at: string | null;
  interval_secs: number;
}

/** What `POST`/`PATCH /api/admin/news/feeds…` take (`PATCH`: any of them). */
export interface FeedInput {
  url: string;
  source_name: string;
  country: NewsCountry;
  language: string;
  enabled: boolean;
}

/** `GET /api/admin/news/feeds`; `defaults_available`: default feeds not added yet. */
export interface FeedList {
  feeds: Feed[];
  defaults_available: number;
}

/** `POST /api/admin/news/feeds/{id}/fetch`. */
export interface FeedFetchResult {
  feed: Feed;
  new_articles: number;
  merged: number;
}

/** `POST /api/admin/news/feeds/defaults`. */
export interface DefaultFeedsResult {
  added: number;
  feeds: Feed[];
}
