/**
 * A stock's page (slot `stockSections`, order 50): the articles that name the
 * instrument, five newest first, five more per "더 보기". Nothing when there are none
 * (a slot with nothing to show renders nothing).
 */
import type { StockSlotProps } from '@/shared/area/types';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { SectionCard } from '@/shared/ui/card/SectionCard';
import { SectionError } from '@/shared/ui/card/SectionError';
import { useInstrumentNews } from '../api/instrument-news';
import type { ArticleSummary } from '../api/types';
import { useNow } from '../lib/time';
import { ArticleRow } from './ArticleRow';
import { articlesOf } from './PagedArticles';
import './news.css';

export { messagesReady } from '../locales/messages';

export function StockNews({ instrumentId }: StockSlotProps) {
  const { t } = useTranslation('news');
  const news = useInstrumentNews(instrumentId);
  if (news.isError && !news.data) {
    return (
      <SectionCard title={t('stock.title')}>
        <SectionError message={t('stock.loadFailed')} retryLabel={t('retry')} onRetry={() => void news.refetch()} />
      </SectionCard>
    );
  }
  const items = articlesOf(news.data?.pages);
  if (items.length === 0) return null;
  return (
    <SectionCard title={t('stock.title')}>
      <StockArticles items={items} label={t('stock.title')} />
      {news.hasNextPage && (
        <button
          type="button"
          className="button button--secondary news-card__load"
          disabled={news.isFetchingNextPage}
          aria-busy={news.isFetchingNextPage}
          onClick={() => void news.fetchNextPage()}
        >
          {news.isFetchingNextPage ? t('list.loadingMore') : t('stock.more')}
        </button>
      )}
    </SectionCard>
  );
}

/** The instrument's articles, times kept relative (its clock runs only while shown). */
function StockArticles({ items, label }: { items: ArticleSummary[]; label: string }) {
  const now = useNow();
  return (
    <ul className="news-list news-list--compact" aria-label={label}>
      {items.map((article) => (
        <ArticleRow key={article.id} article={article} now={now} />
      ))}
    </ul>
  );
}
