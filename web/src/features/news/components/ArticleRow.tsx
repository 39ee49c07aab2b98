/**
 * One article in a list: its title (two lines at most), the outlet, "외 N곳" when others
 * carried it too, how long ago, a thumbnail when it has one, and the instruments it names
 * with their live change. The whole row opens the article; the chips open their stocks.
 */
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import type { ArticleSummary } from '../api/types';
import { splitByTerms } from '../lib/highlight';
import { formatRelativeTime } from '../lib/time';
import { InstrumentChips, ROW_CHIPS_MAX } from './InstrumentChip';

/** A thumbnail's side, in CSS pixels (fixed, so nothing moves when it loads). */
export const THUMB_PX = 72;

/** `text`, with each match of `pattern` in `<mark>`. */
export function Highlighted({ text, pattern }: { text: string; pattern?: RegExp | null | undefined }) {
  if (!pattern) return text;
  return splitByTerms(text, pattern).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text));
}

/** Whether `url` is a path of this site (`/media/news/…`), the only images rows show. */
export function isSameOriginPath(url: string | null | undefined): url is string {
  return url != null && url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}

export interface ArticleRowProps {
  article: ArticleSummary;
  /** The time now (one clock for the whole list). */
  now: number;
  /** Search results: the summary too, and the matched words marked. */
  withSummary?: boolean;
  highlight?: RegExp | null;
  /** Called when the article is opened (a search is recorded then). */
  onOpen?: () => void;
}

export function ArticleRow({ article, now, withSummary = false, highlight, onOpen }: ArticleRowProps) {
  const { t } = useTranslation('news');
  const locale = useLocale();
  return (
    <li className="news-row">
      <div className="news-row__text">
        <h3 className="news-row__title">
          <AppLink to={`/news/${article.id}`} className="news-row__link" onClick={onOpen}>
            <Highlighted text={article.title} pattern={highlight} />
          </AppLink>
        </h3>
        {withSummary && article.summary && (
          <p className="news-row__summary">
            <Highlighted text={article.summary} pattern={highlight} />
          </p>
        )}
        <p className="news-row__meta">
          <span className="news-row__source">{article.source}</span>
          {article.source_count > 1 && <span> {t('row.otherSources', { count: article.source_count - 1 })}</span>}
          <span aria-hidden="true"> · </span>
          <time dateTime={article.published_at}>{formatRelativeTime(article.published_at, locale, now, t('row.justNow'))}</time>
        </p>
        <InstrumentChips links={article.instruments} label={t('row.related')} max={ROW_CHIPS_MAX} />
      </div>
      {isSameOriginPath(article.image_url) && (
        <img className="news-row__thumb" src={article.image_url} alt="" width={THUMB_PX} height={THUMB_PX} loading="lazy" decoding="async" />
      )}
    </li>
  );
}
