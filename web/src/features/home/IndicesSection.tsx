import { useTranslation } from 'react-i18next';
import type { QuotedInstrument } from '@/shared/market/api-types';
import { formatPrice } from '@/shared/market/format';
import { instrumentNames, stockPath } from '@/shared/market/ids';
import { useLiveQuote } from '@/shared/market/live-quote';
import { useMarketOverview } from '@/shared/market/overview';
import { ChangeText } from '@/shared/market/ui/ChangeText';
import { QuoteBadges } from '@/shared/market/ui/QuoteBadges';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import { LoadError } from './LoadError';

/** KOSPI, KOSDAQ, S&P 500, NASDAQ and USD/KRW as cards with live prices. */
export function IndicesSection() {
  const { t } = useTranslation('home');
  const overview = useMarketOverview();
  const items = overview.data ? [...overview.data.indices, ...overview.data.fx] : [];
  const simulated = items.some((i) => i.simulated);
  return (
    <section className="board-section" aria-labelledby="indices-title" data-testid="indices">
      <div className="board-section__head">
        <h2 id="indices-title" className="board-section__title">
          {t('indices.title')}
        </h2>
        {simulated && <QuoteBadges quote={{ simulated, state: 'live' }} compact />}
      </div>
      {overview.isError ? (
        <LoadError onRetry={() => void overview.refetch()} />
      ) : (
        <ul className="index-cards">
          {overview.data
            ? items.map((item) => <IndexCard key={item.id} item={item} />)
            : [0, 1, 2, 3, 4].map((i) => <li key={i} className="index-card index-card--loading" />)}
        </ul>
      )}
    </section>
  );
}

function IndexCard({ item }: { item: QuotedInstrument }) {
  const locale = useLocale();
  // The overview seeded the cache; the stream keeps it current.
  const quote = useLiveQuote(item.id, { enabled: false }).data ?? item;
  return (
    <li className="index-card">
      <AppLink to={stockPath(item.id)} className="index-card__link" data-testid="index-card">
        <span className="index-card__name">{instrumentNames(item, locale).primary}</span>
        <span className="index-card__price">{formatPrice(quote.price, item, locale)}</span>
        <ChangeText quote={quote} instrument={item} className="index-card__change" />
        <QuoteBadges quote={quote} showSimulated={false} />
      </AppLink>
    </li>
  );
}
