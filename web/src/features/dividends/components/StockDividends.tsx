/**
 * A stock's page (slot `stockSections`): the instrument's dividends, a year back to a
 * year ahead, newest first, the ones to come marked. Indices and currencies have none,
 * and show nothing.
 */
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useInstrument } from '@/entities/instrument/api/instrument';
import type { StockSlotProps } from '@/shared/area/types';
import { formatUnitAmount } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { SectionCard } from '@/shared/ui/card/SectionCard';
import { SectionError } from '@/shared/ui/card/SectionError';
import { useInstrumentDividends } from '../api/instrument-dividends';
import { today } from '../lib/dates';
import { formatShortDate } from '../lib/format';
import './stock-dividends.css';

export { messagesReady } from '../locales/messages';

export function StockDividends({ instrumentId }: StockSlotProps) {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  const instrument = useInstrument(instrumentId).data;
  const payer = instrument?.kind === 'stock' || instrument?.kind === 'etf';
  const list = useInstrumentDividends(instrumentId);
  if (!payer) return null;
  const now = today();
  const rows = [...(list.data ?? [])].sort((a, b) => b.ex_date.localeCompare(a.ex_date));

  return (
    <SectionCard title={t('stock.title')}>
      {list.isError ? (
        <SectionError message={t('stock.loadFailed')} retryLabel={t('stock.retry')} onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <div className="stock-dividends__loading" aria-busy="true" />
      ) : rows.length === 0 ? (
        <p className="stock-dividends__empty">{t('stock.empty')}</p>
      ) : (
        <table className="stock-dividends">
          <thead>
            <tr>
              <th scope="col">{t('stock.exDate')}</th>
              <th scope="col">{t('stock.payDate')}</th>
              <th scope="col" className="stock-dividends__num">
                {t('stock.perShare')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.ex_date}>
                <td>
                  <span className="stock-dividends__date">{formatShortDate(d.ex_date, locale)}</span>
                  {d.ex_date > now && <span className="stock-dividends__badge">{t('stock.upcoming')}</span>}
                </td>
                <td>{d.pay_date ? <span className="stock-dividends__date">{formatShortDate(d.pay_date, locale)}</span> : t('stock.notAnnounced')}</td>
                <td className="stock-dividends__num">{formatUnitAmount(d.amount, d.currency, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </SectionCard>
  );
}
