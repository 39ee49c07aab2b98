import { renderHook } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import { codeDirection, explanationText } from './explain';
import { messagesReady, usePortfolioT } from '../locales/messages';
import type { Explanation, ExplanationCode } from '../api/performance';

beforeAll(async () => {
  await messagesReady;
});

const words = (explanation: Explanation, locale: 'ko' | 'en') => {
  const { result } = renderHook(() => usePortfolioT());
  return explanationText(result.current, explanation, locale);
};

const addedBeforeFall: Explanation = {
  code: 'added_before_fall',
  difference: '-7.6',
  flow_date: '2026-03-03',
  flow_amount: '2300000',
  flow_share: '70',
  return_after_flow: '-8.57',
};

const withdrewBeforeRise: Explanation = {
  code: 'withdrew_before_rise',
  difference: '-2.1234',
  flow_date: '2026-06-15',
  flow_amount: '-500000',
  flow_share: '25',
  return_after_flow: '12',
};

describe('returns explanation', () => {
  it('in Korean', () => {
    expect(words(addedBeforeFall, 'ko')).toEqual([
      '3월 3일, 하락 직전에 투자금의 대부분(70%)을 넣어서 금액가중수익률이 시간가중수익률보다 낮습니다.',
      '그 뒤 포트폴리오는 8.6% 내렸습니다.',
      '금액가중수익률 − 시간가중수익률: -7.60%p',
    ]);
    expect(words(withdrewBeforeRise, 'ko')).toEqual([
      '6월 15일, 상승 직전에 투자금의 일부(25%)를 빼서 금액가중수익률이 시간가중수익률보다 낮습니다.',
      '그 뒤 포트폴리오는 12.0% 올랐습니다.',
      '금액가중수익률 − 시간가중수익률: -2.12%p',
    ]);
    expect(words({ code: 'added_before_rise', flow_date: '2026-01-05' }, 'ko')).toEqual([
      '1월 5일, 상승 직전에 돈을 넣어서 금액가중수익률이 시간가중수익률보다 높습니다.',
    ]);
    expect(words({ code: 'no_flows' }, 'ko')).toEqual(['이 기간에는 입금이나 출금이 없어서 세 수익률이 같습니다.']);
    expect(words({ code: 'mwr_unavailable' }, 'ko')[0]).toContain('금액가중수익률을 계산할 수 없습니다');
  });

  it('in English', async () => {
    await setLocale('en');
    expect(words(addedBeforeFall, 'en')).toEqual([
      'You added most of your money (70%) on March 3, just before the portfolio fell, so your money-weighted return is below the time-weighted one.',
      'After that the portfolio fell 8.6%.',
      'Money-weighted minus time-weighted: -7.60 percentage points',
    ]);
    expect(words(withdrewBeforeRise, 'en')).toEqual([
      'You took out 25% of your money on June 15, just before the portfolio rose, so your money-weighted return is below the time-weighted one.',
      'After that the portfolio rose 12.0%.',
      'Money-weighted minus time-weighted: -2.12 percentage points',
    ]);
    expect(words({ code: 'withdrew_before_fall', flow_date: '2026-02-01', flow_share: '60' }, 'en')).toEqual([
      'You took out most of your money (60%) on February 1, just before the portfolio fell, so your money-weighted return is above the time-weighted one.',
    ]);
    expect(words({ code: 'similar', difference: '0.01' }, 'en')).toEqual([
      'Money went in or out, but its timing made little difference: the money-weighted and time-weighted returns are close.',
    ]);
  });
});

const CODES: (ExplanationCode | 'a_code_from_the_future')[] = [
  'no_flows',
  'similar',
  'added_before_rise',
  'added_before_fall',
  'withdrew_before_rise',
  'withdrew_before_fall',
  'mwr_above',
  'mwr_below',
  'mwr_unavailable',
  'a_code_from_the_future',
];
/** Positive, negative, zero, and non-zero but printed as zero. */
const DIFFERENCES = ['2.5', '-0.66', '0', '0.001'];
/** What the portfolio did after the flow: rose, fell. */
const AFTER = ['3.2', '-4.1'];

const WORDS = {
  ko: { above: '높습니다', below: '낮습니다', rise: '상승 직전', fall: '하락 직전', difference: /시간가중수익률: (\S+)%p$/ },
  en: { above: 'is above', below: 'is below', rise: 'just before the portfolio rose', fall: 'just before the portfolio fell', difference: /time-weighted: (\S+) percentage points$/ },
} as const;

describe('the explanation agrees with its numbers', () => {
  for (const locale of ['ko', 'en'] as const) {
    it(`in ${locale}: every code × a positive, negative and zero difference`, async () => {
      await setLocale(locale);
      const w = WORDS[locale];
      for (const code of CODES) {
        for (const difference of DIFFERENCES) {
          for (const after of AFTER) {
            const explanation = { code, difference, flow_date: '2026-03-03', flow_share: '40', return_after_flow: after } as Explanation;
            const sentences = words(explanation, locale);
            const text = sentences.join(' ');
            const label = `${code} ${difference} after ${after}: ${text}`;
            const printed = sentences.map((s) => w.difference.exec(s)?.[1]).find(Boolean);
            const sign = printed === undefined ? undefined : printed.startsWith('+') ? 1 : printed.startsWith('-') ? -1 : 0;
            if (text.includes(w.above)) expect(sign, label).toBe(1);
            if (text.includes(w.below)) expect(sign, label).toBe(-1);
            if (sign === 0 || sign === undefined) {
              expect(text, label).not.toContain(w.above);
              expect(text, label).not.toContain(w.below);
            }
            // A higher or lower MWR is always said when a non-zero difference is printed.
            if (sign === 1) expect(text, label).toContain(w.above);
            if (sign === -1) expect(text, label).toContain(w.below);
            // "Just before a rise" only when the portfolio rose after the flow.
            if (text.includes(w.rise)) expect(Number(after), label).toBeGreaterThan(0);
            if (text.includes(w.fall)) expect(Number(after), label).toBeLessThan(0);
            expect(sentences.length, label).toBeGreaterThan(0);
          }
        }
      }
    });
  }

  it('the reproduction: an old server’s added_before_rise over −0.66 %p does not say higher', () => {
    const sentences = words(
      { code: 'added_before_rise', difference: '-0.66', flow_date: '2025-02-04', flow_share: '77.5', return_after_flow: '1.2' },
      'ko',
    );
    expect(sentences.join(' ')).not.toContain('높습니다');
    expect(sentences).toEqual([
      '입출금 시점이 불리하게 작용해 금액가중수익률이 시간가중수익률보다 낮습니다.',
      '금액가중수익률 − 시간가중수익률: -0.66%p',
    ]);
  });

  it('words mwr_above and mwr_below', () => {
    expect(words({ code: 'mwr_above', difference: '1.234' }, 'ko')).toEqual([
      '입출금 시점이 유리하게 작용해 금액가중수익률이 시간가중수익률보다 높습니다.',
      '금액가중수익률 − 시간가중수익률: +1.23%p',
    ]);
    expect(words({ code: 'mwr_below', difference: '-2' }, 'ko')).toEqual([
      '입출금 시점이 불리하게 작용해 금액가중수익률이 시간가중수익률보다 낮습니다.',
      '금액가중수익률 − 시간가중수익률: -2.00%p',
    ]);
  });

  it('words mwr_above and mwr_below in English', async () => {
    await setLocale('en');
    expect(words({ code: 'mwr_below', difference: '-2' }, 'en')).toEqual([
      'The timing of your deposits and withdrawals worked against you: your money-weighted return is below the time-weighted one.',
      'Money-weighted minus time-weighted: -2.00 percentage points',
    ]);
  });

  it('knows the direction of each code as the server does', () => {
    expect(CODES.map((c) => codeDirection(c))).toEqual([0, 0, 1, -1, -1, 1, 1, -1, 0, 0]);
  });
});
