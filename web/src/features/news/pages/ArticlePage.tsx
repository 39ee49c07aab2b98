/**
 * `/news/:id`: an article — its title, every outlet that carried it, when it was
 * published, its summary and image, the instruments it names with live prices, and
 * "원문 보기": inside the Moat app's web view through the bridge (the app opens it
 * outside), in a browser a new tab that gets no handle on this page.
 */
import { useParams } from 'react-router';
import { ApiError } from '@/shared/api/client';
import { useBridge } from '@/shared/bridge/BridgeProvider';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { SectionError } from '@/shared/ui/card/SectionError';
import { useArticle } from '../api/article';
import type { Article } from '../api/types';
import { isSameOriginPath } from '../components/ArticleRow';
import { InstrumentChips } from '../components/InstrumentChip';
import { NewsSkeleton } from '../components/PagedArticles';
import { formatDateTime, formatRelativeTime, useNow } from '../lib/time';
import '../components/news.css';

export { messagesReady } from '../locales/messages';

/** The article not found code (docs/news.md). */
const NOT_FOUND = 'news_article_not_found';

/** Whether `url` is a web address (the only originals the page links to). */
export function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** A link that leaves Moat: through the app inside its web view, else a new tab. */
function OutLink({ url, className, children }: { url: string; className?: string; children: string }) {
  const { t } = useTranslation('news');
  const { inWebView, send } = useBridge();
  if (!isWebUrl(url)) return <span className={className}>{children}</span>;
  if (inWebView) {
    return (
      <button type="button" className={className} onClick={() => send({ type: 'DEEP_LINK', payload: { url } })}>
        {children}
      </button>
    );
  }
  return (
    <a href={url} className={className} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> ({t('article.newTab')})</span>
    </a>
  );
}

function NotFound() {
  const { t } = useTranslation('news');
  return (
    <section className="news-note news-not-found" aria-labelledby="news-not-found-title">
      <h1 id="news-not-found-title" className="news-note__title">
        {t('article.notFound')}
      </h1>
      <p className="news-note__detail">{t('article.notFoundBody')}</p>
      <AppLink to="/news" className="button button--secondary">
        {t('article.toList')}
      </AppLink>
    </section>
  );
}

function ArticleView({ article }: { article: Article }) {
  const { t } = useTranslation('news');
  const locale = useLocale();
  const now = useNow();
  const sources = article.sources.length > 0 ? article.sources : [{ name: article.source, url: article.url }];
  return (
    <article className="news-article">
      <h1 className="news-article__title">{article.title}</h1>
      <p className="news-article__meta">
        <span className="visually-hidden">{t('article.published')} </span>
        <time dateTime={article.published_at}>{formatDateTime(article.published_at, locale)}</time>
        <span aria-hidden="true"> · </span>
        <span>{formatRelativeTime(article.published_at, locale, now, t('row.justNow'))}</span>
      </p>
      {isSameOriginPath(article.image_url) && <img className="news-article__image" src={article.image_url} alt="" />}
      {article.summary && <p className="news-article__summary">{article.summary}</p>}
      <OutLink url={article.url} className="button button--primary news-article__original">
        {t('article.original')}
      </OutLink>
      {article.instruments.length > 0 && (
        <section className="news-article__section" aria-labelledby="news-article-instruments">
          <h2 id="news-article-instruments" className="news-article__subtitle">
            {t('article.instruments')}
          </h2>
          <InstrumentChips links={article.instruments} label={t('article.instruments')} />
        </section>
      )}
      <section className="news-article__section" aria-labelledby="news-article-sources">
        <h2 id="news-article-sources" className="news-article__subtitle">
          {t('article.sources')}
        </h2>
        <ul className="news-article__sources">
          {sources.map((source) => (
            <li key={`${source.name}|${source.url}`}>
              <OutLink url={source.url} className="news-article__source">
                {source.name}
              </OutLink>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}

export function ArticlePage() {
  const { t } = useTranslation('news');
  const raw = useParams().id ?? '';
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : null;
  const article = useArticle(id ?? 0, id !== null);
  usePageMeta({ title: article.data ? `${article.data.title} — Moat` : t('meta.title'), description: article.data?.summary ?? t('meta.description') });

  const notFound = id === null || (article.error instanceof ApiError && (article.error.status === 404 || article.error.code === NOT_FOUND));
  return (
    <div className="news-page">
      <AppLink to="/news" className="news-back">
        <span aria-hidden="true">←</span> {t('article.back')}
      </AppLink>
      {notFound ? (
        <NotFound />
      ) : article.isError ? (
        <SectionError message={t('article.loadFailed')} retryLabel={t('retry')} onRetry={() => void article.refetch()} />
      ) : article.data ? (
        <ArticleView article={article.data} />
      ) : (
        <NewsSkeleton rows={3} />
      )}
    </div>
  );
}
