import { Suspense } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import type { Slot } from '@/shared/area/types';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import './home.css';

export { messagesReady } from './locales/messages';

export interface HomePageProps {
  /** What the areas put on home (`slots.home`), in order: the member's money, the market, favourites, … */
  sections: readonly Slot[];
}

/** Consecutive half-width sections side by side (on wide screens), the others alone. */
function rows(sections: readonly Slot[]): Slot[][] {
  const out: Slot[][] = [];
  for (const section of sections) {
    const last = out.at(-1);
    if (section.span === 'half' && last?.length === 1 && last[0]!.span === 'half') last.push(section);
    else out.push([section]);
  }
  return out;
}

function Section({ slot }: { slot: Slot }) {
  return (
    <ErrorBoundary>
      <slot.Component />
    </ErrorBoundary>
  );
}

/**
 * `/`: the member's home, assembled from the sections the areas export (their code loads
 * in parallel, started by the route; the frame shows at once and the sections together,
 * so nothing jumps while they arrive).
 */
export function HomePage({ sections }: HomePageProps) {
  const { t } = useTranslation('home');
  usePageMeta({ title: t('meta.title'), description: t('meta.description') });

  return (
    <div className="home">
      <div className="home__head">
        <h1 id="home-title" className="home__title">
          {t('title')}
        </h1>
        <AppLink to="/search" className="home-search" data-testid="home-search">
          <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <circle cx="11" cy="11" r="6.5" />
            <path d="m16 16 4.5 4.5" strokeLinecap="round" />
          </svg>
          <span>{t('searchPlaceholder')}</span>
        </AppLink>
      </div>
      <Suspense fallback={<BoardSkeleton />}>
        <div className="home-board">
          {rows(sections).map((row) =>
            row.length === 1 ? (
              <Section key={row[0]!.id} slot={row[0]!} />
            ) : (
              <div key={row.map((s) => s.id).join('+')} className="home-board__columns">
                {row.map((slot) => (
                  <Section key={slot.id} slot={slot} />
                ))}
              </div>
            ),
          )}
        </div>
      </Suspense>
      <p className="home__disclaimer">{t('disclaimer')}</p>
    </div>
  );
}

/** The sections' outline while their code loads, so nothing moves when they arrive. */
function BoardSkeleton() {
  return (
    <div className="home-skeleton" aria-busy="true">
      <div className="home-skeleton__cards">
        {[0, 1, 2, 3].map((i) => (
          <span key={i} className="home-skeleton__card" />
        ))}
      </div>
      <span className="home-skeleton__panel" />
    </div>
  );
}
