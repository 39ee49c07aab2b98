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
  branding: {
    meta: {
      title: '브랜딩 — Moat 운영',
      description: '머리글의 로고와 링크 미리보기 이미지를 바꿉니다.',
    },
    title: '브랜딩',
    lead: '머리글에 보일 로고와 링크를 공유할 때 보일 이미지를 올립니다. PNG, JPEG, WebP만 되고 2 MB까지입니다.',
    logo: {
      title: '로고',
      hint: '정사각형 이미지가 알맞습니다. 없으면 Moat 기본 로고가 보입니다.',
      preview: '지금 로고',
    },
    shareCard: {
      title: '공유 이미지',
      hint: '1200 × 630 크기가 알맞습니다. 없으면 기본 공유 이미지가 쓰입니다.',
      preview: '지금 공유 이미지',
    },
    choose: '이미지 파일',
    remove: '기본으로 되돌리기',
    none: '올린 이미지가 없습니다 (기본 사용 중).',
    saved: '저장했습니다.',
    removed: '기본으로 되돌렸습니다.',
  },
} as const;
