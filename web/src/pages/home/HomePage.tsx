import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import './home.css';

export { messagesReady } from './locales/messages';

// The board (prices, favourites, movers) and the API client it needs load as their own
// chunk, requested as soon as this module runs: the page's frame shows at once and the
// first page stays within its size budget (README, `npm run size`).
const boardModule = import('./MarketBoard');
const MarketBoard = lazy(() => boardModule.then((m) => ({ default: m.MarketBoard })));

/** The market home: indices and FX, the member's favourites, top movers, recently viewed stocks. */
export function HomePage() {
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
      <ErrorBoundary>
        <Suspense fallback={<BoardSkeleton />}>
          <MarketBoard />
        </Suspense>
      </ErrorBoundary>
      <p className="home__disclaimer">{t('disclaimer')}</p>
    </div>
  );
}

/** The board's outline while its code loads, so nothing moves when it arrives. */
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
