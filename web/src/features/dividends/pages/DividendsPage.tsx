import { useTranslation } from '@/shared/i18n/useTranslation';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { DividendCalendar } from '../components/DividendCalendar';
import { MyDividends } from '../components/MyDividends';
import '../components/dividends.css';

export { messagesReady } from '../locales/messages';

/**
 * `/dividends`: the public calendar of ex-dates and pay dates, and for a member their
 * projection, yields, received dividends and entitlements to record (a visitor sees the
 * calendar and an invitation to log in).
 */
export function DividendsPage() {
  const { t } = useTranslation('dividends');
  usePageMeta({ title: t('meta.title'), description: t('meta.description') });
  return (
    <div className="dividends" data-testid="dividends-page">
      <h1 className="dividends__title">{t('title')}</h1>
      <DividendCalendar />
      <MyDividends />
    </div>
  );
}
