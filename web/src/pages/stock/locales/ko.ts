/** Korean messages of a stock's page frame (namespace `stockPage`), the source locale. */
export const stockPageKo = {
  meta: {
    title: '{{name}} ({{ticker}}) 시세 — Moat',
    description: '{{name}}({{ticker}})의 실시간 시세, 차트, 주요 지표.',
    fallbackTitle: '종목 — Moat',
    fallbackDescription: '종목의 실시간 시세, 차트, 주요 지표.',
  },
  notFound: {
    title: '종목을 찾을 수 없습니다',
    body: '주소가 잘못되었거나 더 이상 제공하지 않는 종목입니다.',
    search: '종목 검색',
  },
  loadFailed: '종목 정보를 불러오지 못했습니다.',
  retry: '다시 시도',
} as const;
