/** Korean messages of the search page (namespace `search`), the source locale. */
export const searchKo = {
  meta: {
    title: '종목 검색 — Moat',
    description: '한국·미국 주식, ETF, 지수를 이름·티커·초성으로 찾아보세요.',
  },
  title: '종목 검색',
  label: '종목명, 티커 또는 초성',
  placeholder: '예: 삼성전자, AAPL, ㅅㅅㅈㅈ',
  clearText: '검색어 지우기',
  results: '검색 결과',
  count: '검색 결과 {{count}}개',
  none: '‘{{query}}’에 맞는 종목이 없습니다.',
  failed: '검색하지 못했습니다. 잠시 후 다시 시도해 주세요.',
  recent: {
    title: '최근 본 종목',
    all: '모두 보기',
    clear: '모두 지우기',
    cleared: '최근 본 종목을 지웠습니다.',
    empty: '최근 본 종목이 없습니다. 이름이나 티커로 검색해 보세요.',
  },
  hint: '↑↓로 이동하고 Enter로 엽니다.',
} as const;
