import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { FavoritesSection } from '@/features/favorites/components/HomeFavorites';
import { IndicesSection } from '@/features/overview/components/IndicesSection';
import { MoversSection } from '@/features/overview/components/MoversSection';
import { RecentSection } from '@/features/search/components/HomeRecent';
import '@/features/overview/components/overview.css';

/** The home page's live parts, each on its own so one failing leaves the others working. */
export function MarketBoard() {
  return (
    <div className="board">
      <ErrorBoundary>
        <IndicesSection />
      </ErrorBoundary>
      <div className="board__columns">
        <ErrorBoundary>
          <FavoritesSection />
        </ErrorBoundary>
        <ErrorBoundary>
          <MoversSection />
        </ErrorBoundary>
      </div>
      <ErrorBoundary>
        <RecentSection />
      </ErrorBoundary>
    </div>
  );
}
