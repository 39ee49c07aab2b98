/** The operator's pages (`/operator/*`): market data providers and the observability console. */
import type { Area } from '@/shared/area/types';
import { lazyPage } from '@/shared/area/lazy';

export type { operatorKo as OperatorMessages } from './locales/ko';
export type { observeKo as ObserveMessages } from './locales/observe/ko';

export const operatorArea = {
  id: 'operator',
  // One chunk, routed inside, so the route table carries a single entry for it.
  routes: [{ path: '/operator/*', Page: lazyPage(() => import('./pages/OperatorRoutes'), 'OperatorRoutes') }],
} as const satisfies Area;
