import { useTranslation } from '@/shared/i18n/useTranslation';
import { useInstrument } from '@/entities/instrument/api/instrument';
import { useRecentStocks } from '@/entities/instrument/model/recent';
import { InstrumentRow } from '@/entities/instrument/ui/InstrumentRow';
import { AppLink } from '@/shared/ui/AppLink';
import { SectionCard } from '@/shared/ui/card/SectionCard';

/** Recently viewed stocks shown on the home page; all of them are on the search page. */
const HOME_RECENT_SHOWN = 5;

export { messagesReady } from '../locales/messages';

/** Home's section of the stocks whose pages were opened last (nothing when there are none). */
export function HomeRecent() {
  const { t } = useTranslation('search');
  const recent = useRecentStocks();
  if (recent.length === 0) return null;
  return (
    <SectionCard
      title={t('recent.title')}
      testId="home-recent"
      actions={
        recent.length > HOME_RECENT_SHOWN && (
          <AppLink to="/search" className="section-card__link">
            {t('recent.all')}
          </AppLink>
        )
      }
    >
      <ul className="instrument-list">
        {recent.slice(0, HOME_RECENT_SHOWN).map((id) => (
          <RecentRow key={id} id={id} />
        ))}
      </ul>
    </SectionCard>
  );
}

function RecentRow({ id }: { id: string }) {
  const detail = useInstrument(id);
  // An instrument that no longer exists simply drops out.
  if (detail.isError) return null;
  if (!detail.data) return <li className="instrument-row instrument-row--loading" aria-busy="true" />;
  return <InstrumentRow instrument={detail.data} quote={detail.data.quote ?? undefined} />;
}
