import type { Messages } from './ko';

/** English shell messages. Loaded on demand (a separate chunk), so Korean readers never download them. */
export const en = {
  app: {
    name: 'Moat',
    skipToContent: 'Skip to content',
  },
  nav: {
    label: 'Main menu',
    home: 'Home',
    portfolios: 'Portfolio',
    news: 'News',
    dividends: 'Dividends',
    favorites: 'Favourites',
    settings: 'Settings',
    all: 'All',
    allTitle: 'Everything in Moat',
    sections: '{{name}} sections',
  },
  header: {
    search: 'Search stocks',
    language: 'Change language',
    homeLink: 'Moat home',
    login: 'Log in',
    account: 'My account: {{nickname}}',
  },
  meta: {
    notFound: {
      title: 'Page not found — Moat',
      // The site's description, as the server writes it for unknown paths.
      description: 'Every Korean and US portfolio, upcoming dividends, market news, and investor community and stock chat in one place.',
    },
  },
  languagePicker: {
    title: 'Choose language',
    changed: 'Language changed to English.',
  },
  notFound: {
    title: 'Page not found',
    body: 'The address may have changed, or the page does not exist.',
    home: 'Go home',
  },
  errorBoundary: {
    title: 'This screen could not be shown',
    body: 'It may be a temporary problem. Please try again.',
    retry: 'Try again',
  },
  offline: {
    message: 'You are offline. Moat will reload data when the connection is back.',
  },
  toast: {
    dismiss: 'Dismiss notification',
    region: 'Notifications',
  },
  auth: {
    sessionEnded: 'Your session has ended. Please log in again.',
  },
  apiError: {
    generic: 'Something went wrong. Please try again shortly.',
  },
  common: {
    close: 'Close',
  },
  loading: 'Loading…',
} as const satisfies Messages;
