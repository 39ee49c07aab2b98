/** Korean (source) messages of the operator's market-data view. */
export const operatorKo = {
  meta: {
    title: '시세 제공자 — Moat 운영',
    description: '시장별 시세 제공자와 마지막 성공·오류 시각.',
  },
  title: '시세 제공자',
  lead: '시장마다 어느 제공자가 시세를 주는지, 마지막으로 성공하고 실패한 때를 보여 줍니다. 설정 파일의 [market]에서 바꿉니다.',
  market: {
    krx: '한국 (KRX)',
    us: '미국 (NYSE·NASDAQ)',
    fx: '환율',
    crypto: '가상자산',
  },
  provider: {
    simulator: '시뮬레이터',
    yahoo: 'Yahoo Finance',
    alpha_vantage: 'Alpha Vantage',
    ecb: '유럽중앙은행(ECB)',
  },
  columns: { market: '시장', provider: '제공자', lastSuccess: '마지막 성공', lastError: '마지막 오류' },
  server: {
    title: '서버',
    version: '버전',
    time: '서버 시각',
    webviewHost: '웹뷰 테스트 페이지',
    webviewHostOpen: '열기',
    webviewHostOff: '꺼짐 (설정의 webview_host)',
    error: '서버 정보를 불러오지 못했습니다.',
  },
  never: '없음',
  forbidden: '운영자만 볼 수 있는 화면입니다.',
  loadError: '제공자 상태를 불러오지 못했습니다.',
  retry: '다시 시도',
} as const;
