import { useTranslation } from '@/shared/i18n/useTranslation';
import type { Instrument } from '../api/types';
import './market.css';

export interface ExchangeBadgeProps {
  instrument: Pick<Instrument, 'exchange' | 'board'>;
}

/** The market a stock trades on: its board for Korean stocks (KOSPI, KOSDAQ), else the exchange. */
export function ExchangeBadge({ instrument }: ExchangeBadgeProps) {
  const { t } = useTranslation('market');
  return (
    <span className="market-badge market-badge--exchange">{instrument.board ?? t(`exchange.${instrument.exchange}`)}</span>
  );
}
