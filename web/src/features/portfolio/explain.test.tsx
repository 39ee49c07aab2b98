import { renderHook } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import type { Explanation } from './api-types';
import { explanationText } from './explain';
import { messagesReady, usePortfolioT } from './messages';

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
