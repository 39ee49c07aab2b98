/**
 * The screens that show several areas, assembled here from the slots the areas export
 * (`slots.home`, `slots.stockSections`, `slots.stockActions`): home and a stock's page.
 * Their layouts are `src/pages/`; which areas fill them is the areas' own business.
 */
import type { Area, Slot } from '@/shared/area/types';
import { lazyComponent } from '@/shared/area/lazy';
import { HomeIcon } from '@/shared/ui/icons';
import { AREAS } from './areas';
import { slotsOf } from './slots';

const homeSections = slotsOf(AREAS, 'home');
const stockSections = slotsOf(AREAS, 'stockSections');
const stockActions = slotsOf(AREAS, 'stockActions');

/** Starts loading slots' code (each keeps its own promise; a failure shows in its own boundary). */
function preload(slots: readonly Pick<Slot, 'preload'>[]): Promise<unknown>[] {
  return slots.map((slot) => slot.preload?.().catch(() => undefined) ?? Promise.resolve());
}

// Home's frame renders at once; its sections' code is requested together with it.
const home = lazyComponent(() => {
  void preload(homeSections);
  return import('@/pages/home/HomePage');
}, 'HomePage');
const Home = home.Component;

/**
 * Starts loading the code of the screen at `pathname` (home: its frame and its sections)
 * before the app first renders, so it downloads while the shell starts instead of after;
 * resolves once it is there (never rejects: a failure shows when the screen renders, in
 * its boundary, as it would without this).
 */
export function preloadScreen(pathname: string): Promise<unknown> {
  if (pathname !== '/') return Promise.resolve();
  return Promise.all([home.preload(), ...preload(homeSections)]).catch(() => undefined);
}

// A stock's page waits for its sections' code, loaded in parallel with its own.
const Stock = lazyComponent(async () => {
  const [page] = await Promise.all([import('@/pages/stock/StockPage'), ...preload([...stockSections, ...stockActions])]);
  return page;
}, 'StockPage').Component;

function HomeRoute() {
  return <Home sections={homeSections} />;
}

function StockRoute() {
  return <Stock sections={stockSections} actions={stockActions} />;
}

/** The app's own routes: home (an area of the navigation) and a stock's page. */
export const screens = {
  id: 'home',
  nav: { to: '/', labelKey: 'nav.home', icon: HomeIcon, order: 10, end: true },
  routes: [
    { path: '/', Page: HomeRoute },
    { path: '/stocks/:id', Page: StockRoute },
  ],
} as const satisfies Area;
