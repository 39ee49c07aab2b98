/**
 * `/news/search?q=&country=`: a search box, the recent searches while it is empty
 * (`MOAT_NEWS_RECENT_SEARCHES`, each removable), and the results, paged as one scrolls,
 * with the matched words marked. A search is recorded when submitted and when one of
 * its results is opened.
 */
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { SearchIcon } from '@/shared/ui/icons';
import { SectionError } from '@/shared/ui/card/SectionError';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';
import type { SearchCountry } from '../api/keys';
import { NEWS_QUERY_MAX_CHARS, useNewsSearch } from '../api/search';
import { ArticleRow } from '../components/ArticleRow';
import { articlesOf, NewsSkeleton, PagedArticles } from '../components/PagedArticles';
import { StatusNote } from '../components/StatusNote';
import { termPattern } from '../lib/highlight';
import { addRecentSearch, clearRecentSearches, removeRecentSearch, useRecentSearches } from '../lib/recent';
import { useNow } from '../lib/time';
import '../components/news.css';

export { messagesReady } from '../locales/messages';

const FILTERS: readonly SearchCountry[] = ['ALL', 'KR', 'US'];

/** `?country=` as a filter (anything else is every country). */
function countryParam(raw: string | null): SearchCountry {
  return raw === 'KR' || raw === 'US' ? raw : 'ALL';
}

function RecentSearches({ onPick }: { onPick: (query: string) => void }) {
  const { t } = useTranslation('news');
  const recent = useRecentSearches();
  return (
    <section className="news-recent" aria-labelledby="news-recent-title">
      <div className="news-recent__head">
        <h2 id="news-recent-title" className="news-recent__title">
          {t('search.recent.title')}
        </h2>
        {recent.length > 0 && (
          <button type="button" className="news-text-button" onClick={clearRecentSearches}>
            {t('search.recent.clearAll')}
          </button>
        )}
      </div>
      {recent.length === 0 ? (
        <p className="news-muted">{t('search.recent.empty')}</p>
      ) : (
        <ul className="news-recent__list" aria-label={t('search.recent.title')}>
          {recent.map((query) => (
            <li key={query} className="news-recent__item">
              <button type="button" className="news-recent__query" onClick={() => onPick(query)}>
                {query}
              </button>
              <button
                type="button"
                className="news-recent__remove"
                aria-label={t('search.recent.remove', { query })}
                onClick={() => removeRecentSearch(query)}
              >
                <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                  <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
                </svg>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function SearchPage() {
  const { t } = useTranslation('news');
  usePageMeta({ title: t('search.meta.title'), description: t('search.meta.description') });
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim().slice(0, NEWS_QUERY_MAX_CHARS);
  const country = countryParam(params.get('country'));
  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  // The box follows the address (back and forward between searches).
  if (shownQ !== q) {
    setShownQ(q);
    setText(q);
  }
  const results = useNewsSearch(q, country);
  const now = useNow();
  const items = articlesOf(results.data?.pages);
  const first = results.data?.pages[0];
  const pattern = termPattern(first?.terms ?? []);

  const go = (query: string, filter: SearchCountry = country) => {
    const next: Record<string, string> = {};
    if (query) next.q = query;
    if (filter !== 'ALL') next.country = filter;
    setParams(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim().slice(0, NEWS_QUERY_MAX_CHARS);
    if (!query) return;
    addRecentSearch(query);
    go(query);
  };

  return (
    <div className="news-page">
      <h1 className="news-page__title">{t('search.title')}</h1>
      <form role="search" className="news-search" onSubmit={submit}>
        <SearchIcon size={20} />
        <input
          type="search"
          className="news-search__input"
          aria-label={t('search.label')}
          placeholder={t('search.placeholder')}
          value={text}
          maxLength={NEWS_QUERY_MAX_CHARS}
          enterKeyHint="search"
          onChange={(e) => setText(e.target.value)}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the page exists to type in this box
          autoFocus={!q}
        />
        <button type="submit" className="button button--primary news-search__submit">
          {t('search.submit')}
        </button>
      </form>
      <SegmentedControl
        segments={FILTERS.map((value) => ({ value, label: t(`search.country.${value}`) }))}
        value={country}
        onChange={(filter) => go(q, filter)}
        label={t('search.country.label')}
        className="news-page__countries"
      />
      {!q ? (
        <RecentSearches
          onPick={(query) => {
            addRecentSearch(query);
            go(query);
          }}
        />
      ) : results.isPending ? (
        <NewsSkeleton />
      ) : results.isError ? (
        <SectionError message={t('search.failed')} retryLabel={t('retry')} onRetry={() => void results.refetch()} />
      ) : items.length === 0 ? (
        <>
          {first && first.status.state !== 'ok' && <StatusNote status={first.status} hasItems={false} />}
          <p className="news-note news-note__title" role="status">
            {t('search.none', { query: q })}
          </p>
        </>
      ) : (
        <>
          {first && first.status.state === 'unreachable' && <StatusNote status={first.status} hasItems />}
          <h2 className="visually-hidden">{t('search.results')}</h2>
          <PagedArticles query={results} label={t('search.results')}>
            {items.map((article) => (
              <ArticleRow key={article.id} article={article} now={now} withSummary highlight={pattern} onOpen={() => addRecentSearch(q)} />
            ))}
          </PagedArticles>
        </>
      )}
    </div>
  );
}
