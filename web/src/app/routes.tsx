import { Route, Routes } from 'react-router';
import { lazyPage } from '@/shared/area/lazy';
import { APP_AREAS } from './app-areas';
import { RouteBoundary } from './RouteBoundary';

const ROUTES = APP_AREAS.flatMap((area) => area.routes ?? []);

const NotFoundPage = lazyPage(() => import('@/pages/not-found/NotFoundPage'), 'NotFoundPage');

/** Every area's routes (`app/areas.ts`), each behind its own error boundary; anything else is the 404 page. */
export function AppRoutes() {
  return (
    <Routes>
      {ROUTES.map(({ path, Page }) => (
        <Route key={path} path={path} element={<RouteBoundary><Page /></RouteBoundary>} />
      ))}
      <Route path="*" element={<RouteBoundary><NotFoundPage /></RouteBoundary>} />
    </Routes>
  );
}
