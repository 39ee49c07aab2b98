/**
 * The plain-language explanation of why a period's returns differ, worded from the
 * server's `explanation.code` and its numbers (docs/portfolio.md). The sentences never
 * name an amount, so they read the same when amounts are hidden.
 *
 * The words must agree with the numbers printed beside them: "higher" only over a
 * positive difference (MWR − TWR), "lower" only over a negative one, "rose"/"fell" only
 * after a rise or a fall. The server guarantees this for its codes; an answer that breaks
 * it (an older server, a future code) falls back to the sentence the difference's sign
 * alone supports, so a contradiction is never shown.
 */
import Big from 'big.js';
import { formatNumber, formatRate } from '@/shared/i18n/format';
import type { Locale } from '@/shared/lib/storage';
import { toBig } from '@/shared/lib/money';
import { formatShare, formatTradeDate } from './format';
import type { PortfolioT } from '../locales/messages';
import type { Explanation, ExplanationCode } from '../api/performance';

/** A flow at least this share (per cent) of the money at work is "most of your money". */
const MOST_PERCENT = 50;

/**
 * Differences smaller than this (percentage points) are "close": the server's
 * `moat_portfolio::performance::EXPLANATION_TOLERANCE` (0.005) in per cent. A `similar`
 * or `no_flows` beyond it would contradict its number.
 */
export const SIMILAR_PERCENT_POINTS = 0.5;

/** The places the difference is printed with; its sign is read after this rounding. */
const DIFFERENCE_DECIMALS = 2;

type FlowCode = 'added_before_rise' | 'added_before_fall' | 'withdrew_before_rise' | 'withdrew_before_fall';

const FLOW_CODES: Readonly<Record<FlowCode, { direction: 1 | -1; market: 1 | -1 }>> = {
  added_before_rise: { direction: 1, market: 1 },
  added_before_fall: { direction: -1, market: -1 },
  withdrew_before_rise: { direction: -1, market: 1 },
  withdrew_before_fall: { direction: 1, market: -1 },
};

const isFlowCode = (code: string): code is FlowCode => Object.hasOwn(FLOW_CODES, code);

/** The sign of MWR − TWR a code states: 1 above, −1 below, 0 for none (as the server's `ExplanationCode::direction`). */
export function codeDirection(code: ExplanationCode | string): -1 | 0 | 1 {
  if (isFlowCode(code)) return FLOW_CODES[code].direction;
  if (code === 'mwr_above') return 1;
  if (code === 'mwr_below') return -1;
  return 0;
}

/** `-1`, `0` or `1`: the sign of `value` as printed with `decimals` places. */
function printedSign(value: string, decimals: number): -1 | 0 | 1 {
  const rounded = toBig(value).round(decimals, Big.roundHalfUp);
  return rounded.eq(0) ? 0 : rounded.gt(0) ? 1 : -1;
}

/** The difference as the last sentence prints it: `+1.23`, `-0.66`, `0.00`. */
function formatDifference(difference: string, locale: Locale): string {
  return formatNumber(difference, locale, {
    signDisplay: 'exceptZero',
    minimumFractionDigits: DIFFERENCE_DECIMALS,
    maximumFractionDigits: DIFFERENCE_DECIMALS,
    roundingMode: 'halfExpand',
  });
}

/**
 * The code whose sentence agrees with the numbers: the server's own when it does, else
 * the one the difference's sign supports (`mwr_above`, `mwr_below`, or `similar` when it
 * prints as zero). Without a difference only the code's own words are left.
 */
export function agreeingCode(explanation: Explanation): ExplanationCode | undefined {
  const { code, difference } = explanation;
  const known = isFlowCode(code) || ['no_flows', 'similar', 'mwr_above', 'mwr_below', 'mwr_unavailable'].includes(code);
  if (difference == null) return known ? code : undefined;
  const sign = printedSign(difference, DIFFERENCE_DECIMALS);
  const bySign: ExplanationCode = sign > 0 ? 'mwr_above' : sign < 0 ? 'mwr_below' : 'similar';
  if (code === 'no_flows' || code === 'similar') {
    return toBig(difference).abs().lt(SIMILAR_PERCENT_POINTS) ? code : bySign;
  }
  if (code === 'mwr_above' || code === 'mwr_below') return codeDirection(code) === sign ? code : bySign;
  if (isFlowCode(code)) {
    const after = explanation.return_after_flow;
    // "Before a rise" needs a rise after the flow (its size is printed separately).
    const marketAgrees = after == null || toBig(after).cmp(0) === FLOW_CODES[code].market;
    return codeDirection(code) === sign && marketAgrees ? code : bySign;
  }
  // `mwr_unavailable` beside a difference, or a code this app does not know.
  return bySign;
}

/** The explanation's sentences (one to three). */
export function explanationText(t: PortfolioT, explanation: Explanation, locale: Locale): string[] {
  const code = agreeingCode(explanation);
  if (code === undefined) return [];
  const difference = explanation.difference;
  const differenceLine =
    difference == null ? [] : [t('performance.explanation.difference', { difference: formatDifference(difference, locale) })];

  // These say neither higher nor lower, so the difference is not printed beside them.
  if (code === 'no_flows' || code === 'similar' || code === 'mwr_unavailable') return [t(`performance.explanation.${code}`)];
  if (code === 'mwr_above' || code === 'mwr_below') return [t(`performance.explanation.${code}`), ...differenceLine];

  const date = explanation.flow_date ? formatTradeDate(explanation.flow_date, locale, { month: 'long', day: 'numeric' }) : '';
  const share = explanation.flow_share ?? null;
  const variant = share === null ? 'plain' : toBig(share).abs().gte(MOST_PERCENT) ? 'most' : 'part';
  const sentences = [
    t(`performance.explanation.${code}.${variant}`, {
      date,
      share: share === null ? '' : formatShare(share, locale),
    }),
  ];
  const after = explanation.return_after_flow;
  if (after != null && printedSign(after, 1) !== 0) {
    const amount = formatRate(toBig(after).abs().toFixed(), locale, 1);
    sentences.push(t(toBig(after).gt(0) ? 'performance.explanation.afterRise' : 'performance.explanation.afterFall', { after: amount }));
  }
  return [...sentences, ...differenceLine];
}
