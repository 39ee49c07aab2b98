/** Korean messages of the feedback form (i18next namespace `feedback`), the source locale. */
export const feedbackKo = {
  title: '의견 보내기',
  intro: '불편했던 점이나 바라는 점을 알려 주세요. 지금 이용 중인 화면 기록과 함께 전달됩니다.',
  verbatim: '의견',
  verbatimRequired: '의견을 입력해 주세요.',
  name: '이름 (선택)',
  email: '이메일 (선택)',
  emailHint: '답변이 필요하면 적어 주세요.',
  emailInvalid: '이메일 주소를 확인해 주세요.',
  submit: '보내기',
  sent: '의견을 보냈습니다. 고맙습니다.',
  unavailable: '지금은 의견을 보낼 수 없습니다. 잠시 후 다시 시도해 주세요.',
} as const;
