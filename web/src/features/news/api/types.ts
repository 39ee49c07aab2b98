/**
 * The news API's shapes (docs/news.md, "API"), generated from the server's OpenAPI
 * document (`scripts/gen-api.sh`). All times are RFC 3339 UTC.
 */
import type { ApiSchema } from '@/shared/api/client';

/** The countries news is kept for. */
export type NewsCountry = ApiSchema<'NewsCountry'>;
/** Whether news can arrive: `not_configured`, `unreachable`, `ok`; with the newest success of any feed. */
export type NewsStatus = ApiSchema<'NewsStatusDto'>;
/** An instrument an article names (`in_title`: named in its title). */
export type InstrumentLink = ApiSchema<'InstrumentLinkDto'>;
/** An article in a list: `summary` plain text (≤ 300 characters), `image_url` a same-origin `/media/news/…` path. */
export type ArticleSummary = ApiSchema<'ArticleSummaryDto'>;
/** One article with every outlet that carried it. */
export type Article = ApiSchema<'ArticleDto'>;
/** A page of articles, newest first; `next_cursor` null on the last page. */
export type NewsList = ApiSchema<'NewsListDto'>;
/** A page of search results; `terms`: the words to highlight. */
export type NewsSearch = ApiSchema<'NewsSearchDto'>;
/** How a feed is doing. */
export type FeedStatus = ApiSchema<'FeedState'>;
/** A feed the operator configured. `last_error` is English, for the operator. */
export type Feed = ApiSchema<'FeedDto'>;
/** What `POST /api/admin/news/feeds` takes. */
export type FeedInput = ApiSchema<'FeedInput'>;
/** What `PATCH /api/admin/news/feeds/{id}` takes: any of the fields. */
export type FeedPatch = ApiSchema<'FeedPatchInput'>;
/** `GET /api/admin/news/feeds`; `defaults_available`: default feeds not added yet. */
export type FeedList = ApiSchema<'FeedListDto'>;
/** `POST /api/admin/news/feeds/{id}/fetch`. */
export type FeedFetchResult = ApiSchema<'FetchResultDto'>;
/** `POST /api/admin/news/feeds/defaults`. */
export type DefaultFeedsResult = ApiSchema<'DefaultsResultDto'>;
