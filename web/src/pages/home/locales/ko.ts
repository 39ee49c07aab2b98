/** Korean messages of the home area (i18next namespace `home`), the source locale. */
export const homeKo = {
  meta: {
    title: 'Moat — 모든 투자를 한곳에',
    description: '한국·미국 주식 포트폴리오, 다가오는 배당, 시장 뉴스, 투자자 커뮤니티와 종목 채팅을 한곳에서.',
  },
  title: '오늘의 시장',
  searchPlaceholder: '종목명·티커·초성으로 검색',
  disclaimer: 'Moat는 투자 자문을 제공하지 않습니다. 모든 투자 판단과 책임은 본인에게 있습니다.',
} as const;
