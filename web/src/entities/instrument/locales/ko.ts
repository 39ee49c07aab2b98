/** Korean messages shared by the market screens (namespace `market`), the source locale. */
export const marketKo = {
  state: {
    live: '실시간',
    delayed: '지연 시세',
    stale: '갱신 지연',
    closed: '장 마감',
  },
  stateHint: {
    live: '실시간 시세입니다.',
    delayed: '시세가 15–20분 늦게 제공됩니다.',
    stale: '시세 제공처에 문제가 있어 마지막으로 받은 시세를 보여 줍니다.',
    closed: '장이 마감되어 마지막 거래일의 시세를 보여 줍니다.',
  },
  simulated: '시뮬레이션 데이터',
  simulatedShort: '시뮬레이션',
  simulatedHint: '실제 시세가 아닌 시뮬레이터가 만든 가격입니다.',
  exchange: {
    KRX: 'KRX',
    NYSE: 'NYSE',
    NASDAQ: 'NASDAQ',
    INDEX: '지수',
    FX: '환율',
    CRYPTO: '가상자산',
  },
  asOf: '{{time}} 기준',
  asOfZone: '{{zone}} {{time}} 기준',
  zone: { seoul: '한국 시간', newYork: '뉴욕 시간' },
  change: '전일 대비 {{change}} ({{percent}})',
  loadFailed: '시세를 불러오지 못했습니다.',
  retry: '다시 시도',
} as const;
