/**
 * Every refusal of the API in Korean (the source locale), one message per `ErrorCode`
 * of the server (`crates/moat-server/src/http/error.rs`, the OpenAPI document's
 * `ErrorCode` enum) and per code the client makes itself (`CLIENT_ERROR_CODES`). A field
 * error uses the same codes. `{{…}}` are the error's `params`, formatted for the page
 * (`shared/api/error-text.ts`); a message names only params its code always carries.
 */
export const errorsKo = {
  codes: {
    // Requests and the framework.
    bad_request: '요청을 처리할 수 없습니다.',
    invalid_parameter: '요청 값이 올바르지 않습니다.',
    invalid_input: '입력한 내용을 확인해 주세요.',
    invalid_body: '보낸 내용의 형식이 올바르지 않습니다.',
    malformed_json: '보낸 내용의 형식이 올바르지 않습니다.',
    unsupported_media_type: '보낸 내용의 형식이 올바르지 않습니다.',
    payload_too_large: '보낸 내용이 너무 큽니다.',
    not_found: '찾을 수 없습니다.',
    method_not_allowed: '요청을 처리할 수 없습니다.',
    request_timeout: '요청 시간이 초과되었습니다. 다시 시도해 주세요.',
    rate_limited: '시도가 너무 많습니다. {{retry_after}}초 후에 다시 시도해 주세요.',
    internal_error: '서버에 문제가 생겼습니다. 잠시 후 다시 시도해 주세요.',
    not_ready: '서버가 아직 준비되지 않았습니다. 잠시 후 다시 시도해 주세요.',
    conflict: '이미 있는 값입니다.',
    limit_reached: 'Moat가 보관하는 최대 개수에 이르렀습니다. 몇 개를 지운 뒤 다시 시도해 주세요.',
    idempotency_key_reused: '같은 요청이 다른 내용으로 이미 보내졌습니다. 다시 시도해 주세요.',
    too_many_connections: '실시간 연결이 너무 많습니다. 잠시 후 다시 시도해 주세요.',
    invalid: '올바른 값이 아닙니다.',
    required: '입력해 주세요.',
    too_long: '{{max}}자까지 쓸 수 있습니다.',
    out_of_range: '허용된 범위를 벗어났습니다.',
    invalid_id: '올바른 식별자가 아닙니다.',
    duplicate: '같은 값이 두 번 들어 있습니다.',
    dates_reversed: '시작일이 종료일보다 늦습니다.',
    span_too_long: '한 번에 {{max_days}}일까지 볼 수 있습니다.',

    // Accounts.
    unauthenticated: '로그인이 필요합니다.',
    token_invalid: '로그인이 만료되었습니다. 다시 로그인해 주세요.',
    link_expired: '링크가 만료되었거나 이미 사용되었습니다. 새 링크를 요청해 주세요.',
    mail_not_configured: '이 서버는 메일을 보내지 않습니다. 운영자에게 비밀번호 재설정을 요청해 주세요.',
    consent_required: '이용약관과 개인정보 처리방침에 동의해 주세요.',
    forbidden: '권한이 없습니다.',
    invalid_credentials: '이메일 또는 비밀번호가 맞지 않습니다.',
    account_banned: '이용이 제한된 계정입니다.',
    reauthentication_required: '보안을 위해 다시 로그인해 주세요.',
    email_taken: '이미 가입된 이메일입니다.',
    nickname_taken: '이미 사용 중인 닉네임입니다.',
    identity_taken: '이 소셜 계정은 이미 다른 Moat 계정에 연결되어 있습니다.',
    email_invalid: '올바른 이메일 주소를 입력해 주세요.',
    nickname_length: '닉네임은 {{min}}~{{max}}자여야 합니다.',
    nickname_characters: '닉네임에는 한글, 영문, 숫자, 밑줄(_)과 마침표(.)만 쓸 수 있습니다.',
    nickname_reserved: '쓸 수 없는 닉네임입니다. 다른 닉네임을 골라 주세요.',
    password_length: '비밀번호는 {{min}}~{{max}}자여야 합니다.',
    password_too_common: '너무 흔한 비밀번호입니다. 다른 비밀번호를 골라 주세요.',
    password_personal: '비밀번호에 이메일이나 닉네임을 넣을 수 없습니다.',
    password_wrong: '현재 비밀번호가 맞지 않습니다.',
    ticket_expired: '로그인 링크가 만료되었거나 이미 쓰였습니다. 처음부터 다시 로그인해 주세요.',

    // Market data.
    quote_unavailable: '지금은 시세를 가져올 수 없습니다.',
    invalid_range: '지원하지 않는 기간입니다.',
    too_many_favorites: '관심 종목은 {{max}}개까지 담을 수 있습니다.',

    // Portfolios.
    fx_unavailable: '환율을 가져오지 못했습니다.',
    invalid_currency_mode: '지원하지 않는 통화 보기입니다.',
    too_many_rows: '한 번에 가져올 수 있는 건수를 넘었습니다. 파일을 나눠 주세요.',
    invalid_import: '파일에 고쳐야 할 줄이 있습니다.',
    currency_unsupported: '지원하지 않는 통화입니다. KRW 또는 USD만 쓸 수 있습니다.',
    instrument_missing: '종목이 필요합니다.',
    instrument_unexpected: '이 종류의 거래에는 종목을 적지 않습니다.',
    quantity_not_positive: '수량은 0보다 커야 합니다.',
    price_not_positive: '단가(금액)는 0보다 커야 합니다.',
    fractional_shares: '국내 주식은 1주 단위로만 거래합니다.',
    fee_negative: '수수료는 0 이상이어야 합니다.',
    tax_negative: '세금은 0 이상이어야 합니다.',
    fx_rate_missing: '기준 통화와 다른 통화의 거래는 환율이 필요합니다.',
    fx_rate_not_positive: '환율은 0보다 커야 합니다.',
    split_ratio_invalid: '분할 비율이 올바르지 않습니다. 예: 4/1, 1/10',
    insufficient_quantity: '{{date}} 기준 {{instrument}} 보유 수량이 {{held}}주라서 {{quantity}}주를 팔 수 없습니다.',
    split_not_held: '그날 보유하지 않은 종목은 분할할 수 없습니다.',
    currency_mismatch: '이 종목의 거래 통화와 다릅니다.',
    dividend_not_held: '그날 보유하지 않은 종목의 배당입니다. 빠진 매수가 있는지 확인해 주세요.',
    fx_rate_unavailable: '그날의 환율을 찾지 못했습니다.',
    empty_file: '빈 파일입니다.',
    missing_column:
      '열 구성을 알아볼 수 없습니다. Moat 형식도, 아는 증권사의 거래내역도 아닙니다 (일자와 종류 열이 필요합니다).',
    malformed_row: '열의 개수가 머리글과 다릅니다.',
    invalid_date: '날짜를 읽을 수 없습니다. 예: 2026-03-04',
    invalid_type: '거래 종류를 읽을 수 없습니다. 예: 매수, 매도, buy, sell',
    invalid_number: '숫자를 읽을 수 없습니다.',
    invalid_instrument: '종목을 읽을 수 없습니다. 예: KRX:005930, NASDAQ:AAPL, 005930',
    unknown_instrument: 'Moat에 없는 종목입니다.',
    invalid_ratio: '분할 비율을 읽을 수 없습니다. 예: 4/1',
    invalid_encoding:
      '파일을 UTF-8이나 EUC-KR 글자로 읽을 수 없습니다. 중간에 잘렸을 수 있으니 증권사에서 다시 내려받아 주세요.',
    before_history: '{{start}} 이전의 거래는 기록할 수 없습니다 (시세 기록이 시작되기 전입니다).',
    date_in_future: '미래의 날짜는 기록할 수 없습니다.',

    // Observability.
    session_bound: '다른 회원의 기록 세션입니다.',

    // 미디어 저장소.
    invalid_media_key: 'Moat가 제공하는 파일 주소가 아닙니다.',
    unsupported_image: 'PNG, JPEG, WebP 이미지를 올려 주세요.',

    // 뉴스.
    news_article_not_found: '기사를 찾을 수 없습니다.',
    news_feed_not_found: '피드를 찾을 수 없습니다. 이미 삭제되었을 수 있습니다.',
    news_feed_exists: '이미 추가된 피드 주소입니다.',
    invalid_feed_url: 'http 또는 https로 시작하는 피드 주소를 입력해 주세요. 주소에 아이디나 비밀번호를 넣을 수 없습니다.',
    invalid_news_query: '검색어를 1~100자로 입력해 주세요.',

    // Made in the browser (`CLIENT_ERROR_CODES`).
    network_error: '서버에 연결하지 못했습니다. 인터넷 연결을 확인해 주세요.',
    aborted: '요청이 취소되었습니다.',
    invalid_response: '서버의 응답을 읽지 못했습니다. 잠시 후 다시 시도해 주세요.',
    http_error: '서버에 문제가 생겼습니다. 잠시 후 다시 시도해 주세요.',
  },
  /** The same without its values, for an answer that does not carry them (a CSV line's problem). */
  plain: {
    rate_limited: '시도가 너무 많습니다. 잠시 후 다시 시도해 주세요.',
    too_long: '너무 깁니다.',
    span_too_long: '한 번에 볼 수 있는 기간을 넘었습니다.',
    nickname_length: '닉네임의 길이가 맞지 않습니다.',
    password_length: '비밀번호의 길이가 맞지 않습니다.',
    too_many_favorites: '관심 종목을 더 담을 수 없습니다.',
    insufficient_quantity: '그날 보유한 수량보다 많이 팔 수 없습니다.',
    before_history: '시세 기록이 시작되기 전의 거래는 기록할 수 없습니다.',
  },
  /** A code this build does not know (a newer server). */
  unknown: '요청을 처리하지 못했습니다. 잠시 후 다시 시도해 주세요.',
} as const;
