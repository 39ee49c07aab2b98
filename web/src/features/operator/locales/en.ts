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
} satisfies MessageShape<typeof operatorKo>;
