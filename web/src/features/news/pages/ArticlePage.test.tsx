import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetLiveStream } from '@/shared/stream/stream';
import { jsonResponse } from '@/test/fetch';
import { AAPL, FakeWebSocket, marketApi, quote } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { fullArticle, NOW, SAMSUNG_LINK } from '../lib/test-fixtures';
import { messagesReady } from './ArticlePage';

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
});

afterEach(() => resetLiveStream());

const APPLE_LINK = { instrument_id: AAPL.id, ticker: 'AAPL', name_ko: '애플', name_en: 'Apple', in_title: false };
const ARTICLE = fullArticle({ id: 101, image_url: '/media/news/ab12.jpg', instruments: [SAMSUNG_LINK, APPLE_LINK] });

function articleApi() {
  return marketApi({
    'GET /api/news/articles/101': () => ARTICLE,
    'GET /api/news/articles/999': () =>
      jsonResponse({ code: 'news_article_not_found', message: 'no such article', request_id: 't' }, { status: 404 }),
    'GET /api/instruments/KRX%3A005930/quote': () => quote(),
    'GET /api/instruments/NASDAQ%3AAAPL/quote': () => quote({ instrument_id: AAPL.id, price: '189.43', change: '-1.2', change_percent: '-0.63' }),
  });
}

describe('an article', () => {
  it('shows its title, outlets, time, summary and the instruments it names with live prices', async () => {
    renderApp({ route: '/news/101', api: articleApi().handler });
    expect(await screen.findByRole('heading', { level: 1, name: ARTICLE.title }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText(ARTICLE.summary)).toBeTruthy();
    expect(screen.getByText('5분 전')).toBeTruthy();
    expect(screen.getByText(/^2026년 11월 28일/)).toBeTruthy();

    const instruments = screen.getByRole('list', { name: '관련 종목' });
    const up = await within(instruments).findByRole('link', { name: '삼성전자 +1.71%' });
    const down = await within(instruments).findByRole('link', { name: '애플 -0.63%' });
    expect(up.getAttribute('href')).toBe('/stocks/KRX%3A005930');
    expect(down.getAttribute('href')).toBe('/stocks/NASDAQ%3AAAPL');
    expect(within(up).getByText('+1.71%').className).toContain('market-up');
    expect(within(down).getByText('-0.63%').className).toContain('market-down');

    const sources = screen.getByRole('region', { name: '보도한 곳' });
    expect(within(sources).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(ARTICLE.sources.map((s) => s.url));
  }, 15_000);

  it('opens the original in a new tab that gets no handle on Moat', async () => {
    renderApp({ route: '/news/101', api: articleApi().handler });
    const original = await screen.findByRole('link', { name: /원문 보기/ });
    expect(original.getAttribute('href')).toBe(ARTICLE.url);
    expect(original.getAttribute('target')).toBe('_blank');
    expect(original.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('inside the app’s web view, asks the app to open the original', async () => {
    const postMessage = vi.fn();
    window.ReactNativeWebView = { postMessage };
    renderApp({ route: '/news/101', api: articleApi().handler });
    const original = await screen.findByRole('button', { name: '원문 보기' });
    expect(screen.queryByRole('link', { name: /원문 보기/ })).toBeNull();
    fireEvent.click(original);
    expect(postMessage).toHaveBeenCalledWith(JSON.stringify({ type: 'DEEP_LINK', payload: { url: ARTICLE.url } }));
  });

  it('says kindly when there is no such article', async () => {
    renderApp({ route: '/news/999', api: articleApi().handler });
    expect(await screen.findByRole('heading', { level: 1, name: '기사를 찾을 수 없어요' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '뉴스로 가기' }).getAttribute('href')).toBe('/news');
  });
});
