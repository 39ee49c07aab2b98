import type { MessageShape } from '@/shared/i18n/types';
import type { homeKo } from './ko';

/** English messages of the home area, loaded only when English is chosen. */
export const homeEn = {
  meta: {
    title: 'Moat — all your investing in one place',
    description:
    'Every Korean and US portfolio, upcoming dividends, market news, and investor community and stock chat in one place.',
  },
  eyebrow: 'An investing companion for Korean and US investors',
  title: 'Every portfolio in one place',
  lead: 'Different brokers, different markets — no problem. Bring your holdings, upcoming dividends, market news and other investors’ conversations together in Moat.',
  ctaFeatures: 'See what’s coming',
  ctaSettings: 'Language & settings',
  preview: {
    label: 'Sample screen',
    title: 'My portfolio',
    total: 'Total value',
    today: 'Today',
    domestic: 'Korean stocks',
    overseas: 'US stocks',
    cash: 'Cash',
    caption: 'Sample figures, not real data.',
  },
  featuresTitle: 'Coming to Moat',
  featuresLead: 'We are opening them one at a time.',
  comingSoon: 'Coming soon',
  features: {
    portfolios: {
      title: 'Portfolios',
      body: 'Combine trades from every account: average cost, returns and allocation in won or dollars at a glance.',
    },
    dividends: {
      title: 'Dividends',
      body: 'Upcoming ex-dates and pay dates, and after-tax expected income, on a monthly calendar.',
    },
    news: {
      title: 'News',
      body: 'Market news from Korea and the US, linked to the stocks you hold.',
    },
    community: {
      title: 'Community & stock chat',
      body: 'Share posts with other investors and talk in a live chat room for every stock.',
    },
  },
  selfHost: {
    title: 'Run it yourself',
    body: 'Moat is a single executable. It uses an embedded SQLite database by default and moves to PostgreSQL when you outgrow one machine. Your investing records stay on your server.',
    points: {
      binary: 'One executable',
      sqlite: 'Embedded SQLite',
      postgres: 'Scales to PostgreSQL',
    },
  },
  disclaimer: 'Moat does not give investment advice. Every investment decision, and its risk, is your own.',
} as const satisfies MessageShape<typeof homeKo>;
