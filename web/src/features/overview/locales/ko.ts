/** Korean messages of the market overview's home sections (namespace `overview`), the source locale. */
export const overviewKo = {
  indices: {
    title: '지수·환율',
  },
  movers: {
    title: '급등·급락',
    gainers: '상승',
    losers: '하락',
    empty: '표시할 종목이 없습니다.',
  },
} as const;
