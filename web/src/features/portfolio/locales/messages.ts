import { errorMessagesReady } from '@/shared/api/locales/messages';
import { useMemo } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { registerMessages, type AreaNamespace } from '@/shared/i18n/i18n';
import { marketMessagesReady } from '@/entities/instrument/locales/messages';
import { portfolioKo } from './ko';

/** The i18next namespace of the portfolio screens. */
export const PORTFOLIO_NS = 'portfolio';

// Until `src/app/i18next.d.ts` lists `portfolio: typeof portfolioKo`, the namespace is not
// one i18next's types know; it is registered and read through the typed helpers below,
// which check keys against the Korean source messages all the same.
const NS = PORTFOLIO_NS as AreaNamespace;

/** The portfolio screens' texts (and the shared market texts); English loads only when chosen. */
export const messagesReady = Promise.all([
  registerMessages(NS, {
    ko: portfolioKo,
    en: () => import('./en').then((m) => m.portfolioEn),
  } as never),
  marketMessagesReady,
  errorMessagesReady,
]).then(() => undefined);

/** Every message key of the namespace as a dotted path (`holdings.sortKeys.value`). */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

export type PortfolioKey = Leaves<typeof portfolioKo>;
export type PortfolioT = (key: PortfolioKey, values?: Record<string, string | number>) => string;

/** `t` of the `portfolio` namespace in the current language; components re-render when it changes. */
export function usePortfolioT(): PortfolioT {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    const fixed = i18n.getFixedT(language, NS) as unknown as (key: string, values?: object) => string;
    return (key, values) => fixed(key, values);
  }, [i18n, language]);
}
