import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { InstrumentRow } from '@/entities/instrument/ui/InstrumentRow';
import { QuoteBadges } from '@/entities/instrument/ui/QuoteBadges';
import { SectionCard } from '@/shared/ui/card/SectionCard';
import { useMarketOverview } from '../api/overview';
import './overview.css';
import { LoadError } from '@/entities/instrument/ui/LoadError';

/** Rows shown per tab. */
const MOVERS_SHOWN = 5;
const TABS = ['gainers', 'losers'] as const;
type Tab = (typeof TABS)[number];

export { messagesReady } from '../locales/messages';

/** The day's top gainers and losers, as two tabs. */
export function MoversSection() {
  const { t } = useTranslation('overview');
  const overview = useMarketOverview();
  const [tab, setTab] = useState<Tab>('gainers');
  const id = useId();
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ gainers: null, losers: null });
  const rows = overview.data?.movers[tab].slice(0, MOVERS_SHOWN) ?? [];
  const simulated = rows.find((r) => r.simulated);

  const onKeyDown = (event: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    const next =
      event.key === 'ArrowRight' ? TABS[(i + 1) % TABS.length] :
      event.key === 'ArrowLeft' ? TABS[(i + TABS.length - 1) % TABS.length] :
      event.key === 'Home' ? TABS[0] :
      event.key === 'End' ? TABS[TABS.length - 1] : undefined;
    if (!next) return;
    event.preventDefault();
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <SectionCard title={t('movers.title')} testId="movers" actions={simulated && <QuoteBadges quote={{ simulated: true, state: 'live' }} compact />}>
      <div className="tabs" role="tablist" aria-label={t('movers.title')}>
        {TABS.map((name) => (
          <button
            key={name}
            ref={(el) => {
              tabRefs.current[name] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-${name}`}
            className="tabs__tab"
            aria-selected={tab === name}
            aria-controls={`${id}-panel`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            onKeyDown={onKeyDown}
          >
            {t(`movers.${name}`)}
          </button>
        ))}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-${tab}`}>
        {overview.isError ? (
          <LoadError onRetry={() => void overview.refetch()} />
        ) : !overview.data ? (
          <div className="section-card__loading" aria-busy="true" />
        ) : rows.length === 0 ? (
          <p className="section-card__empty">{t('movers.empty')}</p>
        ) : (
          <ol className="instrument-list">
            {rows.map((item) => (
              <InstrumentRow key={item.id} instrument={item} quote={item} />
            ))}
          </ol>
        )}
      </div>
    </SectionCard>
  );
}
