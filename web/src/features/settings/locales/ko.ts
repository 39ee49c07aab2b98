/** Korean messages of the settings area (i18next namespace `settings`), the source locale. */
export const settingsKo = {
  meta: {
    title: '설정 — Moat',
    description: '언어, 계정, 약관과 문의 등 Moat 설정.',
  },
  title: '설정',
  language: {
    title: '언어',
    description: '화면에 표시할 언어를 고릅니다.',
    change: '변경',
  },
  account: {
    title: '계정',
    manage: '계정 관리',
    logout: '로그아웃',
    loggedOut: '로그아웃했습니다.',
    delete: '계정 삭제',
    deleteHint: '계정과 모든 데이터를 삭제합니다. 비밀번호를 다시 입력해야 합니다.',
    visitor: '로그인하면 포트폴리오를 기기 사이에서 이어 볼 수 있습니다.',
    login: '로그인',
  },
  legal: {
    title: '약관 및 정책',
    terms: '이용약관',
    privacy: '개인정보 처리방침',
    version: '버전 {{version}} · {{date}} 시행',
    loading: '불러오는 중…',
    error: '문서를 불러오지 못했습니다.',
    retry: '다시 시도',
    none: '아직 게시된 문서가 없습니다.',
  },
  contact: {
    title: '문의',
    description: '운영자에게 메일로 문의하세요.',
  },
  feedback: {
    title: '의견',
    description: '불편한 점이나 바라는 점을 알려 주세요.',
    open: '의견 보내기',
  },
} as const;
