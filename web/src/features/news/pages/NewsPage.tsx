/**
 * `/news`: the chosen country's articles (국내 / 해외, kept in `MOAT_NEWS_COUNTRY`),
 * newest first, paged as one scrolls; a refresh button; new articles announced live
 * ("새 기사 N건", which re-fetches and goes back to the top); the feeds' status when
 * something is wrong or there is nothing yet.
 */
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { SearchIcon } from '@/shared/ui/icons';
import { SectionError } from '@/shared/ui/card/SectionError';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';
import { newsKeys } from '../api/keys';
import { useNewsList } from '../api/news';
import type { NewsCountry, NewsList } from '../api/types';
import { ArticleRow } from '../components/ArticleRow';
import { articlesOf, NewsSkeleton, PagedArticles } from '../components/PagedArticles';
import { StatusNote } from '../components/StatusNote';
import { useNewsCountry } from '../lib/country';
import { newsTopic, useNewArticleCount } from '../lib/live';
import { useNow } from '../lib/time';
import '../components/news.css';

export { messagesReady } from '../locales/messages';

const COUNTRIES: readonly NewsCountry[] = ['KR', 'US'];

export function NewsPage() {
  const { t } = useTranslation('news');
  usePageMeta({ title: t('meta.title'), description: t('meta.description') });
  const client = useQueryClient();
  const [country, setCountry] = useNewsCountry();
  const list = useNewsList(country);
  const [newCount, resetNew] = useNewArticleCount(newsTopic(country));
  const now = useNow();
  const items = articlesOf(list.data?.pages);
  const status = list.data?.pages[0]?.status;

  /** Back to the first page, fetched again (later pages would follow stale cursors). */
  const reload = () => {
    resetNew();
    client.setQueryData<InfiniteData<NewsList, string | null>>(newsKeys.list(country), (data) =>
      data ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } : data,
    );
    void list.refetch();
  };

  const showNew = () => {
    reload();
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  return (
    <div className="news-page">
      <div className="news-page__head">
        <h1 className="news-page__title">{t('title')}</h1>
        <div className="news-page__tools">
          <AppLink to="/news/search" className="news-icon-button" aria-label={t('searchEntry')}>
            <SearchIcon size={20} />
          </AppLink>
          <button
            type="button"
            className="news-icon-button"
            aria-label={t('refresh')}
            onClick={reload}
            disabled={list.isFetching}
            aria-busy={list.isFetching}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
              <path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3M19.5 4.5v4.2h-4.2" />
            </svg>
          </button>
        </div>
      </div>
      <SegmentedControl
        segments={COUNTRIES.map((value) => ({ value, label: t(`country.${value}`) }))}
        value={country}
        onChange={setCountry}
        label={t('country.label')}
        className="news-page__countries"
      />
      {newCount > 0 && (
        <button type="button" className="news-pill" onClick={showNew}>
          {t('newArticles', { count: newCount })}
        </button>
      )}
      {list.isPending ? (
        <NewsSkeleton />
      ) : list.isError ? (
        <SectionError message={t('loadFailed')} retryLabel={t('retry')} onRetry={() => void list.refetch()} />
      ) : (
        <>
          {status && <StatusNote status={status} hasItems={items.length > 0} />}
          {items.length > 0 && <h2 className="visually-hidden">{t('list.label')}</h2>}
          {items.length > 0 && (
            <PagedArticles query={list} label={t('list.label')}>
              {items.map((article) => (
                <ArticleRow key={article.id} article={article} now={now} />
              ))}
            </PagedArticles>
          )}
        </>
      )}
    </div>
  );
}
