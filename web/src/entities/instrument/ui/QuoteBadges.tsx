import { useTranslation } from '@/shared/i18n/useTranslation';
import type { Quote } from '../api/types';
import './market.css';

export interface QuoteBadgesProps {
  quote: Pick<Quote, 'state' | 'simulated'>;
  /** `false` leaves "simulated" to a badge of the whole section. */
  showSimulated?: boolean;
  /** The short label ("Simulated"), for a section heading that shares a line. */
  compact?: boolean;
}

/** "Simulated data" and, unless live, the quote's state (delayed, not updating, closed). */
export function QuoteBadges({ quote, showSimulated = true, compact = false }: QuoteBadgesProps) {
  const { t } = useTranslation('market');
  const { state } = quote;
  const simulated = showSimulated && quote.simulated;
  if (!simulated && state === 'live') return null;
  return (
    <span className="market-badges" data-testid="quote-badges">
      {simulated && (
        <span className="market-badge market-badge--simulated" title={t('simulatedHint')}>
          {t(compact ? 'simulatedShort' : 'simulated')}
        </span>
      )}
      {state !== 'live' && (
        <span className={`market-badge market-badge--${state}`} title={t(`stateHint.${state}`)}>
          {t(`state.${state}`)}
        </span>
      )}
    </span>
  );
}
