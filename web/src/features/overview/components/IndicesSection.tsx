import { useTranslation } from '@/shared/i18n/useTranslation';
import type { QuotedInstrument } from '@/entities/instrument/api/types';
import { formatPrice } from '@/entities/instrument/model/format';
import { instrumentNames, stockPath } from '@/entities/instrument/model/ids';
import { useLiveQuote } from '@/entities/instrument/api/live-quote';
import { ChangeText } from '@/entities/instrument/ui/ChangeText';
import { QuoteBadges } from '@/entities/instrument/ui/QuoteBadges';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import { SectionCard } from '@/shared/ui/card/SectionCard';
import { useMarketOverview } from '../api/overview';
import './overview.css';
import { LoadError } from '@/entities/instrument/ui/LoadError';

export { messagesReady } from '../locales/messages';

/** KOSPI, KOSDAQ, S&P 500, NASDAQ and USD/KRW as cards with live prices. */
export function IndicesSection() {
  const { t } = useTranslation('overview');
  const overview = useMarketOverview();
  const items = overview.data ? [...overview.data.indices, ...overview.data.fx] : [];
  const simulated = items.some((i) => i.simulated);
  return (
    <SectionCard plain title={t('indices.title')} testId="indices" actions={simulated && <QuoteBadges quote={{ simulated, state: 'live' }} compact />}>
      {overview.isError ? (
        <LoadError onRetry={() => void overview.refetch()} />
      ) : (
        <ul className="index-cards">
          {overview.data
            ? items.map((item) => <IndexCard key={item.id} item={item} />)
            : [0, 1, 2, 3, 4].map((i) => <li key={i} className="index-card index-card--loading" />)}
        </ul>
      )}
    </SectionCard>
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
