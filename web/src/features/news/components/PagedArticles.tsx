/**
 * A cursor-paged list of articles: the next page loads as its end scrolls into view
 * (an `IntersectionObserver` on a sentinel), with a "더 보기" button for browsers without
 * one, keyboards and screen readers.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import type { ArticleSummary, NewsList } from '../api/types';

/** How far below the screen the sentinel starts loading the next page. */
export const AUTOLOAD_MARGIN_PX = 400;

/** What the list needs of a paged query (`useInfiniteQuery`'s result). */
export interface PagedNews {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** Every article of the pages loaded so far, each once (a story may move between pages while new ones arrive). */
export function articlesOf(pages: readonly NewsList[] | undefined): ArticleSummary[] {
  const seen = new Set<number>();
  const out: ArticleSummary[] = [];
  for (const page of pages ?? []) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
    }
  }
  return out;
}

/** Placeholder rows while the first page loads. */
export function NewsSkeleton({ rows = 5 }: { rows?: number }) {
  const { t } = useTranslation('news');
  return (
    <div className="news-skeleton" aria-busy="true">
      <span className="visually-hidden">{t('list.loading')}</span>
      {Array.from({ length: rows }, (_, i) => (
        <span key={i} className="news-skeleton__row" />
      ))}
    </div>
  );
}

export interface PagedArticlesProps {
  query: PagedNews;
  label: string;
  children: ReactNode;
}

/** The rows (`children`, `<li>`s) and what loads the next page. */
export function PagedArticles({ query, label, children }: PagedArticlesProps) {
  const { t } = useTranslation('news');
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;

  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasNextPage || isFetchNextPageError || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: `0px 0px ${AUTOLOAD_MARGIN_PX}px 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  return (
    <>
      <ul className="news-list" aria-label={label}>
        {children}
      </ul>
      {hasNextPage && (
        <div className="news-more" ref={sentinel}>
          {isFetchNextPageError && (
            <p role="alert" className="news-more__error">
              {t('list.moreFailed')}
            </p>
          )}
          <button
            type="button"
            className="button button--secondary"
            disabled={isFetchingNextPage}
            aria-busy={isFetchingNextPage}
            onClick={() => void fetchNextPage()}
          >
            {isFetchingNextPage ? t('list.loadingMore') : t('list.more')}
          </button>
        </div>
      )}
    </>
  );
}
