import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse } from '@/test/fetch';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { MEMBER, OPERATOR, session } from '../lib/test-fixtures';

const sessionsAnswer = () => ({ sessions: [session()], next_before: null });

describe('the operator console guard', () => {
  afterEach(() => window.localStorage.removeItem('AUTH_TOKEN'));

  it('sends a visitor to the log-in page, coming back to the console', async () => {
    const { location } = renderApp({ route: '/operator/sessions', api: marketApi().handler });
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(new URLSearchParams(location().search).get('next')).toBe('/operator/sessions');
  });

  describe('for a member', () => {
    beforeEach(() => window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 1 })));

    it('tells a member who is not an operator that the console is for operators, without asking for its data', async () => {
      const api = marketApi({ 'GET /api/me': () => MEMBER, 'GET /api/operator/observe/sessions': sessionsAnswer });
      renderApp({ route: '/operator/sessions', api: api.handler });
      expect((await screen.findByTestId('observe-forbidden')).textContent).toBe('운영자만 볼 수 있는 화면입니다.');
      expect(screen.queryByTestId('observe-nav')).toBeNull();
      expect(api.find('GET', '/api/operator/observe')).toHaveLength(0);
    });

    it('shows the notice when the API refuses (403) even if the role said operator', async () => {
      const api = marketApi({
        'GET /api/me': () => OPERATOR,
        'GET /api/operator/observe/sessions': () =>
          jsonResponse({ code: 'forbidden', message: 'no', request_id: 'r' }, { status: 403 }),
      });
      renderApp({ route: '/operator/sessions', api: api.handler });
      expect(await screen.findByTestId('observe-forbidden')).toBeTruthy();
    });

    it('opens the sessions for an operator, with the console navigation', async () => {
      const api = marketApi({ 'GET /api/me': () => OPERATOR, 'GET /api/operator/observe/sessions': sessionsAnswer });
      const { location } = renderApp({ route: '/operator', api: api.handler });
      expect(await screen.findByTestId('observe-session-row')).toBeTruthy();
      expect(location().pathname).toBe('/operator/sessions');
      const nav = screen.getByTestId('observe-nav');
      expect(within(nav).getByTestId('observe-nav-sessions').getAttribute('aria-current')).toBe('page');
      expect(within(nav).getByTestId('observe-nav-vitals').getAttribute('href')).toBe('/operator/vitals');
      expect(within(nav).getByTestId('observe-nav-market').getAttribute('href')).toBe('/operator/market');
    });

    it('leaves /operator/market to the providers page', async () => {
      renderApp({
        route: '/operator/market',
        api: marketApi({ 'GET /api/me': () => OPERATOR, 'GET /api/market/providers': () => [] }).handler,
      });
      expect(await screen.findByText('시세 제공자', { selector: 'h1' })).toBeTruthy();
      expect(screen.queryByTestId('observe-nav')).toBeNull();
    });

    it('answers an unknown console path with a notice under its navigation', async () => {
      renderApp({ route: '/operator/nothing-here', api: marketApi({ 'GET /api/me': () => OPERATOR }).handler });
      expect((await screen.findByTestId('observe-not-found')).textContent).toBe('콘솔에 없는 화면입니다. 위 메뉴에서 고르세요.');
      expect(screen.getByTestId('observe-nav')).toBeTruthy();
    });
  });
});
