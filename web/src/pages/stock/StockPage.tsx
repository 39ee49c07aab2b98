import { Suspense, useEffect } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useParams } from 'react-router';
import { useInstrument } from '@/entities/instrument/api/instrument';
import { instrumentNames, isInstrumentId } from '@/entities/instrument/model/ids';
import { addRecentStock } from '@/entities/instrument/model/recent';
import { PriceHeader } from '@/entities/instrument/ui/PriceHeader';
import { ApiError } from '@/shared/api/client';
import type { Slot, StockSlotProps } from '@/shared/area/types';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import './stock-page.css';

export { messagesReady } from './locales/messages';

export interface StockPageProps {
  /** What the areas put under the price (`slots.stockSections`): the chart, key figures, … */
  sections: readonly Slot<StockSlotProps>[];
  /** What the areas put beside the name (`slots.stockActions`): the favourite star, … */
  actions: readonly Slot<StockSlotProps>[];
}

/**
 * `/stocks/:id` (`KRX:005930`, the colon as is or `%3A`): the instrument's price header,
 * then the sections the areas export for it, each told only the instrument's id (its
 * details are in the query cache).
 */
export function StockPage(props: StockPageProps) {
  const { id = '' } = useParams();
  const valid = isInstrumentId(id);
  return valid ? <Stock key={id} id={id} {...props} /> : <StockNotFound />;
}

function Stock({ id, sections, actions }: StockPageProps & { id: string }) {
  const { t } = useTranslation('stockPage');
  const locale = useLocale();
  const detail = useInstrument(id);
  const instrument = detail.data;
  const names = instrument ? instrumentNames(instrument, locale) : undefined;
  usePageMeta(
    instrument && names
      ? {
          title: t('meta.title', { name: names.primary, ticker: instrument.ticker }),
          description: t('meta.description', { name: names.primary, ticker: instrument.ticker }),
        }
      : { title: t('meta.fallbackTitle'), description: t('meta.fallbackDescription') },
  );

  // A visit counts once the instrument is known to exist.
  const found = instrument !== undefined;
  useEffect(() => {
    if (found) addRecentStock(id);
  }, [found, id]);

  if (detail.isError) {
    const status = detail.error instanceof ApiError ? detail.error.status : 0;
    if (status === 404 || status === 422) return <StockNotFound />;
    return (
      <div className="stock stock--error" role="alert">
        <p>{t('loadFailed')}</p>
        <button type="button" className="button button--secondary" onClick={() => void detail.refetch()}>
          {t('retry')}
        </button>
      </div>
    );
  }
  if (!instrument) return <StockSkeleton />;

  return (
    <div className="stock" data-testid="stock-page">
      <PriceHeader
        instrument={instrument}
        actions={
          <div className="stock__actions">
            {actions.map((slot) => (
              <ErrorBoundary key={slot.id} fallback={() => null}>
                <Suspense fallback={null}>
                  <slot.Component instrumentId={id} />
                </Suspense>
              </ErrorBoundary>
            ))}
          </div>
        }
      />
      <Suspense fallback={<span className="stock-skeleton stock-skeleton--chart" />}>
        {sections.map((slot) => (
          <ErrorBoundary key={slot.id}>
            <slot.Component instrumentId={id} />
          </ErrorBoundary>
        ))}
      </Suspense>
    </div>
  );
}

function StockSkeleton() {
  return (
    <div className="stock stock--loading" aria-busy="true">
      <span className="stock-skeleton stock-skeleton--title" />
      <span className="stock-skeleton stock-skeleton--price" />
      <span className="stock-skeleton stock-skeleton--chart" />
    </div>
  );
}

function StockNotFound() {
  const { t } = useTranslation('stockPage');
  usePageMeta({ title: t('meta.fallbackTitle'), description: t('meta.fallbackDescription') });
  return (
    <div className="stock stock--not-found" data-testid="stock-not-found">
      <h1 className="stock-not-found__title">{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <AppLink to="/search" className="button button--primary">
        {t('notFound.search')}
      </AppLink>
    </div>
  );
}
