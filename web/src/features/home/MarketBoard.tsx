import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { FavoritesSection } from './FavoritesSection';
import { IndicesSection } from './IndicesSection';
import { MoversSection } from './MoversSection';
import { RecentSection } from './RecentSection';
import './board.css';

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
