import { useTranslation } from 'react-i18next';
import { formatMoney, formatPercent } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';

/**
 * Sample figures for the preview card (not real data). Amounts are decimal strings, as
 * everywhere money is handled; the allocation shares are these amounts over the total.
 */
const SAMPLE = {
  totalKrw: '52340000',
  todayKrw: '948200',
  todayPct: '1.84',
  rows: [
    { key: 'domestic', amount: '25123200', currency: 'KRW', sharePct: '48.0' },
    { key: 'overseas', amount: '15841.87', currency: 'USD', sharePct: '41.0' },
    { key: 'cash', amount: '5757400', currency: 'KRW', sharePct: '11.0' },
  ],
} as const;

/** A sample "my portfolio" card that shows what Moat will look like. */
export function PortfolioPreview() {
  const { t } = useTranslation('home');
  const locale = useLocale();
  return (
    <figure className="preview card" aria-label={t('preview.label')}>
      <div className="preview__head">
        <span className="preview__title">{t('preview.title')}</span>
        <span className="preview__chip">{t('preview.label')}</span>
      </div>
      <p className="preview__label">{t('preview.total')}</p>
      <p className="preview__total">{formatMoney(SAMPLE.totalKrw, 'KRW', locale)}</p>
      <p className="preview__change">
        <span className="preview__change-label">{t('preview.today')}</span>
        <span className="preview__rise">
          +{formatMoney(SAMPLE.todayKrw, 'KRW', locale)} ({formatPercent(SAMPLE.todayPct, locale)})
        </span>
      </p>
      <div className="preview__bar" aria-hidden="true">
        {SAMPLE.rows.map((row) => (
          <span key={row.key} className={`preview__seg preview__seg--${row.key}`} />
        ))}
      </div>
      <ul className="preview__rows">
        {SAMPLE.rows.map((row) => (
          <li key={row.key} className="preview__row">
            <span className={`preview__dot preview__dot--${row.key}`} aria-hidden="true" />
            <span className="preview__row-name">{t(`preview.${row.key}`)}</span>
            <span className="preview__row-share">{row.sharePct}%</span>
            <span className="preview__row-amount">{formatMoney(row.amount, row.currency, locale)}</span>
          </li>
        ))}
      </ul>
      <figcaption className="preview__caption">{t('preview.caption')}</figcaption>
    </figure>
  );
}
