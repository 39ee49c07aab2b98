import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/fetch';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import type { ObsReplay } from '../api/types';
import { OPERATOR, REPLAY, SESSION_DETAIL } from '../test-fixtures';

// The rrweb player is replaced by a recorder of what the page asks of it.
const { players, FakePlayer } = vi.hoisted(() => {
  const players: FakePlayerType[] = [];
  interface FakePlayerType {
    options: { target: HTMLElement; props: { events: unknown[]; width: number; height: number; autoPlay: boolean } };
    goto: ReturnType<typeof vi.fn>;
    $destroy: ReturnType<typeof vi.fn>;
  }
  class FakePlayer implements FakePlayerType {
    goto = vi.fn();
    pause = vi.fn();
    triggerResize = vi.fn();
    $set = vi.fn();
    $destroy = vi.fn();
    constructor(public options: FakePlayerType['options']) {
      options.target.append(Object.assign(document.createElement('div'), { className: 'rr-player' }));
      players.push(this);
    }
  }
  return { players, FakePlayer };
});
vi.mock('rrweb-player', () => ({ default: FakePlayer }));

function api({ replay = REPLAY as ObsReplay | Response } = {}) {
  return marketApi({
    'GET /api/me': () => OPERATOR,
    'GET /api/operator/observe/sessions/sess-1': () => SESSION_DETAIL,
    'GET /api/operator/observe/sessions/sess-1/replay': () => replay,
  });
}

const player = async () => {
  await waitFor(() => expect(players).toHaveLength(1));
  return players[0]!;
};

describe('the session page', () => {
  beforeEach(() => {
    players.length = 0;
    window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 1 }));
  });
  afterEach(() => window.localStorage.removeItem('AUTH_TOKEN'));

  it('replays the recorded events beside the timeline and the session’s details', async () => {
    renderApp({ route: '/operator/sessions/sess-1', api: api().handler });
    const p = await player();
    expect(p.options.props.events).toEqual(REPLAY.events);
    expect(p.options.props.autoPlay).toBe(false);
    expect(screen.getByTestId('replay-player').contains(p.options.target)).toBe(true);
    await waitFor(() => expect(screen.getByTestId('replay-player').dataset.status).toBe('ready'));
    expect(p.goto).not.toHaveBeenCalled();

    expect(await screen.findAllByTestId('timeline-item')).toHaveLength(5);
    const meta = screen.getByTestId('observe-session-meta');
    expect(within(meta).getByText('Mozilla/5.0 (iPhone)')).toBeTruthy();
    expect(within(meta).getByText('production')).toBeTruthy();
    expect(within(meta).getByText('0.1.0')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('황소');
  });

  it('shows the replay at a timeline item’s moment: its time minus the first event’s', async () => {
    renderApp({ route: '/operator/sessions/sess-1', api: api().handler });
    const p = await player();
    const items = await screen.findAllByTestId('timeline-item');
    const click = items.find((i) => i.dataset.kind === 'click')!;
    expect(within(click).getByText('0:04')).toBeTruthy();
    fireEvent.click(within(click).getAllByRole('button')[0]!);
    expect(p.goto).toHaveBeenLastCalledWith(4_500);
    expect(click.getAttribute('aria-current')).toBe('true');

    const error = items.find((i) => i.dataset.kind === 'error')!;
    fireEvent.click(within(error).getAllByRole('button')[0]!);
    expect(p.goto).toHaveBeenLastCalledWith(12_345);
  });

  it('opens at ?t= (from an error occurrence or a shared link)', async () => {
    renderApp({ route: '/operator/sessions/sess-1?t=12345', api: api().handler });
    const p = await player();
    expect(p.goto).toHaveBeenCalledWith(12_345, false);
  });

  it('links a network call to its trace and an error to its group, and filters the timeline by kind', async () => {
    const { location } = renderApp({ route: '/operator/sessions/sess-1', api: api().handler });
    await screen.findAllByTestId('timeline-item');
    expect(screen.getByTestId('timeline-trace-link').getAttribute('href')).toBe(
      '/operator/traces/4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(screen.getByTestId('timeline-error-link').getAttribute('href')).toBe('/operator/errors/7');

    fireEvent.click(screen.getByTestId('timeline-filter-network'));
    const shown = screen.getAllByTestId('timeline-item');
    expect(shown.map((i) => i.dataset.kind)).toEqual(['network']);
    expect(within(shown[0]!).getByText('500')).toBeTruthy();
    expect(within(shown[0]!).getAllByRole('button')[0]!.textContent).toMatch(/POST 500 .*\/api\/portfolios · 120 ms/);

    fireEvent.click(screen.getByTestId('timeline-trace-link'));
    await waitFor(() => expect(location().pathname).toBe('/operator/traces/4bf92f3577b34da6a3ce929d0e0e4736'));
  });

  it('says so when nothing was recorded for the replay', async () => {
    renderApp({
      route: '/operator/sessions/sess-1',
      api: api({ replay: { secure_id: 'sess-1', events: [] } }).handler,
    });
    expect((await screen.findByTestId('replay-empty')).textContent).toContain('기록된 화면이 없습니다');
    expect(await screen.findAllByTestId('timeline-item')).toHaveLength(5);
    expect(players).toHaveLength(0);
  });

  it('says when the session does not exist', async () => {
    renderApp({
      route: '/operator/sessions/gone',
      api: marketApi({
        'GET /api/me': () => OPERATOR,
        'GET /api/operator/observe/sessions/gone': () =>
          jsonResponse({ code: 'not_found', message: 'no', request_id: 'r' }, { status: 404 }),
      }).handler,
    });
    expect((await screen.findByTestId('observe-not-found')).textContent).toContain('이 세션은 없거나');
  });
});
