import type { MessageShape } from '@/shared/i18n/types';
import type { operatorKo } from './ko';

/** English messages of the operator's market-data view. */
export const operatorEn = {
  meta: {
    title: 'Market data providers — Moat operator',
    description: 'The provider of each market, with its last success and error.',
  },
  title: 'Market data providers',
  lead: 'Which provider serves each market, and when it last succeeded and failed. Change them under [market] in the configuration file.',
  market: {
    krx: 'Korea (KRX)',
    us: 'United States (NYSE, NASDAQ)',
    fx: 'Currencies',
    crypto: 'Crypto',
  },
  provider: {
    simulator: 'Simulator',
    yahoo: 'Yahoo Finance',
    alpha_vantage: 'Alpha Vantage',
    ecb: 'European Central Bank',
  },
  columns: { market: 'Market', provider: 'Provider', lastSuccess: 'Last success', lastError: 'Last error' },
  server: {
    title: 'Server',
    version: 'Version',
    time: 'Server time',
    webviewHost: 'Web-view test page',
    webviewHostOpen: 'Open',
    webviewHostOff: 'Off (webview_host in the configuration)',
    error: 'The server information could not be loaded.',
  },
  never: 'Never',
  forbidden: 'Only operators can see this page.',
  loadError: 'Could not load the providers’ status.',
  retry: 'Try again',
  branding: {
    meta: {
      title: 'Branding — Moat operator',
      description: 'Change the header logo and the link-preview image.',
    },
    title: 'Branding',
    lead: 'Upload the logo shown in the header and the image shown when a link is shared. PNG, JPEG or WebP, up to 2 MB.',
    logo: {
      title: 'Logo',
      hint: 'A square image fits best. Without one, the Moat mark is shown.',
      preview: 'Current logo',
    },
    shareCard: {
      title: 'Share image',
      hint: '1200 × 630 fits best. Without one, the built-in share image is used.',
      preview: 'Current share image',
    },
    choose: 'Image file',
    remove: 'Back to the default',
    none: 'No image uploaded (the default is used).',
    saved: 'Saved.',
    removed: 'Back to the default.',
  },
} satisfies MessageShape<typeof operatorKo>;
