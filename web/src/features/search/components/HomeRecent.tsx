import { useTranslation } from 'react-i18next';
import { useInstrument } from '@/entities/instrument/api/instrument';
import { useRecentStocks } from '@/entities/instrument/model/recent';
import { InstrumentRow } from '@/entities/instrument/ui/InstrumentRow';
import { AppLink } from '@/shared/ui/AppLink';

/** Recently viewed stocks shown on the home page; all of them are on the search page. */
const HOME_RECENT_SHOWN = 5;

/** The stocks whose pages were opened last (nothing when there are none). */
export function RecentSection() {
  const { t } = useTranslation('home');
  const recent = useRecentStocks();
  if (recent.length === 0) return null;
  return (
    <section className="board-section card" aria-labelledby="recent-title" data-testid="home-recent">
      <div className="board-section__head">
        <h2 id="recent-title" className="board-section__title">
          {t('recent.title')}
        </h2>
        {recent.length > HOME_RECENT_SHOWN && (
          <AppLink to="/search" className="board-section__link">
            {t('recent.all')}
          </AppLink>
        )}
      </div>
      <ul className="instrument-list">
        {recent.slice(0, HOME_RECENT_SHOWN).map((id) => (
          <RecentRow key={id} id={id} />
        ))}
      </ul>
    </section>
  );
}

function RecentRow({ id }: { id: string }) {
  const detail = useInstrument(id);
  // An instrument that no longer exists simply drops out.
  if (detail.isError) return null;
  if (!detail.data) return <li className="instrument-row instrument-row--loading" aria-busy="true" />;
  return <InstrumentRow instrument={detail.data} quote={detail.data.quote ?? undefined} />;
}
