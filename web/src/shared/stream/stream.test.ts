import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket, quote } from '@/test/market';
import { marketKeys } from '@/entities/instrument/api/keys';
import { subscribeQuote } from '@/entities/instrument/api/live-quote';
import { subscribeAccountEvents } from '@/entities/member/model/account-events';
import {
  CLOSE_BANNED,
  CLOSE_SESSION_ENDED,
  defaultStreamUrl,
  reconnectDelayMs,
  RECONNECT_INITIAL_MS,
  RECONNECT_MAX_MS,
  STREAM_IDLE_CLOSE_MS,
  STREAM_MAX_TOPICS,
  TopicStream,
} from './stream';

const streams: TopicStream[] = [];

/** The test's token store: tokens are `<member>:<anything>`. */
let token: string | undefined;
const tokenListeners = new Set<() => void>();
function setToken(next: string | undefined) {
  token = next;
  tokenListeners.forEach((l) => l());
}

function makeStream() {
  const stream = new TopicStream({
    url: () => 'ws://moat.test/api/stream',
    createSocket: (url) => new FakeWebSocket(url),
    random: () => 0,
    token: () => token,
    onTokenChange: (listener) => {
      tokenListeners.add(listener);
      return () => tokenListeners.delete(listener);
    },
    memberOf: (t) => Number(t.split(':')[0]),
  });
  streams.push(stream);
  return stream;
}

const socket = () => {
  const s = FakeWebSocket.latest;
  if (!s) throw new Error('no socket was opened');
  return s;
};

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
  token = undefined;
});

afterEach(() => {
  streams.splice(0).forEach((s) => s.dispose());
  vi.useRealTimers();
});

describe('stream client', () => {
  it('builds ws:// or wss:// from the page address', () => {
    expect(defaultStreamUrl()).toBe(`ws://${window.location.host}/api/stream`);
  });

  it('opens no socket until the first subscription, then one socket for every topic', () => {
    const stream = makeStream();
    expect(FakeWebSocket.instances).toHaveLength(0);
    const offA = stream.subscribe('quote:KRX:005930', () => {});
    const offB = stream.subscribe('quote:NASDAQ:AAPL', () => {});
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(socket().url).toBe('ws://moat.test/api/stream');
    socket().open();
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930', 'quote:NASDAQ:AAPL']]);
    const offC = stream.subscribe('quote:INDEX:KOSPI', () => {});
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930', 'quote:NASDAQ:AAPL'], ['quote:INDEX:KOSPI']]);
    expect(FakeWebSocket.instances).toHaveLength(1);
    offA();
    offB();
    offC();
  });

  it('counts subscribers per topic: subscribes once and unsubscribes when the last one leaves', () => {
    const stream = makeStream();
    const off1 = stream.subscribe('quote:KRX:005930', () => {});
    socket().open();
    const off2 = stream.subscribe('quote:KRX:005930', () => {});
    expect(stream.listenerCount('quote:KRX:005930')).toBe(2);
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);

    off1();
    off1(); // twice is harmless
    expect(socket().frames('unsubscribe')).toEqual([]);
    off2();
    expect(socket().frames('unsubscribe')).toEqual([['quote:KRX:005930']]);
    expect(stream.listenerCount('quote:KRX:005930')).toBe(0);
  });

  it('delivers pushed messages to the topic’s listeners only, and ignores junk', () => {
    const stream = makeStream();
    const samsung = vi.fn();
    const apple = vi.fn();
    stream.subscribe('quote:KRX:005930', samsung);
    stream.subscribe('quote:NASDAQ:AAPL', apple);
    socket().open();
    const data = quote();
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', data });
    socket().onmessage?.(new MessageEvent('message', { data: 'not json' }));
    socket().push({ op: 'pong' });
    socket().push({ op: 'subscribed', topics: ['quote:KRX:005930'] });
    expect(samsung).toHaveBeenCalledTimes(1);
    expect(samsung).toHaveBeenCalledWith(data);
    expect(apple).not.toHaveBeenCalled();
  });

  it('reconnects with exponential back-off and subscribes to every topic again', () => {
    const stream = makeStream();
    stream.subscribe('quote:KRX:005930', () => {});
    stream.subscribe('quote:NASDAQ:AAPL', () => {});
    socket().open();
    expect(stream.status).toBe('open');

    socket().drop();
    expect(stream.status).toBe('reconnecting');
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(RECONNECT_INITIAL_MS - 1);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);

    // The second attempt fails too: the next wait doubles.
    socket().drop();
    vi.advanceTimersByTime(2 * RECONNECT_INITIAL_MS - 1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);

    socket().open();
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930', 'quote:NASDAQ:AAPL']]);
    expect(stream.status).toBe('open');

    // Success resets the back-off.
    socket().drop();
    vi.advanceTimersByTime(RECONNECT_INITIAL_MS);
    expect(FakeWebSocket.instances).toHaveLength(4);
  });

  it('caps the back-off', () => {
    expect(reconnectDelayMs(0)).toBe(RECONNECT_INITIAL_MS);
    expect(reconnectDelayMs(1)).toBe(2 * RECONNECT_INITIAL_MS);
    expect(reconnectDelayMs(30)).toBe(RECONNECT_MAX_MS);
  });

  it('reconnects at once when the browser comes back online', () => {
    const stream = makeStream();
    stream.subscribe('quote:KRX:005930', () => {});
    socket().open();
    for (let i = 0; i < 5; i++) {
      socket().drop();
      vi.advanceTimersByTime(RECONNECT_MAX_MS);
    }
    socket().drop();
    const before = FakeWebSocket.instances.length;
    window.dispatchEvent(new Event('online'));
    expect(FakeWebSocket.instances).toHaveLength(before + 1);
  });

  it('closes the socket once nothing is subscribed for a while, and opens a new one when needed', () => {
    const stream = makeStream();
    const off = stream.subscribe('quote:KRX:005930', () => {});
    socket().open();
    off();
    vi.advanceTimersByTime(STREAM_IDLE_CLOSE_MS - 1);
    expect(socket().closedByClient).toBe(false);
    // Coming back within the idle time reuses the socket.
    const again = stream.subscribe('quote:KRX:005930', () => {});
    vi.advanceTimersByTime(STREAM_IDLE_CLOSE_MS);
    expect(socket().closedByClient).toBe(false);
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930'], ['quote:KRX:005930']]);
    again();
    vi.advanceTimersByTime(STREAM_IDLE_CLOSE_MS);
    expect(socket().closedByClient).toBe(true);
    expect(stream.status).toBe('idle');
    // A closed-by-us socket does not reconnect.
    vi.advanceTimersByTime(RECONNECT_MAX_MS);
    expect(FakeWebSocket.instances).toHaveLength(1);

    stream.subscribe('quote:KRX:005930', () => {});
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('holds at most the server’s topic cap; others wait for a free slot', () => {
    const stream = makeStream();
    const offs = Array.from({ length: STREAM_MAX_TOPICS + 2 }, (_, i) => stream.subscribe(`quote:KRX:${String(i).padStart(6, '0')}`, () => {}));
    socket().open();
    const subscribed = () => socket().frames('subscribe').flat();
    expect(subscribed()).toHaveLength(STREAM_MAX_TOPICS);
    offs[0]!();
    expect(socket().frames('unsubscribe')).toEqual([['quote:KRX:000000']]);
    expect(subscribed()).toHaveLength(STREAM_MAX_TOPICS + 1);
    expect(subscribed().at(-1)).toBe(`quote:KRX:${String(STREAM_MAX_TOPICS).padStart(6, '0')}`);
  });

  it('writes pushed quotes into the query cache (one write per client), never over a newer quote', () => {
    const stream = makeStream();
    const client = new QueryClient();
    const set = vi.spyOn(client, 'setQueryData');
    const off1 = subscribeQuote(client, 'KRX:005930', stream);
    const off2 = subscribeQuote(client, 'KRX:005930', stream);
    socket().open();
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);

    const first = quote({ price: '71300', as_of: '2025-01-02T06:30:01Z' });
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', data: first });
    expect(client.getQueryData(marketKeys.quote('KRX:005930'))).toEqual(first);
    expect(set).toHaveBeenCalledTimes(1);

    // An older quote arriving late does not replace it.
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', data: quote({ price: '70000', as_of: '2025-01-02T06:29:00Z' }) });
    expect(client.getQueryData(marketKeys.quote('KRX:005930'))).toEqual(first);

    // Something that is not a quote of this instrument is ignored.
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', data: { price: 1 } });
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', data: quote({ instrument_id: 'NASDAQ:AAPL', as_of: '2025-01-02T07:00:00Z' }) });
    expect(client.getQueryData(marketKeys.quote('KRX:005930'))).toEqual(first);

    off1();
    off2();
    expect(socket().frames('unsubscribe')).toEqual([['quote:KRX:005930']]);
  });

  it('keeps working when the socket cannot even be created', () => {
    let fail = true;
    const stream = new TopicStream({
      url: () => 'ws://moat.test/api/stream',
      createSocket: (url) => {
        if (fail) throw new Error('blocked');
        return new FakeWebSocket(url);
      },
      random: () => 0,
    });
    streams.push(stream);
    stream.subscribe('quote:KRX:005930', () => {});
    expect(stream.status).toBe('reconnecting');
    fail = false;
    vi.advanceTimersByTime(RECONNECT_INITIAL_MS);
    socket().open();
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);
  });

  it('ignores frames it does not know, and pushes with other ops', () => {
    const stream = makeStream();
    const listener = vi.fn();
    stream.subscribe('quote:KRX:005930', listener);
    socket().open();
    socket().push({ op: 'presence', topic: 'quote:KRX:005930', data: 1 });
    socket().push({ op: 'unsubscribed', topics: [] });
    socket().push(null);
    socket().push(42);
    expect(listener).not.toHaveBeenCalled();
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', seq: 3, data: 'ok' });
    expect(listener).toHaveBeenCalledWith('ok');
  });
});

describe('stream gaps', () => {
  it('calls the gap listeners of that topic only, once each', () => {
    const stream = makeStream();
    const gapA = vi.fn();
    const gapB = vi.fn();
    stream.subscribe('quote:KRX:005930', () => {}, gapA);
    stream.subscribe('quote:KRX:005930', () => {}, gapA);
    stream.subscribe('quote:NASDAQ:AAPL', () => {}, gapB);
    stream.subscribe('quote:INDEX:KOSPI', () => {});
    socket().open();
    socket().push({ op: 'gap', topic: 'quote:KRX:005930', last_seq: 12 });
    socket().push({ op: 'gap', topic: 'quote:INDEX:KOSPI', last_seq: 0 });
    socket().push({ op: 'gap', topic: 'quote:NOPE:X', last_seq: 0 });
    expect(gapA).toHaveBeenCalledTimes(1);
    expect(gapB).not.toHaveBeenCalled();
  });

  it('re-fetches a quote after a gap', () => {
    const stream = makeStream();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    subscribeQuote(client, 'KRX:005930', stream);
    socket().open();
    socket().push({ op: 'gap', topic: 'quote:KRX:005930', last_seq: 4 });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: marketKeys.quote('KRX:005930') });
  });
});

describe('stream authentication', () => {
  it('a visitor sends no auth and holds private topics back', () => {
    const stream = makeStream();
    stream.subscribe('quote:KRX:005930', () => {});
    stream.subscribe('member:7:account', () => {});
    socket().open();
    expect(socket().authTokens()).toEqual([]);
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);
  });

  it('a member authenticates first and subscribes private topics once authed', () => {
    setToken('7:a');
    const stream = makeStream();
    const listener = vi.fn();
    stream.subscribe('quote:KRX:005930', () => {});
    stream.subscribe('member:7:account', listener);
    socket().open();
    expect(socket().sent[0]).toEqual({ op: 'auth', token: '7:a' });
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);
    socket().push({ op: 'authed', member: 7 });
    expect(stream.authenticated).toBe(true);
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930'], ['member:7:account']]);
    socket().push({ op: 'event', topic: 'member:7:account', seq: 5, data: { kind: 'account_changed' } });
    expect(listener).toHaveBeenCalledWith({ kind: 'account_changed' });
  });

  it('hands a news topic’s new-article frames (op `new`) to its listeners, and ignores unknown ops', () => {
    const stream = makeStream();
    const listener = vi.fn();
    stream.subscribe('news:KR', listener);
    socket().open();
    socket().push({ op: 'new', topic: 'news:KR', seq: 3, data: { id: 9, country: 'KR', instrument_ids: [] } });
    socket().push({ op: 'someday', topic: 'news:KR', seq: 4, data: {} });
    expect(listener.mock.calls).toEqual([[{ id: 9, country: 'KR', instrument_ids: [] }]]);
  });

  it('re-authenticates on a renewed token, authenticates on log-in, and reconnects on log-out or another member', () => {
    const stream = makeStream();
    stream.subscribe('quote:KRX:005930', () => {});
    socket().open();
    // A visitor logs in: the open socket authenticates.
    setToken('7:a');
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(socket().authTokens()).toEqual(['7:a']);
    socket().push({ op: 'authed', member: 7 });
    // The same member's renewed token is sent on the same socket.
    setToken('7:b');
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(socket().authTokens()).toEqual(['7:a', '7:b']);
    // Another member: a new socket, authenticated as them.
    const first = socket();
    setToken('8:a');
    expect(first.closedByClient).toBe(true);
    expect(FakeWebSocket.instances).toHaveLength(2);
    socket().open();
    expect(socket().authTokens()).toEqual(['8:a']);
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);
    // Log-out: a new socket, as a visitor.
    const second = socket();
    setToken(undefined);
    expect(second.closedByClient).toBe(true);
    expect(FakeWebSocket.instances).toHaveLength(3);
    socket().open();
    expect(socket().authTokens()).toEqual([]);
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);
  });

  it.each([CLOSE_SESSION_ENDED, CLOSE_BANNED])(
    'closed with %i, it reconnects after the back-off as a visitor, never with the dead token',
    (code) => {
      setToken('7:a');
      const stream = makeStream();
      stream.subscribe('quote:KRX:005930', () => {});
      stream.subscribe('member:7:account', () => {});
      socket().open();
      socket().push({ op: 'authed', member: 7 });
      socket().closeWith(code, 'session ended');
      // No hot loop: nothing until the back-off has passed.
      expect(FakeWebSocket.instances).toHaveLength(1);
      vi.advanceTimersByTime(RECONNECT_INITIAL_MS);
      expect(FakeWebSocket.instances).toHaveLength(2);
      socket().open();
      expect(socket().authTokens()).toEqual([]);
      expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);
      // A new log-in is used at once.
      setToken('7:fresh');
      expect(socket().authTokens()).toEqual(['7:fresh']);
      socket().push({ op: 'authed', member: 7 });
      expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930'], ['member:7:account']]);
    },
  );

  it('does not send a token the server refused again', () => {
    setToken('7:a');
    const stream = makeStream();
    stream.subscribe('quote:KRX:005930', () => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    socket().open();
    socket().push({ op: 'error', code: 'unauthorized', message: 'no' });
    expect(warn).toHaveBeenCalled();
    socket().drop();
    vi.advanceTimersByTime(RECONNECT_INITIAL_MS);
    socket().open();
    expect(socket().authTokens()).toEqual([]);
    warn.mockRestore();
  });

  it('refetches the member’s account when it changed or events were lost', () => {
    setToken('7:a');
    const stream = makeStream();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const off = subscribeAccountEvents(client, 7, stream);
    socket().open();
    socket().push({ op: 'authed', member: 7 });
    expect(socket().frames('subscribe')).toEqual([['member:7:account']]);
    socket().push({ op: 'event', topic: 'member:7:account', seq: 1, data: { kind: 'something_else' } });
    expect(invalidate).not.toHaveBeenCalled();
    socket().push({ op: 'event', topic: 'member:7:account', seq: 2, data: { kind: 'account_changed' } });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['me', 7], exact: true });
    socket().push({ op: 'gap', topic: 'member:7:account', last_seq: 2 });
    expect(invalidate).toHaveBeenCalledTimes(2);
    off();
    expect(socket().frames('unsubscribe')).toEqual([['member:7:account']]);
  });
});
