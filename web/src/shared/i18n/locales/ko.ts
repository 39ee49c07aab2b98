import type { MessageShape } from '../types';

/**
 * Korean shell messages (the default i18next namespace, `translation`): what every page
 * shows. Korean is the source locale (PRODUCT.md: Korean default); every other locale is
 * typed from this object, so a key missing there is a compile error. Each area keeps its
 * own texts next to it (`features/<area>/locales/`), loaded with the area's code.
 */
export const ko = {
  app: {
    name: 'Moat',
    skipToContent: '본문으로 건너뛰기',
  },
  nav: {
    label: '주요 메뉴',
    home: '홈',
    portfolios: '포트폴리오',
    news: '뉴스',
    dividends: '배당',
    favorites: '관심 종목',
    settings: '설정',
    all: '전체',
    allTitle: '전체 메뉴',
    sections: '{{name}} 메뉴',
  },
  header: {
    search: '종목 검색',
    language: '언어 변경',
    homeLink: 'Moat 홈',
    login: '로그인',
    account: '내 계정: {{nickname}}',
  },
  meta: {
    notFound: {
      title: '페이지를 찾을 수 없습니다 — Moat',
      // The site's description, as the server writes it for unknown paths.
      description: '한국·미국 주식 포트폴리오, 다가오는 배당, 시장 뉴스, 투자자 커뮤니티와 종목 채팅을 한곳에서.',
    },
  },
  languagePicker: {
    title: '언어 선택',
    changed: '언어를 한국어로 바꿨습니다.',
  },
  notFound: {
    title: '페이지를 찾을 수 없습니다',
    body: '주소가 바뀌었거나 없는 페이지입니다.',
    home: '홈으로 가기',
  },
  errorBoundary: {
    title: '화면을 표시하지 못했습니다',
    body: '일시적인 문제일 수 있어요. 다시 시도해 주세요.',
    retry: '다시 시도',
  },
  offline: {
    message: '오프라인 상태입니다. 연결되면 자동으로 다시 불러옵니다.',
  },
  toast: {
    dismiss: '알림 닫기',
    region: '알림',
  },
  auth: {
    sessionEnded: '로그인이 만료되었습니다. 다시 로그인해 주세요.',
  },
  apiError: {
    /** Before the `errors` messages are loaded (shared/api/error-text.ts). */
    generic: '문제가 생겼습니다. 잠시 후 다시 시도해 주세요.',
  },
  common: {
    close: '닫기',
  },
  loading: '불러오는 중…',
} as const;

/** The shape every locale of the shell has. */
export type Messages = MessageShape<typeof ko>;
