import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { OPERATOR, feedback } from '../lib/test-fixtures';

describe('the feedback list', () => {
  beforeEach(() => window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 1 })));
  afterEach(() => window.localStorage.removeItem('AUTH_TOKEN'));

  it('shows what was sent, by whom, linked to its session, and pages with the cursor', async () => {
    const server = marketApi({
      'GET /api/me': () => OPERATOR,
      'GET /api/operator/observe/feedback': (_c, url) =>
        url.searchParams.get('before') === '3'
          ? { feedback: [feedback({ id: 2, member: null, user_name: null, verbatim: '좋아요', session_secure_id: 's2' })], next_before: null }
          : { feedback: [feedback()], next_before: 3 },
    });
    renderApp({ route: '/operator/feedback', api: server.handler });
    const row = await screen.findByTestId('feedback-row');
    expect(within(row).getByText('차트가 안 보여요')).toBeTruthy();
    expect(within(row).getByText('#42')).toBeTruthy();
    expect(within(row).getByText('황소')).toBeTruthy();
    expect(within(row).getByTestId('feedback-session-link').getAttribute('href')).toBe('/operator/sessions/sess-1');

    fireEvent.click(screen.getByTestId('feedback-more'));
    await waitFor(() => expect(screen.getAllByTestId('feedback-row')).toHaveLength(2));
    const second = screen.getAllByTestId('feedback-row')[1]!;
    expect(within(second).getByText('방문자')).toBeTruthy();
    expect(within(second).getByText('이름 없음')).toBeTruthy();
    expect(server.find('GET', '/api/operator/observe/feedback').map((c) => c.path)).toEqual([
      '/api/operator/observe/feedback?limit=50',
      '/api/operator/observe/feedback?limit=50&before=3',
    ]);
  });

  it('says when there is none', async () => {
    renderApp({
      route: '/operator/feedback',
      api: marketApi({
        'GET /api/me': () => OPERATOR,
        'GET /api/operator/observe/feedback': () => ({ feedback: [], next_before: null }),
      }).handler,
    });
    expect((await screen.findByTestId('feedback-empty')).textContent).toBe('받은 피드백이 없습니다.');
  });
});
