/**
 * Recent news searches (`MOAT_NEWS_RECENT_SEARCHES`, docs/news.md): queries, trimmed,
 * newest first, no duplicates, at most {@link MAX_RECENT_SEARCHES}; blank ones are not
 * kept.
 */
import { recentList } from '@/shared/lib/recent-list';

/** How many recent searches are kept. */
export const MAX_RECENT_SEARCHES = 10;

const searches = recentList('MOAT_NEWS_RECENT_SEARCHES', MAX_RECENT_SEARCHES, (q) => q.trim() || null);

export const readRecentSearches = searches.read;
/** Records a search (a blank one is not recorded). */
export const addRecentSearch = searches.add;
export const removeRecentSearch = searches.remove;
export const clearRecentSearches = searches.clear;
/** The recent searches, following storage (this tab and others). */
export const useRecentSearches = searches.use;
