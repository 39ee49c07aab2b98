/** Korean messages of the home area (i18next namespace `home`), the source locale. */
export const homeKo = {
  meta: {
    title: 'Moat — 모든 투자를 한곳에',
    description: '한국·미국 주식 포트폴리오, 다가오는 배당, 시장 뉴스, 투자자 커뮤니티와 종목 채팅을 한곳에서.',
  },
  eyebrow: '한국·미국 투자자를 위한 투자 동반자',
  title: '모든 포트폴리오를 한곳에',
  lead: '증권사가 달라도, 시장이 달라도 괜찮아요. 보유 종목과 다가오는 배당, 시장 뉴스, 다른 투자자들의 이야기를 Moat 하나로 모아 보세요.',
  ctaFeatures: '준비 중인 기능 보기',
  ctaSettings: '언어와 설정',
  preview: {
    label: '예시 화면',
    title: '내 포트폴리오',
    total: '총 평가금액',
    today: '오늘',
    domestic: '국내 주식',
    overseas: '해외 주식',
    cash: '현금',
    caption: '실제 데이터가 아닌 예시입니다.',
  },
  featuresTitle: '곧 만나게 될 기능',
  featuresLead: '하나씩 차근차근 열어 갈게요.',
  comingSoon: '준비 중',
  features: {
    portfolios: {
      title: '포트폴리오',
      body: '여러 계좌의 거래를 모아 평균 단가, 수익률, 자산 배분을 원화·달러로 한눈에 봅니다.',
    },
    dividends: {
      title: '배당',
      body: '다가오는 배당락일과 지급일, 세후 예상 배당금을 월별 달력으로 챙깁니다.',
    },
    news: {
      title: '뉴스',
      body: '국내외 시장 뉴스를 모아 내 종목과 연결해 보여 줍니다.',
    },
    community: {
      title: '커뮤니티 · 종목 채팅',
      body: '투자자들과 글을 나누고, 종목마다 열리는 실시간 채팅방에서 이야기합니다.',
    },
  },
  selfHost: {
    title: '직접 운영할 수 있어요',
    body: 'Moat는 실행 파일 하나로 동작합니다. 기본은 내장 SQLite, 규모가 커지면 PostgreSQL로 옮기면 됩니다. 내 투자 기록은 내 서버에 남습니다.',
    points: {
      binary: '실행 파일 하나',
      sqlite: '내장 SQLite',
      postgres: 'PostgreSQL 확장',
    },
  },
  disclaimer: 'Moat는 투자 자문을 제공하지 않습니다. 모든 투자 판단과 책임은 본인에게 있습니다.',
} as const;
