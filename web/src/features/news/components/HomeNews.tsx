/**
 * Home (slot `home`): 주요 뉴스, the newest stories of the chosen country
 * (`MOAT_NEWS_COUNTRY`), and the way to the news page. Never an empty card: without
 * articles it says why (feeds unreachable; not set up, to operators), or shows nothing.
 */
import { useTranslation } from '@/shared/i18n/useTranslation';
import { AppLink } from '@/shared/ui/AppLink';
import { SectionCard } from '@/shared/ui/card/SectionCard';
import { SectionError } from '@/shared/ui/card/SectionError';
import { useTopNews } from '../api/news';
import type { NewsList } from '../api/types';
import { useNewsCountry } from '../lib/country';
import { useNow } from '../lib/time';
import { ArticleRow } from './ArticleRow';
import { NewsSkeleton } from './PagedArticles';
import { StatusNote, useIsOperator } from './StatusNote';
import './news.css';

export { messagesReady } from '../locales/messages';

export function HomeNews() {
  const { t } = useTranslation('news');
  const [country] = useNewsCountry();
  const news = useTopNews(country);
  const operator = useIsOperator();
  const title = t('home.title');
  const more = (
    <AppLink to="/news" className="news-card__more">
      {t('home.more')}
    </AppLink>
  );

  if (news.isPending) {
    return (
      <SectionCard title={title}>
        <NewsSkeleton rows={3} />
      </SectionCard>
    );
  }
  if (news.isError) {
    return (
      <SectionCard title={title}>
        <SectionError message={t('loadFailed')} retryLabel={t('retry')} onRetry={() => void news.refetch()} />
      </SectionCard>
    );
  }
  const { items, status } = news.data;
  if (items.length === 0) {
    // Nothing to read: only a problem worth knowing about earns a card.
    const worthSaying = status.state === 'unreachable' || (status.state === 'not_configured' && operator);
    if (!worthSaying) return null;
    return (
      <SectionCard title={title}>
        <StatusNote status={status} hasItems={false} />
      </SectionCard>
    );
  }
  return (
    <SectionCard title={title} actions={more}>
      <StatusNote status={status} hasItems />
      <TopStories items={items} label={title} />
    </SectionCard>
  );
}

/** The stories, with times kept relative (its clock runs only while there is a list). */
function TopStories({ items, label }: { items: NewsList['items']; label: string }) {
  const now = useNow();
  return (
    <ul className="news-list news-list--compact" aria-label={label}>
      {items.map((article) => (
        <ArticleRow key={article.id} article={article} now={now} />
      ))}
    </ul>
  );
}
