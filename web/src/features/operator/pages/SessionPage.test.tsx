import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/fetch';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import type { ObsReplay } from '../api/types';
import { OPERATOR, REPLAY, SESSION_DETAIL } from '../lib/test-fixtures';

// The rrweb player is replaced by a recorder of what the page asks of it.
const { players, FakePlayer } = vi.hoisted(() => {
  const players: FakePlayerType[] = [];
  interface FakePlayerType {
    options: { target: HTMLElement; props: { events: unknown[]; width: number; height: number; autoPlay: boolean } };
    goto: ReturnType<typeof vi.fn>;
    $destroy: ReturnType<typeof vi.fn>;
    /** Every event it was given: the first page's, then those added. */
    events: { timestamp: number }[];
    metaUpdates: number;
  }
  class FakePlayer implements FakePlayerType {
    events: { timestamp: number }[];
    metaUpdates = 0;
    replayer = { addEvent: (e: { timestamp: number }) => this.events.push(e) };
    getReplayer = () => this.replayer;
    addEvent = (e: { timestamp: number }) => {
      this.events.push(e);
      this.metaUpdates++;
    };
    goto = vi.fn();
    pause = vi.fn();
    triggerResize = vi.fn();
    $set = vi.fn();
    $destroy = vi.fn();
    constructor(public options: FakePlayerType['options']) {
      this.events = [...(options.props.events as { timestamp: number }[])];
      const controller = Object.assign(document.createElement('div'), { className: 'rr-controller' });
      controller.innerHTML = '<div class="switch"><input type="checkbox" id="skip"><label for="skip"></label><span class="label">skip inactive</span></div>';
      options.target.append(Object.assign(document.createElement('div'), { className: 'rr-player' }), controller);
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

  it('starts on the first page of a long replay and adds the later pages as they come, without starting over', async () => {
    const page = (from: number, n: number, next: number | null): ObsReplay => ({
      secure_id: 'sess-1',
      events: Array.from({ length: n }, (_, i) => ({ type: i === 0 && from === 0 ? 4 : 3, timestamp: 1_000_000 + (from + i) * 1_000, data: {} })),
      chunks: 15,
      total_chunks: 45,
      next_after: next,
    });
    let releaseLast!: () => void;
    const last = new Promise<void>((r) => (releaseLast = r));
    const mock = marketApi({
      'GET /api/me': () => OPERATOR,
      'GET /api/operator/observe/sessions/sess-1': () => SESSION_DETAIL,
      'GET /api/operator/observe/sessions/sess-1/replay': (_call, url) => {
        const after = url.searchParams.get('after');
        if (after === null) return page(0, 10, 15);
        if (after === '15') return page(10, 10, 30);
        return last.then(() => page(20, 10, null));
      },
    });
    renderApp({ route: '/operator/sessions/sess-1', api: mock.handler });
    const p = await player();
    expect(p.options.props.events).toHaveLength(10);
    // The second page arrives and is added to the same player; the third is on its way.
    await waitFor(() => expect(p.events).toHaveLength(20));
    expect(p.metaUpdates).toBe(1);
    expect((await screen.findByTestId('replay-more')).textContent).toMatch(/66%/);
    expect(screen.getByTestId('replay-player').dataset.complete).toBe('false');

    releaseLast();
    await waitFor(() => expect(p.events).toHaveLength(30));
    expect(players).toHaveLength(1);
    expect(p.metaUpdates).toBe(2);
    await waitFor(() => expect(screen.queryByTestId('replay-more')).toBeNull());
    expect(screen.getByTestId('replay-player').dataset.complete).toBe('true');
    const pages = mock.find('GET', '/api/operator/observe/sessions/sess-1/replay').map((c) => c.path.split('?')[1]);
    expect(pages).toEqual(['limit=15', 'limit=150&after=15', 'limit=150&after=30']);
  });

  it('keeps a seek to a moment not loaded yet until its page has arrived', async () => {
    let releaseSecond!: () => void;
    const second = new Promise<void>((r) => (releaseSecond = r));
    const first: ObsReplay = { ...REPLAY, chunks: 1, total_chunks: 2, next_after: 9 };
    const rest: ObsReplay = {
      secure_id: 'sess-1',
      events: [{ type: 3, timestamp: 1_060_000, data: {} }],
      chunks: 1,
      total_chunks: 2,
      next_after: null,
    };
    const mock = marketApi({
      'GET /api/me': () => OPERATOR,
      'GET /api/operator/observe/sessions/sess-1': () => SESSION_DETAIL,
      'GET /api/operator/observe/sessions/sess-1/replay': (_call, url) =>
        url.searchParams.get('after') === null ? first : second.then(() => rest),
    });
    // ?t=50 s: past the first page (which ends 30 s in).
    renderApp({ route: '/operator/sessions/sess-1?t=50000', api: mock.handler });
    const p = await player();
    await waitFor(() => expect(screen.getByTestId('replay-player').dataset.status).toBe('ready'));
    expect(p.goto).not.toHaveBeenCalled();
    releaseSecond();
    await waitFor(() => expect(p.goto).toHaveBeenCalledWith(50_000, false));
  });

  it('says so when a later page fails, and tries again when asked', async () => {
    let fail = true;
    const mock = marketApi({
      'GET /api/me': () => OPERATOR,
      'GET /api/operator/observe/sessions/sess-1': () => SESSION_DETAIL,
      'GET /api/operator/observe/sessions/sess-1/replay': (_call, url) => {
        if (url.searchParams.get('after') === null) return { ...REPLAY, total_chunks: 2, next_after: 1 };
        if (fail) return jsonResponse({ code: 'internal', message: 'boom', request_id: 'x' }, { status: 500 });
        return { secure_id: 'sess-1', events: [{ type: 3, timestamp: 1_040_000, data: {} }], chunks: 1, total_chunks: 2, next_after: null };
      },
    });
    renderApp({ route: '/operator/sessions/sess-1', api: mock.handler });
    const p = await player();
    const problem = await screen.findByTestId('replay-more-failed', {}, { timeout: 5_000 });
    // The first page still plays.
    expect(screen.getByTestId('replay-player').dataset.status).toBe('ready');
    fail = false;
    fireEvent.click(within(problem).getByRole('button'));
    await waitFor(() => expect(p.events).toHaveLength(4));
    expect(screen.queryByTestId('replay-more-failed')).toBeNull();
  });

  it('names the player’s “skip inactive” switch in the page’s language', async () => {
    renderApp({ route: '/operator/sessions/sess-1', api: api().handler });
    await player();
    await waitFor(() => expect(screen.getByTestId('replay-player').dataset.status).toBe('ready'));
    const label = screen.getByTestId('replay-player').querySelector('.switch .label')!;
    expect(label.textContent).toBe('비활성 구간 건너뛰기');
    expect(screen.getByRole('checkbox', { name: '비활성 구간 건너뛰기' })).toBeTruthy();
  });

  it('says so when nothing was recorded for the replay', async () => {
    renderApp({
      route: '/operator/sessions/sess-1',
      api: api({ replay: { secure_id: 'sess-1', events: [], chunks: 0, total_chunks: 0, next_after: null } }).handler,
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
