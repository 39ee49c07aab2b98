import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './AppProviders';
import { createQueryClient } from './queryClient';
import { Shell } from './Shell';

/** The whole app in the browser. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <BrowserRouter>
      <AppProviders queryClient={queryClient}>
        <Shell />
      </AppProviders>
    </BrowserRouter>
  );
}
