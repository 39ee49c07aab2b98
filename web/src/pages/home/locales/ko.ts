/** Korean messages of the home area (i18next namespace `home`), the source locale. */
export const homeKo = {
  meta: {
    title: 'Moat — 모든 투자를 한곳에',
    description: '한국·미국 주식 포트폴리오, 다가오는 배당, 시장 뉴스, 투자자 커뮤니티와 종목 채팅을 한곳에서.',
  },
  title: '오늘의 시장',
  searchPlaceholder: '종목명·티커·초성으로 검색',
  indices: {
    title: '지수·환율',
  },
  favorites: {
    title: '관심 종목',
    manage: '관리',
    more: '관심 종목 {{count}}개 모두 보기',
    empty: '아직 관심 종목이 없어요. 종목 페이지에서 별을 눌러 추가해 보세요.',
    findStocks: '종목 찾기',
    loginTitle: '로그인하고 관심 종목을 모아 보세요',
    loginBody: '관심 종목의 실시간 시세를 홈에서 바로 확인할 수 있어요.',
    login: '로그인',
  },
  movers: {
    title: '급등·급락',
    gainers: '상승',
    losers: '하락',
    empty: '표시할 종목이 없습니다.',
  },
  recent: {
    title: '최근 본 종목',
    all: '모두 보기',
  },
  disclaimer: 'Moat는 투자 자문을 제공하지 않습니다. 모든 투자 판단과 책임은 본인에게 있습니다.',
} as const;
