/**
 * The plain-language explanation of why a period's returns differ, worded from the
 * server's `explanation.code` and its numbers (docs/portfolio.md). The sentences never
 * name an amount, so they read the same when amounts are hidden.
 */
import { formatNumber } from '@/shared/i18n/format';
import type { Locale } from '@/shared/lib/storage';
import { toBig } from '@/shared/lib/money';
import type { Explanation } from './api-types';
import { formatShare, formatTradeDate, formatWeight } from './format';
import type { PortfolioT } from './messages';

/** A flow at least this share (per cent) of the money at work is "most of your money". */
const MOST_PERCENT = 50;

type FlowCode = 'added_before_rise' | 'added_before_fall' | 'withdrew_before_rise' | 'withdrew_before_fall';

const isFlowCode = (code: string): code is FlowCode =>
  code === 'added_before_rise' || code === 'added_before_fall' || code === 'withdrew_before_rise' || code === 'withdrew_before_fall';

/** The explanation's sentences (one or two). */
export function explanationText(t: PortfolioT, explanation: Explanation, locale: Locale): string[] {
  const { code } = explanation;
  if (!isFlowCode(code)) {
    if (code === 'no_flows' || code === 'similar' || code === 'mwr_unavailable') return [t(`performance.explanation.${code}`)];
    return [];
  }
  const date = explanation.flow_date
    ? formatTradeDate(explanation.flow_date, locale, { month: 'long', day: 'numeric' })
    : '';
  const share = explanation.flow_share ?? null;
  const variant = share === null ? 'plain' : toBig(share).abs().gte(MOST_PERCENT) ? 'most' : 'part';
  const first = t(`performance.explanation.${code}.${variant}`, {
    date,
    share: share === null ? '' : formatShare(share, locale),
  });
  const sentences = [first];
  const after = explanation.return_after_flow;
  if (after != null && !toBig(after).eq(0)) {
    const amount = formatWeight(toBig(after).abs().toFixed(), locale, 1);
    sentences.push(t(toBig(after).gt(0) ? 'performance.explanation.afterRise' : 'performance.explanation.afterFall', { after: amount }));
  }
  const difference = explanation.difference;
  if (difference != null) {
    sentences.push(
      t('performance.explanation.difference', {
        difference: formatNumber(difference, locale, { signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2, roundingMode: 'halfExpand' }),
      }),
    );
  }
  return sentences;
}
