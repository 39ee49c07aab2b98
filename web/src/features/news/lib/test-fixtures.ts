/** Sample answers of the news API for the area's tests (plain data). */
import type { Article, ArticleSummary, Feed, NewsList, NewsStatus } from '../api/types';

/** The tests' clock: 28 November 2026, 12:00 in Seoul. */
export const NOW = new Date('2026-11-28T03:00:00Z');

export const OK: NewsStatus = { state: 'ok', last_success_at: '2026-11-28T02:55:00Z' };

export const SAMSUNG_LINK = { instrument_id: 'KRX:005930', ticker: '005930', name_ko: '삼성전자', name_en: 'Samsung Electronics', in_title: true };

export function article(overrides: Partial<ArticleSummary> = {}): ArticleSummary {
  return {
    id: 101,
    title: '삼성전자, 4분기 영업이익 시장 예상 웃돌아',
    summary: '삼성전자가 4분기 잠정 실적을 발표했다. 반도체 부문이 회복세를 보였다.',
    url: 'https://www.yna.co.kr/view/AKR20261128000100',
    source: '연합뉴스',
    source_count: 1,
    published_at: '2026-11-28T02:55:00Z',
    country: 'KR',
    language: 'ko',
    image_url: null,
    instruments: [],
    ...overrides,
  };
}

export function fullArticle(overrides: Partial<Article> = {}): Article {
  return {
    ...article(),
    sources: [
      { name: '연합뉴스', url: 'https://www.yna.co.kr/view/AKR20261128000100' },
      { name: '한국경제', url: 'https://www.hankyung.com/article/2026112800001' },
    ],
    source_count: 2,
    fetched_at: '2026-11-28T02:56:00Z',
    ...overrides,
  };
}

export function newsList(items: ArticleSummary[], next_cursor: string | null = null, status: NewsStatus = OK): NewsList {
  return { items, next_cursor, status };
}

export function feed(overrides: Partial<Feed> = {}): Feed {
  return {
    id: 1,
    url: 'https://www.yna.co.kr/rss/news.xml',
    source_name: '연합뉴스',
    country: 'KR',
    language: 'ko',
    enabled: true,
    is_default: true,
    status: 'ok',
    last_fetch_at: '2026-11-28T02:50:00Z',
    last_success_at: '2026-11-28T02:50:00Z',
    last_error: null,
    error_count: 0,
    items_total: 1520,
    items_last_fetch: 12,
    next_poll_at: '2026-11-28T03:05:00Z',
    interval_secs: 900,
    ...overrides,
  };
}

export { MEMBER, OPERATOR } from '@/test/members';
