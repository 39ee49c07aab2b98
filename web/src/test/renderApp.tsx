import type { ReactNode } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation, type Location } from 'react-router';
import { AppProviders } from '@/app/AppProviders';
import { Shell } from '@/app/Shell';
import { mockFetch, type FetchHandler } from './fetch';

export interface RenderAppOptions {
  /** The starting URL (path, query, hash). */
  route?: string;
  /** What to render inside the providers; the whole shell by default. */
  ui?: ReactNode;
  /** Answers the app's API calls; the default serves `/api/meta`. */
  api?: FetchHandler;
}

/**
 * Mounts `ui` (the shell by default) with the app's providers and a memory router.
 * Returns Testing Library's result plus the query client and the router's current location.
 */
export function renderApp({ route = '/', ui = <Shell />, api }: RenderAppOptions = {}) {
  const fetchMock = mockFetch(api);
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
  const current: { location: Location | undefined } = { location: undefined };

  function LocationProbe() {
    current.location = useLocation();
    return null;
  }

  const result = render(
    <MemoryRouter initialEntries={[route]}>
      <AppProviders queryClient={queryClient}>
        {ui}
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );

  return {
    ...result,
    queryClient,
    fetchMock,
    /** The router's location now. */
    location(): Location {
      if (!current.location) throw new Error('the router has not rendered');
      return current.location;
    },
  };
}
